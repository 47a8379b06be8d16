#include "replay_mpi/st4np_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/trace_format.hpp"

namespace p3s::replay {
namespace {

constexpr const char* kFirstLine = "p3s-st4np 1";

[[noreturn]] void fail(const std::filesystem::path& file, std::size_t line,
                       const std::string& why) {
  throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + why);
}

}  // namespace

bool St4npFile::is_st4np(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string first;
  return std::getline(in, first) && first == kFirstLine;
}

St4npFile::St4npFile(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::string line;
  std::size_t number = 0;
  const auto next = [&](const char* what) {
    if (!std::getline(in, line)) fail(file, number, std::string("ends before ") + what);
    ++number;
    return std::istringstream(line);
  };
  if (next("its first line").str() != kFirstLine) fail(file, 1, "not a p3s-st4np 1 file");
  std::string key;
  int first = 0, last = 0;
  std::size_t phase_count = 0;
  if (!(next("nprocs") >> key >> nprocs_) || key != "nprocs" || nprocs_ < 1)
    fail(file, number, "expected 'nprocs N'");
  if (!(next("ranks") >> key >> first >> last) || key != "ranks" || first != 0 ||
      last != nprocs_ - 1)
    fail(file, number,
         "the replay needs every rank: expected 'ranks 0 " + std::to_string(nprocs_ - 1) + "'");
  if (!(next("phases") >> key >> phase_count) || key != "phases")
    fail(file, number, "expected 'phases P'");
  for (std::size_t p = 0; p < phase_count; ++p) {
    std::istringstream s = next("the phase list");
    std::size_t index = 0;
    core::ScaledPhase phase;
    if (!(s >> key >> index >> phase.weight) || key != "phase" || index != p)
      fail(file, number, "expected 'phase " + std::to_string(p) + " WEIGHT NAME'");
    std::getline(s >> std::ws, phase.name);
    phases_.push_back(phase);
  }
  ranks_.resize(static_cast<std::size_t>(nprocs_));
  for (int r = 0; r < nprocs_; ++r) {
    int got = -1;
    if (!(next("every rank") >> key >> got) || key != "rank" || got != r)
      fail(file, number, "expected 'rank " + std::to_string(r) + "'");
    const std::size_t rank_line = number;
    // The rank's lines become one rank trace for the strict parser, phases one after the other.
    std::string text = "p3s-trace 1\nrank " + std::to_string(r) + "\nnprocs " +
                       std::to_string(nprocs_) +
                       "\nhost st4np\ncounters none\nclock wall=" + core::kUntimedWallClock +
                       " cpu=none cpu_min_ns=0\nstart_unix_ns 0\n";
    std::vector<std::size_t> counts;
    std::size_t events = 0;
    while (in.peek() != EOF) {
      const std::streampos at = in.tellg();
      std::getline(in, line);
      if (line.rfind("rank ", 0) == 0 || line == "end") {
        in.seekg(at);
        break;
      }
      ++number;
      if (line.rfind("phase ", 0) == 0) {
        std::istringstream s(line);
        std::size_t index = 0, count = 0;
        s >> key >> index >> count;
        if (index != counts.size()) fail(file, number, "phases of a rank out of order");
        counts.push_back(count);
        events += count;
        continue;
      }
      text += line + "\n";
    }
    if (counts.size() != phase_count)
      fail(file, number,
           "rank " + std::to_string(r) + " has " + std::to_string(counts.size()) +
               " phases, the header " + std::to_string(phase_count));
    text += "end complete " + std::to_string(events) + "\n";
    core::RankTrace trace;
    try {
      trace = core::parse_rank_trace(text, file.string() + " (rank " + std::to_string(r) +
                                               " from line " + std::to_string(rank_line) + ")");
    } catch (const std::exception& e) {
      throw std::runtime_error(e.what());
    }
    Rank& rank = ranks_[static_cast<std::size_t>(r)];
    rank.comms = trace.comms;
    std::size_t at = 0;
    for (const std::size_t c : counts) {
      rank.phases.emplace_back(trace.events.begin() + static_cast<std::ptrdiff_t>(at),
                               trace.events.begin() + static_cast<std::ptrdiff_t>(at + c));
      at += c;
    }
  }
  if (!std::getline(in, line) || line != "end") fail(file, number + 1, "expected 'end'");
}

void St4npFile::phase_events(int phase, int rank, std::vector<core::Event>& out) const {
  const auto& events =
      ranks_[static_cast<std::size_t>(rank)].phases[static_cast<std::size_t>(phase)];
  out.insert(out.end(), events.begin(), events.end());
}

std::vector<core::Communicator> St4npFile::communicators(int rank) const {
  return ranks_[static_cast<std::size_t>(rank)].comms;
}

}  // namespace p3s::replay
