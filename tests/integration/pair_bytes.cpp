#include "integration/pair_bytes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "integration/run_helpers.hpp"

namespace p3s::testing {

PairBytes phase_pairs(const St4npText& st4np, int phase) {
  PairBytes pairs;
  for (const auto& [key, calls] : st4np.calls) {
    if (key.first != phase) continue;
    for (const TextCall& c : calls) {
      if (c.dst >= 0 && !c.completion) pairs[{key.second, c.dst}] += c.bytes;
    }
  }
  return pairs;
}

std::int64_t misrouted(const PairBytes& app, const PairBytes& model) {
  std::int64_t wrong = 0;
  for (const auto& [pair, bytes] : model) {
    const auto it = app.find(pair);
    wrong += std::max<std::int64_t>(0, bytes - (it == app.end() ? 0 : it->second));
  }
  return wrong;
}

void expect_generated_pairs(const std::filesystem::path& slt, int n,
                            const std::filesystem::path& dir,
                            const std::function<PairBytes(const St4npText&)>& pairs_of,
                            const PairBytes& app) {
  SCOPED_TRACE("generated at N = " + std::to_string(n));
  const CommandResult generated = run_command(
      {p3s_bin(), "generate", slt.string(), "-n", std::to_string(n), "-o", dir.string()});
  ASSERT_EQ(generated.exit_code, 0) << generated.output;
  EXPECT_NE(generated.output.find("consistent"), std::string::npos) << generated.output;
  const PairBytes model = pairs_of(read_st4np_text(dir / "st4np.txt"));
  EXPECT_EQ(misrouted(app, model), 0);
  EXPECT_EQ(model, app);
}

}  // namespace p3s::testing
