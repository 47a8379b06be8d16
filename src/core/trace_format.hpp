#pragma once
// Trace format v1: one text file per rank (see FORMATS.md). Writers append to a buffer so the
// tracer controls when and how it reaches the disk; the reader is strict.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/event.hpp"

namespace p3s::core {

// Version 2 added the dims_create line; version 1 files (without it) are read as well.
inline constexpr std::string_view kTraceMagic = "p3s-trace 2";
inline constexpr std::string_view kTraceMagicV1 = "p3s-trace 1";

// File name of a rank's trace inside a run directory: rank-00012.p3st
std::string rank_trace_file_name(int rank);

// The wall clock of a logical trace (an ST4NP's ranks): its events carry no times.
inline constexpr const char* kUntimedWallClock = "none";
// The wall clock of a trace imported from SimGrid (ti/): compute only, no measured time.
inline constexpr const char* kSyntheticWallClock = "synthetic";

struct TraceHeader {
  std::int32_t rank = 0;
  std::int32_t nprocs = 0;
  std::string host;
  std::vector<std::string> counter_names;
  std::string wall_clock;
  std::string cpu_clock;
  std::int64_t cpu_min_ns = 0;
  std::int64_t start_unix_ns = 0;
};

void append_header(std::string& out, const TraceHeader& header);
void append_comm(std::string& out, const Communicator& comm);
void append_dims_create(std::string& out, const DimsCreate& dims);
// One event line; its request records follow through append_request.
void append_event(std::string& out, const Event& event, int counter_count);
void append_request(std::string& out, const RequestRecord& request);
void append_end(std::string& out, TraceEnd end, int signal, std::int64_t event_count);
// A whole trace as its file holds it (a truncated trace gets no end line).
std::string rank_trace_text(const RankTrace& trace);

struct ReadOptions {
  // Accept a trace cut short (no end line, or a partial last line) and mark it Truncated
  // instead of failing; aborted and signalled traces are always accepted as such.
  bool allow_truncated = false;
};

// Parses one rank's trace; `name` is used in error messages. Resolves what the tracer could
// only know later: the source, tag and size of wildcard receives from their completion,
// and the message of a persistent request's start from its init.
RankTrace parse_rank_trace(std::string_view text, const std::string& name,
                           const ReadOptions& options = {});
RankTrace read_rank_trace(const std::filesystem::path& file, const ReadOptions& options = {});

}  // namespace p3s::core
