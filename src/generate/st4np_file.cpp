#include "generate/st4np_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/trace_format.hpp"

namespace p3s::generate {
namespace {

constexpr const char* kFirstLine = "p3s-st4np 1";

[[noreturn]] void fail(const std::filesystem::path& file, std::size_t line,
                       const std::string& why) {
  throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + why);
}

// The file read line by line, counting lines for the errors.
struct LineReader {
  const std::filesystem::path& file;
  std::ifstream in;
  std::string line;
  std::size_t number = 0;  // of the last line read

  explicit LineReader(const std::filesystem::path& f) : file(f), in(f) {
    if (!in) throw std::runtime_error("cannot read " + file.string());
  }
  // The next line, as a stream; an error naming `what` at the end of the file.
  std::istringstream next(const char* what) {
    if (!std::getline(in, line)) fail(file, number, std::string("ends before ") + what);
    ++number;
    return std::istringstream(line);
  }
};

struct Header {
  int nprocs = 0;
  std::vector<core::ScaledPhase> phases;
};

Header read_header(LineReader& in) {
  if (in.next("its first line").str() != kFirstLine) fail(in.file, 1, "not a p3s-st4np 1 file");
  Header h;
  std::string key;
  int first = 0, last = 0;
  std::size_t phase_count = 0;
  if (!(in.next("nprocs") >> key >> h.nprocs) || key != "nprocs" || h.nprocs < 1)
    fail(in.file, in.number, "expected 'nprocs N'");
  if (!(in.next("ranks") >> key >> first >> last) || key != "ranks" || first != 0 ||
      last != h.nprocs - 1)
    fail(in.file, in.number,
         "the replay needs every rank: expected 'ranks 0 " + std::to_string(h.nprocs - 1) + "'");
  if (!(in.next("phases") >> key >> phase_count) || key != "phases")
    fail(in.file, in.number, "expected 'phases P'");
  for (std::size_t p = 0; p < phase_count; ++p) {
    std::istringstream s = in.next("the phase list");
    std::size_t index = 0;
    core::ScaledPhase phase;
    if (!(s >> key >> index >> phase.weight) || key != "phase" || index != p)
      fail(in.file, in.number, "expected 'phase " + std::to_string(p) + " WEIGHT NAME'");
    std::getline(s >> std::ws, phase.name);
    h.phases.push_back(phase);
  }
  return h;
}

// One rank's section: its lines as one rank trace for the strict parser (phases one after the
// other), and how many of its events each phase has.
struct RankSection {
  std::string text;
  std::vector<std::size_t> counts;
  std::size_t first_line = 0;  // its "rank R" line
};

RankSection read_rank_section(LineReader& in, int r, int nprocs, std::size_t phase_count) {
  std::string key;
  int got = -1;
  if (!(in.next("every rank") >> key >> got) || key != "rank" || got != r)
    fail(in.file, in.number, "expected 'rank " + std::to_string(r) + "'");
  RankSection section;
  section.first_line = in.number;
  section.text = "p3s-trace 1\nrank " + std::to_string(r) + "\nnprocs " + std::to_string(nprocs) +
                 "\nhost st4np\ncounters none\nclock wall=" + core::kUntimedWallClock +
                 " cpu=none cpu_min_ns=0\nstart_unix_ns 0\n";
  std::size_t events = 0;
  while (in.in.peek() != EOF) {
    const std::streampos at = in.in.tellg();
    std::getline(in.in, in.line);
    if (in.line.rfind("rank ", 0) == 0 || in.line == "end") {
      in.in.seekg(at);
      break;
    }
    ++in.number;
    if (in.line.rfind("phase ", 0) == 0) {
      std::istringstream s(in.line);
      std::size_t index = 0, count = 0;
      if (!(s >> key >> index >> count) || key != "phase")
        fail(in.file, in.number, "expected 'phase P EVENTS'");
      if (index != section.counts.size()) fail(in.file, in.number, "phases of a rank out of order");
      section.counts.push_back(count);
      events += count;
      continue;
    }
    section.text += in.line + "\n";
  }
  if (section.counts.size() != phase_count)
    fail(in.file, in.number,
         "rank " + std::to_string(r) + " has " + std::to_string(section.counts.size()) +
             " phases, the header " + std::to_string(phase_count));
  section.text += "end complete " + std::to_string(events) + "\n";
  return section;
}

}  // namespace

bool St4npFile::is_st4np(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string first;
  return std::getline(in, first) && first == kFirstLine;
}

St4npFile::St4npFile(const std::filesystem::path& file) {
  LineReader in(file);
  Header header = read_header(in);
  nprocs_ = header.nprocs;
  phases_ = std::move(header.phases);
  // Grown rank by rank: the header's N is only believed as far as the file holds its ranks.
  for (int r = 0; r < nprocs_; ++r) {
    const RankSection section = read_rank_section(in, r, nprocs_, phases_.size());
    core::RankTrace trace;
    try {
      trace = core::parse_rank_trace(section.text, file.string() + " (rank " + std::to_string(r) +
                                                       " from line " +
                                                       std::to_string(section.first_line) + ")");
    } catch (const std::exception& e) {
      throw std::runtime_error(e.what());
    }
    Rank& rank = ranks_.emplace_back();
    rank.comms = trace.comms;
    std::size_t at = 0;
    for (const std::size_t c : section.counts) {
      // Counts whose sum wrapped around to the rank's events pass its end line, not this.
      if (c > trace.events.size() - at)
        fail(file, section.first_line, "its phases count more events than the rank has");
      rank.phases.emplace_back(trace.events.begin() + static_cast<std::ptrdiff_t>(at),
                               trace.events.begin() + static_cast<std::ptrdiff_t>(at + c));
      at += c;
    }
  }
  if (!std::getline(in.in, in.line) || in.line != "end")
    fail(file, in.number + 1, "expected 'end'");
}

void St4npFile::phase_events(int phase, int rank, std::vector<core::Event>& out) const {
  const auto& events =
      ranks_[static_cast<std::size_t>(rank)].phases[static_cast<std::size_t>(phase)];
  out.insert(out.end(), events.begin(), events.end());
}

std::vector<core::Communicator> St4npFile::communicators(int rank) const {
  return ranks_[static_cast<std::size_t>(rank)].comms;
}

}  // namespace p3s::generate
