#include "ti/ti_action.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>

#include "core/format_error.hpp"
#include "core/text_file.hpp"

namespace p3s::ti {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t pos = 0;
  while (true) {
    pos = line.find_first_not_of(" \t\r", pos);
    if (pos == std::string_view::npos) return fields;
    std::size_t end = line.find_first_of(" \t\r", pos);
    if (end == std::string_view::npos) end = line.size();
    fields.emplace_back(line.substr(pos, end - pos));
    pos = end;
  }
}

struct RankedAction {
  int rank;
  TiAction action;
};

// The actions of file `f` (number `f` of the list) with their ranks, appended to `actions`.
void read_ranked_actions(const TiTrace& trace, std::size_t f, std::vector<RankedAction>& actions) {
  const fs::path& file = trace.files[f];
  const std::string text = core::read_text_file(file, "TI rank file");
  std::size_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::vector<std::string> fields = split_fields(std::string_view(text).substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (fields.empty()) continue;
    int rank = -1;
    const std::string& first = fields[0];
    auto [ptr, ec] = std::from_chars(first.data(), first.data() + first.size(), rank);
    if (ec != std::errc() || ptr != first.data() + first.size() || rank < 0) {
      throw core::FormatError(file.string(), line_no,
                              "a TI action starts with its rank, not '" + first + "'");
    }
    if (fields.size() < 2)
      throw core::FormatError(file.string(), line_no, "rank " + first + " but no action");
    if (!trace.shared_file && static_cast<std::size_t>(rank) != f) {
      throw core::FormatError(file.string(), line_no,
                              "action of rank " + first + " in the file of rank " +
                                  std::to_string(f) + " (list entry " + std::to_string(f + 1) +
                                  "): SMPI numbers rank files from 1, file K holding rank K-1");
    }
    TiAction action{f, line_no, std::move(fields[1]), {}};
    action.args.assign(std::make_move_iterator(fields.begin() + 2),
                       std::make_move_iterator(fields.end()));
    actions.push_back({rank, std::move(action)});
  }
}

}  // namespace

void TiTrace::fail(const TiAction& action, const std::string& reason) const {
  throw core::FormatError(files.at(action.file).string(), action.line, reason);
}

TiTrace read_ti_trace(const std::vector<fs::path>& files) {
  TiTrace trace;
  trace.files = files;
  trace.shared_file = files.size() == 1;
  std::vector<RankedAction> actions;
  for (std::size_t f = 0; f < files.size(); ++f) read_ranked_actions(trace, f, actions);
  if (actions.empty())
    throw core::FormatError(files[0].string(), 0,
                            "no TI action in the trace: the SMPI run wrote nothing");
  int max_rank = -1;
  for (const RankedAction& a : actions) max_rank = std::max(max_rank, a.rank);
  // A rank number is only plausible if every lower rank can have an action of its own; this
  // also keeps a garbled number from sizing a huge table.
  if (static_cast<std::size_t>(max_rank) >= actions.size()) {
    auto highest = std::find_if(actions.begin(), actions.end(),
                                [&](const RankedAction& a) { return a.rank == max_rank; });
    trace.fail(highest->action, "rank " + std::to_string(max_rank) + " in a trace of only " +
                                    std::to_string(actions.size()) +
                                    " actions: not every lower rank can have its own");
  }
  const int nprocs = trace.shared_file ? max_rank + 1 : static_cast<int>(files.size());
  trace.ranks.resize(nprocs);
  for (auto& a : actions) trace.ranks[a.rank].push_back(std::move(a.action));
  for (int r = 0; r < nprocs; ++r) {
    if (trace.ranks[r].empty()) {
      throw core::FormatError(
          files[trace.shared_file ? 0 : r].string(), 0,
          "no action of rank " + std::to_string(r) + ": every rank of the run must have its trace");
    }
  }
  return trace;
}

}  // namespace p3s::ti
