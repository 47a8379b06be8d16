// Communication structures that grow with n (issue 21), one small app each: pipelines of sqrt(n)
// stages over a multipartition with per-stage tags, log2 row reductions with a transpose on
// square and 2:1 grids, and multigrid levels with idle coarse ranks on a grid built from thirds
// of log2(n). Each is traced at the small n a user would pick, modelled with `p3s model`, held
// against a real run at 4x the largest training n, and generated there and at 16x (or, where
// the training runs leave the peers there undecided, refused by generate). The bytes
// every rank sends every other rank in one iteration of the app's loop are then held against
// what the app's own arithmetic gives at that n, computed here from its source's rules (the
// header comments of tests/apps/multipartition.c, cg2d.c and mgrid.c), not by p3s.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <map>

#include "integration/model_helpers.hpp"
#include "integration/pair_bytes.hpp"
#include "integration/run_helpers.hpp"
#include "integration/st4np_text.hpp"
#include "model/slt_json.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

struct GrowingCase {
  std::string app;
  std::vector<std::string> args;
  std::vector<int> training;
  int holdout = 0;
  std::vector<int> generated;  // N to generate and check the bytes at, beyond the hold-out
  int iterations = 0;
  std::function<PairBytes(int)> expected;
  // N where the training runs leave the peers undecided: generate refuses them, and forced
  // (--accept-ambiguous) gives other bytes than the app's, so the refusal is warranted.
  std::vector<int> undecided;
};

// The bytes each rank sends each other rank in one iteration of an ST4NP's loop. Every
// point-to-point message of these apps is sent in the loop, and app_cg2d's loop has no
// collective to cut it at, so a model may well hold one iteration as several phases: the whole
// ST4NP's bytes (each phase's repetition times its weight) over the iteration count.
PairBytes st4np_pairs(const St4npText& st4np, int iterations) {
  PairBytes pairs;
  for (const auto& [key, calls] : st4np.calls) {
    const std::int64_t weight = std::llround(st4np.phase_weights.at(key.first));
    for (const TextCall& c : calls) {
      if (c.dst >= 0 && !c.completion) pairs[{key.second, c.dst}] += weight * c.bytes;
    }
  }
  for (auto& [pair, bytes] : pairs) {
    EXPECT_EQ(bytes % iterations, 0) << pair.first << " -> " << pair.second;
    bytes /= iterations;
  }
  return pairs;
}

void expect_bytes_at(const GrowingCase& c, const fs::path& work, int n) {
  SCOPED_TRACE(c.app);
  expect_generated_pairs(
      work / "app.slt", n, work / ("st4np-" + std::to_string(n)),
      [&](const St4npText& st4np) { return st4np_pairs(st4np, c.iterations); }, c.expected(n));
}

// Generate refuses N, naming the undecided peers; forced, the chosen rules misroute bytes.
void expect_undecided_at(const GrowingCase& c, const fs::path& work, int n) {
  SCOPED_TRACE("undecided at N = " + std::to_string(n));
  const fs::path dir = work / ("st4np-" + std::to_string(n));
  const std::vector<std::string> generate = {
      p3s_bin(), "generate",  (work / "app.slt").string(), "-n", std::to_string(n),
      "-o",      dir.string()};
  const CommandResult refused = run_command(generate);
  EXPECT_NE(refused.exit_code, 0) << refused.output;
  EXPECT_NE(refused.output.find("do not decide its peers"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("a training run at n = "), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(dir / "st4np.txt")) << refused.output;
  std::vector<std::string> forced = generate;
  forced.emplace_back("--accept-ambiguous");
  const CommandResult generated = run_command(forced);
  ASSERT_EQ(generated.exit_code, 0) << generated.output;
  const PairBytes model = st4np_pairs(read_st4np_text(dir / "st4np.txt"), c.iterations);
  EXPECT_GT(misrouted(c.expected(n), model), 0);
}

void check_growing(const GrowingCase& c) {
  const fs::path work = scratch_dir("growing_" + c.app);
  const ModelledApp run = trace_and_model(work, c.app, c.args, c.training, c.holdout);
  expect_covered(work / "app.slt", run.modelled, c.training.size());
  if (run.modelled.exit_code != 0) return;
  for (int n : c.generated) expect_bytes_at(c, work, n);
  for (int n : c.undecided) expect_undecided_at(c, work, n);
  const HeldOutModel held = model_with_holdout(run.training, run.holdout);
  // The loop: of the phases repeated a multiple of the iteration count at the hold-out, the one
  // with the largest share of the largest training run (expect_holdout_exact then holds every
  // phase of 1 % or more of the hold-out run).
  const std::size_t none = held.built.slt.phases.size();
  std::size_t loop = none;
  for (std::size_t k = 0; k < none; ++k) {
    const model::PhaseModel& phase = held.built.slt.phases[k];
    const long weight = std::lround(phase.weight.at(c.holdout));
    if (weight < c.iterations || weight % c.iterations != 0) continue;
    if (loop == none || phase.shares.back() > held.built.slt.phases[loop].shares.back()) loop = k;
  }
  ASSERT_LT(loop, held.built.slt.phases.size()) << run.modelled.output;
  expect_holdout_exact(held, loop, 0.3);
  expect_bytes_at(c, work, c.holdout);
}

int exact_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  EXPECT_EQ(1 << k, n) << "not a power of two";
  return k;
}

