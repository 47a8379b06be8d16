#pragma once
// What `p3s calibrate` fits: point-to-point and compute measurements of one MPI system, read
// from files that say what they are: the calibration benchmark's output ("p3s-calibration 1",
// calibrate/bench/) and the Synthetic Signature's measured messages ("p3s-replay 1",
// replay_mpi/), each by its own reader feeding the same samples.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::calibrate {

// Where two ranks of a message were, as the launcher placed them.
enum class LinkKind { SameNode, CrossNode };
inline constexpr LinkKind kLinkKinds[] = {LinkKind::SameNode, LinkKind::CrossNode};
std::string_view link_name(LinkKind link);  // "same-node" | "cross-node"

// How a message was timed (calibrate/bench/calibration_bench.c says exactly):
enum class Test {
  PingPong,       // MPI_Send / MPI_Recv round trips: half a round trip
  PingPongSsend,  // the same with MPI_Ssend
  PingPongIsend,  // MPI_Isend + MPI_Wait against a pre-posted MPI_Irecv
  SendOverhead,   // the sender's time per MPI_Send of a burst the receiver has posted
  IsendOverhead,  // the sender's time per MPI_Isend of such a burst
  // A message of the application's own pattern as the Synthetic Signature replayed it: the
  // receiver's time from posting the receive to its completion. Its least over a replay is at
  // best one whole message (the transfer and both ends' overheads), as a ping-pong's half.
  AppMessage,
};
inline constexpr Test kTests[] = {Test::PingPong,     Test::PingPongSsend, Test::PingPongIsend,
                                  Test::SendOverhead, Test::IsendOverhead, Test::AppMessage};
std::string_view test_name(Test test);

struct MessageSample {
  Test test = Test::PingPong;
  LinkKind link = LinkKind::SameNode;
  int pairs = 1;  // pairs measuring at the same time
  std::int64_t bytes = 0;
  double seconds = 0;  // per message (ping-pongs) or per call (overheads)
  std::string where;   // "FILE:LINE"
};

struct ComputeSample {
  int concurrent = 1;  // ranks running the probe at once
  double flops = 0;
  double cpu_seconds = 0;
  double wall_seconds = 0;
  std::string where;
};

// A communication round of every rank at once (the benchmark's round tests), timed where a
// node's ranks may outnumber its cores: the cost of waiting for the OS to schedule them in turn.
enum class RoundTest {
  Exchange,   // a ring exchange with both neighbours: one round per iteration
  Allreduce,  // MPI_Allreduce of one double: ceil(log2 ranks) rounds
};
std::string_view round_test_name(RoundTest test);  // "round-exchange" | "round-allreduce"
// Rounds of `test` among `ranks` ranks, as the simulator counts them for the same calls.
int communication_rounds(RoundTest test, int ranks);

struct RoundSample {
  RoundTest test = RoundTest::Exchange;
  int ranks = 0;
  int ranks_per_node = 0;  // the most ranks on one node
  int cores_per_node = 0;  // that node's cores
  double seconds = 0;      // per iteration, the slowest rank
  std::string where;
};

struct Measurements {
  std::vector<MessageSample> messages;
  std::vector<ComputeSample> compute;
  std::vector<RoundSample> rounds;
  std::vector<std::string> sources;  // one line per file: what produced it
  bool simulated = false;            // measured under SimGrid (smpirun), not a real system
  bool benchmark = false;            // the calibration benchmark's output is among them
};

// "512 B", "64 KiB", "16 MiB", "1877 B": how messages sizes are named in messages.
std::string bytes_text(std::int64_t bytes);

// Reads every file and merges them; throws core::FormatError naming the file, the line and the
// reason for anything malformed, truncated, non-finite, negative or inconsistent (files from
// different systems, a same-node line whose ranks are on different hosts, ...).
Measurements read_measurements(const std::vector<std::filesystem::path>& files);

}  // namespace p3s::calibrate
