#pragma once
// The rank's trace file and the buffer its lines collect in.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/event.hpp"
#include "core/trace_format.hpp"

namespace p3s::trace {

// Lines are formatted with core's trace-format writers into a buffer reserved once; the buffer
// goes to the file with write(2) when it is nearly full and at the end. It never grows past its
// reservation, so its address stays fixed and a signal handler can write out what it holds.
// One writer per process.
//
// On an I/O error the writer prints one warning and closes; is_open() then turns false and the
// tracer stops recording, while the program runs on.
class TraceWriter {
 public:
  // Creates (truncates) the file; false after a warning when that fails.
  bool open(const std::string& path, std::size_t capacity);
  bool is_open() const { return fd_ >= 0; }

  void write_header(const core::TraceHeader& header);
  void write_communicator(const core::Communicator& communicator);
  void write_dims_create(const core::DimsCreate& dims);
  // The event line and its request records.
  void write_event(const core::Event& event, int counter_count);
  // Writes the buffer out when it is past 90 % full. The tracer calls it inside an MPI call,
  // so the time of the write(2) is not mistaken for the program's compute.
  void flush_if_nearly_full();
  // Appends the end line, flushes and closes.
  void finish(core::TraceEnd end);
  // Writes out what is buffered; false if the file is closed (or fails now). A forked child
  // never writes its parent's trace.
  bool flush();

  // Async-signal-safe: writes out the complete lines the buffer holds, leaving the file open
  // (SIGCONT: Open MPI sends it a second before it stops a job with SIGTERM and, a few
  // milliseconds later, SIGKILL; a rank the scheduler leaves waiting that long keeps its
  // events this way, in a trace that reads as truncated).
  static void write_out_from_signal();
  // Async-signal-safe: writes out the complete lines the buffer holds and "end signal SIG N",
  // and closes the file.
  // Both do nothing in a forked child, once the file is closed, or when they interrupted the
  // tracer's own write.
  static void finish_from_signal(int signal);

 private:
  // Makes room for `bytes` more in the buffer, flushing first if needed; false once the file
  // is closed.
  bool make_room(std::size_t bytes);
  // Makes the buffer's complete lines visible to the signal handlers.
  void publish();
  void fail(int error);

  int fd_ = -1;
  std::string path_;
  std::string buffer_;
  std::string long_line_;  // scratch for lines that may not fit the buffer
  std::size_t capacity_ = 0;
  std::int64_t events_ = 0;
};

}  // namespace p3s::trace
