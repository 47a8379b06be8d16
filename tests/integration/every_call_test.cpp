// Every MPI function the tracer wraps, called for real: app_every_call (C) and
// app_every_call_f (Fortran) write their own record of each call (tests/apps/every_call.c
// describes it), and every line of every rank's trace must say what the record says: the
// operation, peers, bytes, root, communicator members and the requests completed.
// The apps are checked against the tracer's exported symbols, so that a wrapper no app calls
// is a failure, not a gap nobody sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "integration/run_helpers.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;
using Fields = std::vector<std::string>;

constexpr int kRanks = 4;

Fields split(const std::string& line) {
  std::istringstream in(line);
  Fields out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string rank_name(const char* prefix, int rank, const char* suffix) {
  char name[64];
  std::snprintf(name, sizeof name, "%s%05d%s", prefix, rank, suffix);
  return name;
}

// `0-2,5` -> `0,1,2,5`: FORMATS.md's member ranges, written out like the app's record.
std::string expand_members(const std::string& ranges) {
  std::string out;
  std::istringstream in(ranges);
  for (std::string range; std::getline(in, range, ',');) {
    auto dash = range.find('-');
    int first = std::stoi(range.substr(0, dash));
    int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
    for (int r = first; r <= last; ++r) out += (out.empty() ? "" : ",") + std::to_string(r);
  }
  return out;
}

bool creates_communicator(const std::string& op) {
  static const std::set<std::string> ops = {"comm_split",  "comm_dup", "comm_create",
                                            "cart_create", "cart_sub", "dist_graph_create"};
  return ops.contains(op);
}

// One rank's trace in the record's terms: event lines as OP DST BYTES SRC RBYTES ROOT COMM NEW
// (FORMATS.md's fields 1, 5, 7, 8, 10, 12, then the members of COMM and, for a creation, of
// the communicator REQ names, `null` for -1), request records as `= s|r PEER BYTES`.
struct TraceItems {
  std::vector<Fields> items;
  std::vector<std::string> raw;  // the trace line each item came from
  std::string end;               // the end line
};

TraceItems trace_items(const fs::path& file) {
  TraceItems out;
  std::map<std::string, std::string> members;
  const auto lines = read_lines(file);
  for (std::size_t i = 7; i < lines.size(); ++i) {
    Fields f = split(lines[i]);
    if (f[0] == "end") {
      out.end = lines[i];
    } else if (f[0] == "comm") {
      members[f[1]] = expand_members(f[3]);
    } else if (f[0] == "=") {
      out.items.push_back({"=", f[2], f[3], f[5]});
      out.raw.push_back(lines[i]);
    } else if (f[0] == "dims_create") {
      out.items.push_back(f);
      out.raw.push_back(lines[i]);
    } else {
      std::string made = "*";
      if (creates_communicator(f[0])) made = f[12] == "-1" ? "null" : members[f[12]];
      out.items.push_back({f[0], f[4], f[6], f[7], f[9], f[11], members[f[10]], made});
      out.raw.push_back(lines[i]);
    }
  }
  return out;
}

// A record field `*` leaves the trace's field unchecked (calls on requests have no
// communicator of their own).
bool same(const Fields& record, const Fields& trace) {
  if (record.size() != trace.size()) return false;
  for (std::size_t i = 0; i < record.size(); ++i) {
    if (record[i] != "*" && record[i] != trace[i]) return false;
  }
  return true;
}

std::string joined(const Fields& fields) {
  std::string out;
  for (const auto& f : fields) out += (out.empty() ? "" : " ") + f;
  return out;
}

// Holds rank `rank`'s trace against its record, line by line; stops at the first difference
// (everything after it would differ too). Returns the ops recorded.
std::set<std::string> expect_trace_matches_record(const fs::path& run, const fs::path& records,
                                                  int rank, const std::string& expected_end) {
  std::set<std::string> ops;
  const auto record = read_lines(records / rank_name("record-", rank, ".txt"));
  const TraceItems trace = trace_items(run / rank_name("rank-", rank, ".p3st"));
  EXPECT_GT(record.size(), 0U) << "rank " << rank << " wrote no record";
  std::size_t events = 0;
  for (std::size_t i = 0; i < record.size(); ++i) {
    if (record[i] == "abort") break;
    const Fields expected = split(record[i]);
    if (expected[0] != "=") ops.insert(expected[0]);
    if (expected[0] != "=" && expected[0] != "dims_create") ++events;
    if (i >= trace.items.size()) {
      ADD_FAILURE() << "rank " << rank << ": the trace ends before record line " << i + 1 << ": "
                    << record[i];
      return ops;
    }
    if (!same(expected, trace.items[i])) {
      ADD_FAILURE() << "rank " << rank << ", record line " << i + 1 << ":\n  app did: " << record[i]
                    << "\n  traced:  " << joined(trace.items[i])
                    << "\n  (trace line: " << trace.raw[i] << ")";
      return ops;
    }
  }
  const std::size_t recorded = record.size() - (record.back() == "abort" ? 1 : 0);
  EXPECT_EQ(trace.items.size(), recorded) << "rank " << rank << ": the trace has more lines";
  EXPECT_EQ(trace.end, expected_end + " " + std::to_string(events)) << "rank " << rank;
  return ops;
}

// The tracer's exported symbols and the MPI symbols a program refers to, by nm.
std::set<std::string> symbols(const std::vector<std::string>& nm_args) {
  std::vector<std::string> argv = {P3S_NM};
  argv.insert(argv.end(), nm_args.begin(), nm_args.end());
  CommandResult r = run_command(argv);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::set<std::string> out;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    Fields f = split(line);
    if (!f.empty()) out.insert(f.back());
  }
  return out;
}

