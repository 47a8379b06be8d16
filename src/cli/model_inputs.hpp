#pragma once
// What `p3s model` and `p3s predict` share: a run's signature as the model needs it, and the
// SLT built from training runs and measurable runs.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/slt.hpp"
#include "model/slt_scaled_trace.hpp"
#include "signature/signature.hpp"

namespace p3s::cli {

// A run's signature with every rank's phases, relevant or not: ranks' phases are related by
// position, which a phase relevant on some ranks only would shift (the model applies the
// threshold to each logical phase as a whole). Its signature.json serves when `p3s signature
// --threshold 0` wrote it; otherwise the run is analysed again.
signature::Signature signature_of(const std::string& run);

// The SLT of training signatures (and measurable runs' signatures), with the traced command
// as its application. Throws UsageError when the runs do not belong together.
model::Slt build_model(const std::vector<signature::Signature>& training,
                       const std::vector<signature::Signature>& measurable, double threshold);

// The SLT at N processes; prints the warnings of what was carried. When N is refused (a phase
// not modelled without --carry-nearest, an N the rules do not define), prints why as
// `p3s COMMAND: refused: ...` and returns nothing.
std::unique_ptr<model::SltScaledTrace> instantiate(const model::Slt& slt, int nprocs,
                                                   bool carry_nearest, std::string_view command);

}  // namespace p3s::cli
