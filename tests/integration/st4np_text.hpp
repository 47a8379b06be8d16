#pragma once
// The tests' own reading of `p3s generate`'s st4np.txt (FORMATS.md, "p3s-st4np 1"): per phase and
// rank, each call with the ranks it exchanges messages with. Written apart from the replay's
// code, so that what the replay reports can be counted against it independently.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace p3s::testing {

struct TextCall {
  std::string op;
  std::vector<std::int32_t> peers;      // the call's own peers (dst, src), and for a completion or
                                        // startall every request's peer
  std::vector<std::int32_t> completes;  // a completion's requests' distinct peers
  bool completion = false;
  std::int64_t burst_ns = 0;  // the compute before the call (BURST_CPU)
  std::int32_t dst = -1;      // the rank it sends to, -1 for none
  std::int64_t bytes = 0;     // what it sends (a collective: contributes)
};

struct St4npText {
  int nprocs = 0;
  std::vector<std::string> phase_names;
  std::vector<double> phase_weights;
  std::map<std::pair<int, int>, std::vector<TextCall>> calls;  // (phase, rank)
};

St4npText read_st4np_text(const std::filesystem::path& file);

}  // namespace p3s::testing