bool has_lower_case(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::islower(c) != 0; });
}

// C wrappers: MPI_Send ... (mixed case); Fortran wrappers: mpi_send_, the routine's name in
// gfortran's default spelling (the tracer also exports mpi_send__, mpi_send and MPI_SEND).
struct Wrapped {
  std::set<std::string> c;
  std::set<std::string> fortran;
};

Wrapped wrapped_symbols() {
  Wrapped w;
  for (const auto& s : symbols({"-D", "--defined-only", P3S_TRACE_LIB_FILE})) {
    if (s.starts_with("MPI_") && has_lower_case(s)) w.c.insert(s);
    if (s.starts_with("mpi_") && s.ends_with("_") && !s.ends_with("__")) w.fortran.insert(s);
  }
  return w;
}

// The trace's name for the op a wrapper records: MPI_Isend and mpi_isend_ -> isend. Wrappers
// that record no event line (init, MPI_Comm_free, MPI_Request_free; MPI_Abort ends the trace)
// give "".
std::string op_of(const std::string& symbol) {
  std::string name = symbol.substr(4);
  if (name.ends_with("_")) name.pop_back();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const std::set<std::string> no_event = {"init", "init_thread", "abort", "comm_free",
                                                 "request_free"};
  return no_event.contains(name) ? "" : name;
}

TEST(EveryCall, TheAppsReferToEveryWrappedSymbol) {
  const Wrapped wrapped = wrapped_symbols();
  // 70 C wrappers and 70 Fortran routines today; fewer means nm or the filter went wrong.
  ASSERT_GE(wrapped.c.size(), 70U);
  ASSERT_EQ(wrapped.fortran.size(), wrapped.c.size());
  // Each Fortran routine under all four spellings gfortran programs may link against.
  const auto exported = symbols({"-D", "--defined-only", P3S_TRACE_LIB_FILE});
  for (const auto& f : wrapped.fortran) {
    std::string upper = f.substr(0, f.size() - 1);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    for (const auto& spelling : {f + "_", f.substr(0, f.size() - 1), upper}) {
      EXPECT_TRUE(exported.contains(spelling)) << spelling;
    }
  }
  const auto c_used = symbols({"-u", apps_dir() + "/app_every_call"});
  const auto fortran_used = symbols({"-u", apps_dir() + "/app_every_call_f"});
  for (const auto& s : wrapped.c) EXPECT_TRUE(c_used.contains(s)) << "app_every_call: " << s;
  for (const auto& s : wrapped.fortran) {
    EXPECT_TRUE(fortran_used.contains(s)) << "app_every_call_f: " << s;
  }
}

struct AppCase {
  std::string name;
  std::string app;
  bool mpich = false;  // built against MPICH, traced by its tracer under its mpirun
};

// p3s trace --out OUT -- mpirun -np 4 APP ARGS..., with Open MPI or with MPICH.
CommandResult trace_every_call(const AppCase& c, const fs::path& out,
                               const std::vector<std::string>& args) {
  if (!c.mpich) return trace_app(out, kRanks, c.app, args);
  std::vector<std::string> argv = {"env",
                                   std::string("P3S_TRACE_LIB=") + P3S_MPICH_TRACE_LIB_FILE,
                                   p3s_bin(),
                                   "trace",
                                   "--out",
                                   out.string(),
                                   "--",
                                   P3S_MPICH_MPIRUN,
                                   "-np",
                                   std::to_string(kRanks),
                                   std::string(P3S_MPICH_APPS_DIR) + "/" + c.app};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

void PrintTo(const AppCase& c, std::ostream* os) {
  *os << c.app << (c.mpich ? " (MPICH)" : " (Open MPI)");
}

class EveryCallRun : public ::testing::TestWithParam<AppCase> {};

TEST_P(EveryCallRun, EveryTraceLineIsWhatTheAppDid) {
  const AppCase& c = GetParam();
  const fs::path dir = scratch_dir("every-call-" + c.name);
  const fs::path records = dir / "records";
  fs::create_directories(records);
  CommandResult r = trace_every_call(c, dir / "run", {records.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_NE(r.output.find("SUCCESS"), std::string::npos) << r.output;
  std::set<std::string> ops;
  for (int rank = 0; rank < kRanks; ++rank) {
    ops.merge(expect_trace_matches_record(dir / "run", records, rank, "end complete"));
  }
  // Every wrapper that writes an event was called and traced.
  for (const auto& s : wrapped_symbols().c) {
    if (const std::string op = op_of(s); !op.empty()) {
      EXPECT_TRUE(ops.contains(op)) << op;
    }
  }
}

TEST_P(EveryCallRun, AbortEndsTheTrace) {
  const AppCase& c = GetParam();
  const fs::path dir = scratch_dir("every-call-abort-" + c.name);
  const fs::path records = dir / "records";
  fs::create_directories(records);
  CommandResult r = trace_every_call(c, dir / "run", {records.string(), "abort"});
  EXPECT_NE(r.exit_code, 0) << r.output;
  expect_trace_matches_record(dir / "run", records, 0, "end abort");
}

INSTANTIATE_TEST_SUITE_P(
    Apps, EveryCallRun,
    ::testing::Values(AppCase{"c", "app_every_call"}, AppCase{"fortran", "app_every_call_f"},
                      AppCase{"c_mpich", "app_every_call_mpich", true},
                      AppCase{"fortran_mpich", "app_every_call_f_mpich", true}),
    [](const ::testing::TestParamInfo<AppCase>& param) { return param.param.name; });

}  // namespace
}  // namespace p3s::testing