// app_multipartition: p x p x p cells of e = size / p points, cell (x, y, z) owned by
// ((y - x) mod p) * p + (z - x) mod p. Per time step, along each axis, every cell but the last
// sends a face (e^2 points of 5 doubles) to the owner of the next cell (forward elimination), and
// every cell but the first one to the owner of the previous cell (back substitution).
PairBytes multipartition_pairs(int n, std::int64_t size) {
  const int p = static_cast<int>(std::lround(std::sqrt(n)));
  EXPECT_EQ(p * p, n);
  EXPECT_EQ(size % p, 0);
  const std::int64_t e = size / p, face = e * e * 5 * 8;
  auto owner = [p](const std::array<int, 3>& cell) {
    return ((cell[1] - cell[0] + p) % p) * p + (cell[2] - cell[0] + p) % p;
  };
  PairBytes pairs;
  for (int x = 0; x < p; ++x)
    for (int y = 0; y < p; ++y)
      for (int z = 0; z < p; ++z) {
        const std::array<int, 3> cell = {x, y, z};
        const int r = owner(cell);
        for (int d = 0; d < 3; ++d) {
          std::array<int, 3> next = cell, prev = cell;
          ++next[d];
          --prev[d];
          if (cell[d] < p - 1) pairs[{r, owner(next)}] += face;
          if (cell[d] > 0) pairs[{r, owner(prev)}] += face;
        }
      }
  return pairs;
}

// Six sweeps of sqrt(n) - 1 stages each, back to back (a stage's send and the next stage's
// receive read as one repetition), each sweep's peer fixed by the diagonal placement; the back
// substitutions' tags start at the last cell's, which moves with n.
TEST(ModelGrowing, MultipartitionPipelinesOfSqrtNStages) {
  check_growing({.app = "app_multipartition",
                 .args = {"48", "10"},
                 .training = {1, 4, 9, 16},
                 .holdout = 64,
                 .generated = {256},
                 .iterations = 10,
                 .expected = [](int n) { return multipartition_pairs(n, 48); },
                 .undecided = {}});
}

// app_cg2d: nprows = 2^floor(k/2), npcols = n / nprows, row-major. Per iteration three row
// reductions over the bits of the column (na / nprows doubles, then 1, then 1) and a transpose
// of na / npcols doubles with (col, row), or on a 2:1 grid (row, 2c + h) with (c, 2 row + h),
// unless that is the rank itself.
PairBytes cg2d_pairs(int n, std::int64_t na) {
  const int k = exact_log2(n);
  const int nprows = 1 << (k / 2), npcols = n / nprows;
  PairBytes pairs;
  for (int r = 0; r < n; ++r) {
    const int row = r / npcols, col = r % npcols;
    for (int bit = 1; bit < npcols; bit <<= 1) {
      pairs[{r, row * npcols + (col ^ bit)}] += (na / nprows + 2) * 8;
    }
    const int transposed =
        npcols == nprows ? col * npcols + row : (col / 2) * npcols + 2 * row + col % 2;
    if (transposed != r) pairs[{r, transposed}] += na / npcols * 8;
  }
  return pairs;
}

// The hold-out (8 x 8) and 16x (16 x 16) grids are square: 128 (8 x 16) holds the 2:1 transpose
// beyond the training runs too. Its loop has no collective: the hold-out at 64 is cut like the
// largest training run, its loop taking the calls between the setup and the final reduction,
// their tags naming steps the training runs never reached.
TEST(ModelGrowing, RowReductionsAndTransposeOnSquareAndOblongGrids) {
  check_growing({.app = "app_cg2d",
                 .args = {"4096", "15"},
                 .training = {1, 2, 4, 8, 16},
                 .holdout = 64,
                 .generated = {128, 256},
                 .iterations = 15,
                 .expected = [](int n) { return cg2d_pairs(n, 4096); },
                 .undecided = {}});
}

