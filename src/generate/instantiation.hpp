#pragma once
// The SLT at N, under the one policy `p3s generate`, `simulate`, `predict`, `whatif` and
// `replay` share: what may be carried instead of modelled, what may be left out, and when N is
// refused. Everything left out is named with its share of the largest training run, the phases
// the model never related to another run's included; a phase whose peers the training runs
// leave undecided at N is refused like a rule undefined there.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/slt.hpp"
#include "model/slt_scaled_trace.hpp"

namespace p3s::generate {

struct Policy {
  // Tile the largest run's pattern over N for phases whose pattern is not modelled.
  bool carry_nearest = false;
  // Leave out what cannot be instantiated at N (named, with its share) instead of refusing N.
  bool partial = false;
  // Use the model's chosen rules where the training runs leave peers undecided at N.
  bool accept_undecided = false;
};

// A part of the largest training run the ST4NP does not stand for.
struct LeftOut {
  std::string what;  // "phase 2 (irecv x4, ...)" or a run phase the SLT does not hold
  double share = 0;  // of the largest training run's time
  std::string why;
  bool relevant = true;  // false: below the relevance threshold (too small to model)
};

struct Instantiation {
  std::unique_ptr<model::SltScaledTrace> trace;
  std::vector<std::string> warnings;  // what was carried, fits past their trusted range, ...
  std::vector<LeftOut> left_out;      // largest share first
  double covered = 0;                 // share of the largest training run its phases stand for

  // "covers 97.3 % of the largest training run (n = 16); left out: ...", for people.
  std::string coverage_text() const;
};

// N cannot be instantiated under the policy; what() says why.
class Refusal : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

// The SLT at N. Throws Refusal when a phase cannot be instantiated there (not modelled and not
// carried, a rule undefined or undecided at N, a fit that goes negative) and the policy is not
// partial; when a relevant part of the largest training run would be left out (a phase the model
// never related across runs) and it is not partial; when nothing is left to instantiate.
Instantiation instantiate(const model::Slt& slt, std::int64_t n, const Policy& policy);

}  // namespace p3s::generate
