// A KBA transport sweep as SNAP makes it (tests/apps/kba_sweep.c): each pipelined chunk waits
// for the previous chunk's sends before sending again, only where the rank has a downstream
// neighbour, so the last chunk's sends are waited for in the next iteration and border ranks
// skip waits. Traced at small n, modelled with `p3s model`, held against a real run at a larger
// n, and generated at larger N, where the bytes every rank sends every other rank and the waits
// every rank makes in one iteration are held against the app's own arithmetic, computed here
// from its source's rules, not by p3s.
#include <gtest/gtest.h>

#include <cmath>

#include "integration/app_expectations.hpp"
#include "integration/model_helpers.hpp"
#include "integration/pair_bytes.hpp"
#include "integration/run_helpers.hpp"
#include "integration/st4np_text.hpp"
#include "model/slt_json.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kCount = 256;  // doubles per message
constexpr int kChunks = 3;
constexpr int kIterations = 20;

// The app's neighbours on its MPI_Dims_create(n, 2) grid, row-major, and per sweep direction
// (quadrant q: y descending when q & 1, z descending when q & 2) the ones downstream.
struct SweepRank {
  int ylo = -1, yhi = -1, zlo = -1, zhi = -1;
  std::vector<int> downstream(int q) const {
    std::vector<int> out;
    const int y = (q & 1) ? ylo : yhi, z = (q & 2) ? zlo : zhi;
    if (y >= 0) out.push_back(y);
    if (z >= 0) out.push_back(z);
    return out;
  }
};

SweepRank sweep_rank(int r, int n) {
  const auto [pz, py] = dims_create_2d(n);
  const int iz = r / py, iy = r % py;
  SweepRank s;
  if (iy > 0) s.ylo = r - 1;
  if (iy < py - 1) s.yhi = r + 1;
  if (iz > 0) s.zlo = r - py;
  if (iz < pz - 1) s.zhi = r + py;
  return s;
}

// One iteration: a message of kCount doubles per chunk to each downstream neighbour of each
// sweep.
PairBytes sweep_pairs(int n) {
  PairBytes pairs;
  for (int r = 0; r < n; ++r) {
    for (int q = 0; q < 4; ++q) {
      for (int down : sweep_rank(r, n).downstream(q)) pairs[{r, down}] += kChunks * kCount * 8;
    }
  }
  return pairs;
}

// One iteration's waitalls on rank r: one per chunk of each sweep it sends downstream in.
int sweep_waits(int r, int n) {
  int waits = 0;
  for (int q = 0; q < 4; ++q) waits += sweep_rank(r, n).downstream(q).empty() ? 0 : kChunks;
  return waits;
}

// The loop phase of an ST4NP: the one repeated as often as the app iterates but its first
// iteration, whose waits have nothing yet to complete.
int loop_phase(const St4npText& st4np) {
  int loop = -1;
  for (std::size_t p = 0; p < st4np.phase_weights.size(); ++p) {
    if (std::lround(st4np.phase_weights[p]) == kIterations - 1) loop = static_cast<int>(p);
  }
  EXPECT_GE(loop, 0) << "no phase repeats " << kIterations - 1 << " times";
  return loop;
}

PairBytes st4np_pairs(const St4npText& st4np) {
  return phase_pairs(st4np, loop_phase(st4np));
}

void expect_sweep_at(const fs::path& work, int n) {
  const fs::path dir = work / ("st4np-" + std::to_string(n));
  expect_generated_pairs(work / "app.slt", n, dir, st4np_pairs, sweep_pairs(n));
  const St4npText st4np = read_st4np_text(dir / "st4np.txt");
  const int loop = loop_phase(st4np);
  for (int r = 0; r < n; ++r) {
    const auto found = st4np.calls.find({loop, r});
    int waits = 0;
    if (found != st4np.calls.end()) {
      for (const TextCall& c : found->second) waits += c.op == "waitall" ? 1 : 0;
    }
    EXPECT_EQ(waits, sweep_waits(r, n)) << "rank " << r << " at N = " << n;
  }
}

TEST(ModelSweeps, KbaSweepWaitingForTheLastChunksSendsInTheNextIteration) {
  const fs::path work = scratch_dir("sweep_kba");
  const std::vector<std::string> args = {std::to_string(kCount), std::to_string(kChunks),
                                         std::to_string(kIterations)};
  const ModelledApp run = trace_and_model(work, "app_kba_sweep", args, {4, 6, 8, 9, 12, 16}, 24);
  expect_covered(work / "app.slt", run.modelled, 6);
  if (run.modelled.exit_code != 0) return;
  const HeldOutModel held = model_with_holdout(run.training, run.holdout);
  std::size_t loop = held.built.slt.phases.size();
  for (std::size_t k = 0; k < held.built.slt.phases.size(); ++k) {
    if (std::lround(held.built.slt.phases[k].weight.at(24)) == kIterations - 1) loop = k;
  }
  ASSERT_LT(loop, held.built.slt.phases.size()) << run.modelled.output;
  // The loop is most of the run, but its share is measured: under ctest -j2 at 24
  // oversubscribed ranks it came out at 44 % once (the first phase's compute 36 % off).
  expect_holdout_exact(held, loop, 0.3);
  // 24 = 6 x 4 was held out; 63 = 9 x 7 and 256 = 16 x 16 are grids no run had.
  for (int n : {24, 63, 256}) expect_sweep_at(work, n);
}

}  // namespace
}  // namespace p3s::testing
