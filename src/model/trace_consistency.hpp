#pragma once
// Whether a scaled trace could run: in every phase each send has its receive at the peer
// (same bytes and tag), each collective is called by every member of its communicator, and
// each non-blocking call has a request to complete it.
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::model {

struct ConsistencyReport {
  std::vector<std::string> problems;  // the first few, naming phase and ranks
  std::size_t problem_count = 0;
  bool consistent() const { return problem_count == 0; }
};

// Walks the ranks of every phase in order, matching each rank's messages against its peers'
// events regenerated on demand: memory is one rank's events, a small cache of its peers' and
// the `reported` problems, whatever N (a ScaledTrace produces ranks cheaply, by design).
ConsistencyReport check_consistency(const core::ScaledTrace& trace, std::size_t reported = 8);

}  // namespace p3s::model
