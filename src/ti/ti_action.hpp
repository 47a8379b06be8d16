#pragma once
// The actions of a SimGrid time-independent (TI) trace, sorted out by MPI rank.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace p3s::ti {

// What SMPI writes for a peer it cannot name as a world rank (MPI_ANY_SOURCE, MPI_PROC_NULL:
// it writes MPI_UNDEFINED) and for MPI_ANY_TAG.
inline constexpr int kTiUndefinedPeer = -333;
inline constexpr int kTiAnyTag = -444;

// One line of a TI trace, "RANK ACTION ARGS...", without its rank.
struct TiAction {
  std::size_t file = 0;  // index into TiTrace::files
  std::size_t line = 0;
  std::string name;
  std::vector<std::string> args;
};

struct TiTrace {
  std::vector<std::filesystem::path> files;
  bool shared_file = false;                  // every rank's actions in one file
  std::vector<std::vector<TiAction>> ranks;  // per MPI rank, in the order the rank did them

  int nprocs() const { return static_cast<int>(ranks.size()); }
  // Throws FormatError at the action's file and line.
  [[noreturn]] void fail(const TiAction& action, const std::string& reason) const;
};

// Reads the rank files a TI list names. With several files, file k (counting from 1, as SMPI
// numbers them) must hold only rank k-1's actions; one file may hold every rank's, interleaved
// (tracing/smpi/format/ti-one-file). Fields are separated by blanks, trailing blanks and a
// missing final newline are accepted. Every rank 0..N-1 must have actions.
TiTrace read_ti_trace(const std::vector<std::filesystem::path>& files);

}  // namespace p3s::ti
