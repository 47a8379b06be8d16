#pragma once
// Which phase of each training run is the same phase of the application (001 sec. 3.1):
// related by what they do, with what changes with n allowed to change. Peers are left out
// (they are the rule being learnt) and so are sizes (they scale); what stays is the outline of
// the calls (operations and tags, runs of the same call counted once, so border ranks and
// grids that grow a dimension still match), the weight and the place in the program's order.
// The phases that take the time are matched first, so a one-off phase that looks like the main
// loop cannot take its place; a phase may be absent from runs (setup that only larger n need).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/logical_phases.hpp"

namespace p3s::model {

struct PhaseMember {
  std::size_t phase = 0;  // index into the run's phases
  double score = 0;       // likeness to the family's reference (0 for the reference itself)
  std::string reason;     // why they were paired, in words
};

struct PhaseFamily {
  std::vector<std::optional<PhaseMember>> members;  // per run, as the runs were given
  std::vector<std::optional<PhaseMember>> extra;    // per extra run
  std::size_t reference_run = 0;                    // the run whose phase the others matched
  double relevance = 0;  // the largest relevance of its members in `runs`
  std::size_t runs_present() const;
};

// `runs` in increasing n; the largest is the reference, the others are matched to it from the
// largest down, and what a run has that no larger run had starts a family of its own. Then each
// of `extra` (a hold-out run, runs of a smaller workload) is matched to the families without
// starting any, so they never change how the training runs are related. Families come in
// logical order.
std::vector<PhaseFamily> match_phases(const std::vector<const LogicalRun*>& runs,
                                      const std::vector<const LogicalRun*>& extra = {});

}  // namespace p3s::model
