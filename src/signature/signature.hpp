#pragma once
// The signature of one run: every rank's relevant phases, related across ranks into run-level
// phases, with the representative rank and the measured run they are checked against.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run_dir.hpp"
#include "signature/rank_phases.hpp"

namespace p3s::signature {

inline constexpr std::string_view kSignatureFormat = "p3s-signature 2";
inline constexpr std::string_view kSignatureFile = "signature.json";

enum class ComputeMetric : std::uint8_t { CpuTime, Instructions };

// One phase of the run: the same phase found on several ranks. Ranks keep their own event
// patterns under it (border ranks of a stencil exchange with fewer neighbours).
struct RunPhase {
  std::int32_t id = 0;
  std::int64_t weight = 0;  // on the first rank that has it, in the representative's order
  std::int64_t events = 0;  // events per repetition on that rank
  std::int32_t ranks = 0;   // ranks on which it is relevant
  bool same_weight = true;  // all those ranks repeat it the same number of times
};

struct Signature {
  std::string run_dir;
  core::RunInfo run;
  ComputeMetric compute = ComputeMetric::CpuTime;
  double threshold = 0.01;
  double size_tolerance = 0.5;
  // AET: the longest traced time of any rank (RankPhases::run_ns).
  std::int64_t aet_ns = 0;
  // The rank whose own PET is closest to the AET.
  std::int32_t representative = 0;
  std::vector<RunPhase> phases;   // in the representative rank's order, then any others
  std::vector<RankPhases> ranks;  // indexed by rank
  // Where ranks disagree on their relevant phases, in words.
  std::vector<std::string> notes;
  // The reference run it was cut like (its phases are the reference's, reference_cut.hpp):
  // its directory and n; empty and 0 when cut into its own loops.
  std::string cut_like_run;
  std::int64_t cut_like_n = 0;

  const RankPhases& representative_rank() const { return ranks.at(representative); }
  std::int64_t pet_ns() const { return representative_rank().pet_ns(); }
  double coverage() const { return representative_rank().coverage(); }
};

}  // namespace p3s::signature
