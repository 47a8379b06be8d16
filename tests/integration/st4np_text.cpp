#include "integration/st4np_text.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace p3s::testing {
namespace {

void add_once(std::vector<std::int32_t>& v, std::int32_t peer) {
  if (peer >= 0 && std::find(v.begin(), v.end(), peer) == v.end()) v.push_back(peer);
}

bool is_completion(const std::string& op) {
  return op == "wait" || op == "waitall" || op == "waitany" || op == "waitsome" || op == "test" ||
         op == "testall" || op == "testany" || op == "testsome";
}

}  // namespace

St4npText read_st4np_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  St4npText t;
  std::string line, word;
  int rank = -1, phase = -1;
  std::vector<TextCall>* calls = nullptr;
  // Per (phase, rank): which peer each request id has, for wildcard receives.
  while (std::getline(in, line)) {
    std::istringstream s(line);
    s >> word;
    if (word == "nprocs") {
      s >> t.nprocs;
    } else if (word == "phase" && rank < 0) {
      int index = 0;
      double weight = 0;
      s >> index >> weight;
      std::string name;
      std::getline(s, name);
      t.phase_names.push_back(name.substr(name.find_first_not_of(' ')));
      t.phase_weights.push_back(weight);
    } else if (word == "rank") {
      s >> rank;
    } else if (word == "phase") {
      s >> phase;
      calls = &t.calls[{phase, rank}];
    } else if (word == "=" && calls && !calls->empty()) {
      std::int64_t req = 0;
      std::string side;
      std::int32_t peer = -1;
      s >> req >> side >> peer;
      TextCall& c = calls->back();
      add_once(c.peers, peer);
      if (c.completion) add_once(c.completes, peer);
    } else if (calls && word != "comm" && word != "end" && word != "ranks" && word != "phases" &&
               word != "p3s-st4np") {
      // OP T_START T_END BURST DST TAG BYTES SRC RTAG RBYTES COMM ROOT REQ
      std::int64_t f[12] = {};
      for (std::int64_t& v : f) s >> v;
      TextCall c;
      c.op = word;
      c.completion = is_completion(word);
      c.burst_ns = f[2];
      c.dst = static_cast<std::int32_t>(f[3]);
      c.bytes = f[5];
      add_once(c.peers, static_cast<std::int32_t>(f[3]));
      add_once(c.peers, static_cast<std::int32_t>(f[6]));
      calls->push_back(c);
    }
  }
  return t;
}

}  // namespace p3s::testing
