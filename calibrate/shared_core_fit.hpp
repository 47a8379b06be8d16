#pragma once
// The cost of a communication round when a node's ranks outnumber its cores. Waiting MPI
// ranks then poll and yield, so each round of messages waits for the OS to give every rank of
// a core its turn: measured, that cost grows with the ranks per core beyond one. The model p3s
// simulates (src/sim/README.md) is
//     seconds per round = y x (ranks per core - 1)   when ranks per core > 1,
// and the fit finds y from the benchmark's round tests (least squares through zero: the
// round's own time without sharing, a microsecond or less, is folded into y).
#include <string>
#include <vector>

#include "calibrate/measurements.hpp"

namespace p3s::calibrate {

struct SharedCoreComparison {
  RoundTest test = RoundTest::Exchange;
  int ranks = 0;
  double ranks_per_core = 0;
  int rounds = 0;
  double measured = 0, modelled = 0;  // seconds per iteration
  std::string where;
};

struct SharedCoreFit {
  bool measured = false;     // some round test ran with more ranks than cores on a node
  double round_seconds = 0;  // y
  double max_error = 0;      // the largest |modelled - measured| / measured
  std::vector<SharedCoreComparison> comparisons;
};

SharedCoreFit fit_shared_core(const std::vector<RoundSample>& samples);

}  // namespace p3s::calibrate
