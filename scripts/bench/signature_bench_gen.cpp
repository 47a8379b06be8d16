// Writes a synthetic run directory for benchmarking `p3s signature`: a periodic 2D stencil on
// a q x q torus of ranks (each iteration: irecv and isend to 4 neighbours, waitall, compute,
// allreduce), with compute and message times jittered like a real run. Uses core's writers,
// so the files are exactly what the tracer writes.
//
// usage: signature_bench_gen OUT_DIR [RANKS (64, a square)] [EVENTS_PER_RANK (100000)]
#include <fmt/core.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/run_dir.hpp"
#include "core/trace_format.hpp"

namespace {

using p3s::core::Event;
using p3s::core::Op;

constexpr int kEventsPerIteration = 10;
constexpr std::int64_t kHaloBytes = 8 * 1024;

class RankWriter {
 public:
  RankWriter(const std::filesystem::path& file, std::uint32_t seed) : out_(file), rng_(seed) {}

  // Appends `e` after `compute_ns` (jittered by 5 %) of compute, lasting about `call_ns`.
  void add(Event e, double compute_ns, double call_ns) {
    std::normal_distribution<double> jitter(1.0, 0.05);
    const auto burst = static_cast<std::int64_t>(compute_ns * std::max(0.5, jitter(rng_)));
    e.t_start = now_ + burst;
    e.t_end = e.t_start + static_cast<std::int64_t>(call_ns * std::max(0.5, jitter(rng_)));
    e.burst_cpu = burst;
    now_ = e.t_end;
    p3s::core::append_event(text_, e, 0);
    for (const auto& r : e.requests) p3s::core::append_request(text_, r);
    ++events_;
    if (text_.size() > (1u << 20)) flush();
  }

  void header(const p3s::core::TraceHeader& h, int nprocs) {
    p3s::core::append_header(text_, h);
    p3s::core::Communicator world;
    for (int r = 0; r < nprocs; ++r) world.members.push_back(r);
    p3s::core::append_comm(text_, world);
  }

  void finish() {
    p3s::core::append_end(text_, p3s::core::TraceEnd::Complete, 0, events_);
    flush();
  }

  std::int64_t events() const { return events_; }

 private:
  void flush() {
    out_ << text_;
    text_.clear();
  }

  std::ofstream out_;
  std::mt19937 rng_;
  std::string text_;
  std::int64_t now_ = 0;
  std::int64_t events_ = 0;
};

Event p2p(Op op, int peer, std::int64_t req) {
  Event e;
  e.op = op;
  if (op == Op::Isend) {
    e.dst = peer;
    e.tag = 0;
    e.bytes = kHaloBytes;
  } else {
    e.src = peer;
    e.rtag = 0;
    e.rbytes = kHaloBytes;
  }
  e.req = req;
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    fmt::print(stderr,
               "usage: signature_bench_gen OUT_DIR [RANKS (64)] [EVENTS_PER_RANK (100000)]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const int nprocs = argc > 2 ? std::atoi(argv[2]) : 64;
  const long events_per_rank = argc > 3 ? std::atol(argv[3]) : 100'000;
  const int q = static_cast<int>(std::lround(std::sqrt(nprocs)));
  if (nprocs < 1 || q * q != nprocs || events_per_rank < kEventsPerIteration) {
    fmt::print(stderr, "RANKS must be a square and EVENTS_PER_RANK at least {}\n",
               kEventsPerIteration);
    return 2;
  }
  // One bcast before the loop, one reduce and finalize after it.
  const long iterations = (events_per_rank - 3) / kEventsPerIteration;
  std::filesystem::create_directories(dir);

  std::int64_t total = 0;
  for (int rank = 0; rank < nprocs; ++rank) {
    RankWriter w(p3s::core::rank_trace_path(dir, rank), static_cast<std::uint32_t>(rank + 1));
    w.header({rank, nprocs, "bench", {}, "CLOCK_MONOTONIC", "CLOCK_THREAD_CPUTIME_ID", 0, 0},
             nprocs);
    const int row = rank / q, col = rank % q;
    const int neighbours[4] = {((row + q - 1) % q) * q + col, ((row + 1) % q) * q + col,
                               row * q + (col + q - 1) % q, row * q + (col + 1) % q};
    Event bcast;
    bcast.op = Op::Bcast;
    bcast.bytes = bcast.rbytes = 64;
    bcast.root = 0;
    w.add(bcast, 200'000, 20'000);
    std::int64_t req = 0;
    for (long it = 0; it < iterations; ++it) {
      Event waitall;
      waitall.op = Op::Waitall;
      for (int n : neighbours) {
        w.add(p2p(Op::Irecv, n, req), 300, 800);
        waitall.requests.push_back({req++, false, n, 0, kHaloBytes});
      }
      for (int n : neighbours) {
        w.add(p2p(Op::Isend, n, req), 300, 1'500);
        waitall.requests.push_back({req++, true, n, 0, kHaloBytes});
      }
      w.add(waitall, 200, 15'000);
      Event allreduce;
      allreduce.op = Op::Allreduce;
      allreduce.bytes = allreduce.rbytes = 8;
      w.add(allreduce, 120'000, 8'000);
    }
    Event reduce;
    reduce.op = Op::Reduce;
    reduce.bytes = reduce.rbytes = 8;
    reduce.root = 0;
    w.add(reduce, 5'000, 4'000);
    Event finalize;
    finalize.op = Op::Finalize;
    w.add(finalize, 1'000, 30'000);
    w.finish();
    total += w.events();
  }
  p3s::core::RunInfo info;
  info.nprocs = nprocs;
  info.command = {"signature_bench_gen", dir.string(), std::to_string(nprocs),
                  std::to_string(events_per_rank)};
  info.host = "bench";
  info.wall_clock = "CLOCK_MONOTONIC";
  info.cpu_clock = "CLOCK_THREAD_CPUTIME_ID";
  p3s::core::write_run_info(dir, info);
  fmt::print("wrote {}: {} ranks, {} events ({} per rank, {} iterations of {} events)\n",
             dir.string(), nprocs, total, total / nprocs, iterations, kEventsPerIteration);
  return 0;
}
