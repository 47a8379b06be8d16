#pragma once
// What `p3s model` and `p3s predict` share: a run's signature as the model needs it, and the
// SLT built from training runs and measurable runs.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/slt_builder.hpp"
#include "signature/signature.hpp"

namespace p3s::predict {

// A run's signature with every rank's phases, relevant or not (the model applies the
// threshold to each phase of the run as a whole), analysed from the traces: a signature.json
// in the run directory may come from another version or other options. Ranks cut short are
// read and marked so; build_model refuses such a run unless it is allowed.
signature::Signature signature_of(const std::string& run);

struct ModelRequest {
  std::vector<signature::Signature> training;
  std::vector<signature::Signature> measurable;
  std::optional<signature::Signature> holdout;
  double threshold = 0.01;
  model::WorkScaling scaling = model::WorkScaling::Unknown;
  // Runs whose run.json says incomplete (a rank aborted or was killed) are refused unless set;
  // then they are used with a warning.
  bool allow_incomplete = false;
  // Hears each warning, as a line: the library prints nothing itself.
  std::function<void(const std::string&)> warning;
};

// The SLT of training signatures (and measurable runs' signatures), with the traced command
// as its application, and the hold-out run's counterparts of its phases. Throws
// core::RequestError when the runs do not belong together, or when a run is incomplete and
// allow_incomplete is not set (its phases and weights stop where the run stopped).
model::BuiltSlt build_model(const ModelRequest& request);

}  // namespace p3s::predict
