#pragma once
// What `p3s model` and `p3s predict` share: a run's signature as the model needs it, and the
// SLT built from training runs and measurable runs.
#include <string>
#include <vector>

#include "model/slt.hpp"
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

}  // namespace p3s::cli