// app_mgrid: px = 2^floor(k/3), py = 2^ceil((k-1)/3), pz = 2^ceil(k/3), x fastest. At level l
// (size / 2^l points per dimension) a rank is active when, in every dimension of extent q, it
// holds size / (q 2^l) points or, below one, its coordinate is a multiple of q 2^l / size; it
// then sends, along each dimension with q > 1, a face (the product of its point counts in the
// other two) to the next active rank either way. Two halo exchanges per level per cycle.
PairBytes mgrid_pairs(int n, std::int64_t size) {
  const int k = exact_log2(n);
  const std::array<int, 3> q = {1 << (k / 3), 1 << ((k + 1) / 3), 1 << ((k + 2) / 3)};
  const int levels = exact_log2(static_cast<int>(size));
  PairBytes pairs;
  for (int l = 0; l < levels; ++l) {
    const std::int64_t points = size >> l;
    for (int r = 0; r < n; ++r) {
      const std::array<int, 3> c = {r % q[0], r / q[0] % q[1], r / (q[0] * q[1])};
      std::array<std::int64_t, 3> held{};
      std::array<int, 3> step{};
      bool active = true;
      for (int d = 0; d < 3; ++d) {
        step[d] = points >= q[d] ? 1 : static_cast<int>(q[d] / points);
        held[d] = points >= q[d] ? points / q[d] : 1;
        active = active && c[d] % step[d] == 0;
      }
      if (!active) continue;
      for (int d = 0; d < 3; ++d) {
        if (q[d] == 1) continue;
        const std::int64_t face = held[0] * held[1] * held[2] / held[d] * 8;
        for (int side : {-1, 1}) {
          std::array<int, 3> t = c;
          t[d] = (c[d] + side * step[d] + q[d]) % q[d];
          pairs[{r, t[0] + q[0] * (t[1] + q[1] * t[2])}] += 2 * face;
        }
      }
    }
  }
  return pairs;
}

// The halo exchanges along x, y and z, tagged alike at every n, are three fixed calls that a
// dimension of extent 1 leaves to no rank; the coarsest level's ranks go idle once a dimension
// has more ranks than planes (z at 16). The hold-out at 64 settles which side each exchange goes
// to, but no training grid is wider than the levels above the coarsest: whether they too idle
// ranks beyond (level 3 at 256 does) is left open, and generate refuses N = 256.
TEST(ModelGrowing, MultigridLevelsWithIdleCoarseRanks) {
  check_growing({.app = "app_mgrid",
                 .args = {"32", "10"},
                 .training = {1, 2, 4, 8, 16},
                 .holdout = 64,
                 .generated = {},
                 .iterations = 10,
                 .expected = [](int n) { return mgrid_pairs(n, 32); },
                 .undecided = {256}});
}

// The same multigrid where a user's cluster budget is small: communication-only runs under
// SimGrid (smpi/simulate-computation:no, the compute not declared, so the runs have no time)
// at 16 to 128 ranks, the n where the level above the coarsest goes idle too (128: 8 x 4 x 4).
// Every training run is covered in calls, and the model is decided at 4x the largest: the bytes
// of the ST4NP at 512 are the app's. At 16x (2048: 8 x 16 x 16) a dimension has more ranks than
// any training grid had, so whether only 8 of them hold points on the level above the coarsest is
// open: generate refuses it.
TEST(ModelGrowing, MultigridFromCommunicationOnlySmpiRuns) {
  const fs::path work = scratch_dir("growing_smpi_mgrid");
  constexpr int kCycles = 4;
  std::vector<std::string> model = {p3s_bin(), "model"};
  for (int n : {16, 32, 64, 128}) {
    const fs::path dir = work / ("mgrid-" + std::to_string(n));
    fs::create_directories(dir / "smpi" / "ti");  // SMPI does not create it
    const CommandResult simulated = smpirun_app(
        dir / "smpi", n, "mgrid", {"32", std::to_string(kCycles)},
        {"--cfg=smpi/simulate-computation:no", "-trace-ti", "--cfg=tracing/filename:ti/trace.txt"});
    ASSERT_EQ(simulated.exit_code, 0) << simulated.output;
    const CommandResult imported = import_ti(dir / "smpi" / "ti" / "trace.txt", dir / "run");
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
    model.push_back((dir / "run").string());
  }
  model.insert(model.end(), {"-o", (work / "app.slt").string()});
  const CommandResult modelled = run_command(model);
  EXPECT_NE(modelled.output.find("has no time"), std::string::npos) << modelled.output;
  expect_covered(work / "app.slt", modelled, 4);
  expect_generated_pairs(
      work / "app.slt", 512, work / "st4np-512",
      [&](const St4npText& st4np) { return st4np_pairs(st4np, kCycles); }, mgrid_pairs(512, 32));
  GrowingCase mgrid;
  mgrid.app = "mgrid";
  mgrid.iterations = kCycles;
  mgrid.expected = [](int n) { return mgrid_pairs(n, 32); };
  expect_undecided_at(mgrid, work, 2048);
}

}  // namespace
}  // namespace p3s::testing
