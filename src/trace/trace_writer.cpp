#include "trace/trace_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>

#include "trace/settings.hpp"
#include "trace/warning.hpp"

namespace p3s::trace {
namespace {

// Upper bounds of one event line (op name and up to 16 integers) and one request record.
constexpr std::size_t kMaxEventLine = 512;
constexpr std::size_t kMaxRequestLine = 128;

// What a signal handler may use: all of it is set before it matters and read with atomics,
// and the buffer it points into never moves.
struct SignalView {
  std::atomic<int> fd{-1};
  std::atomic<pid_t> owner{0};
  std::atomic<const char*> data{nullptr};
  std::atomic<std::size_t> written{0};    // bytes of the buffer already in the file
  std::atomic<std::size_t> published{0};  // bytes of the buffer holding complete lines
  std::atomic<std::int64_t> events{0};    // event lines in the file and the published bytes
  // Held by whoever writes the buffer to the file: the tracer, or a handler. A handler that
  // finds it held has interrupted the tracer's own write and leaves the file alone.
  std::atomic_flag writing = ATOMIC_FLAG_INIT;
};
SignalView g_view;

// write(2) until all is written; 0, or the error (async-signal-safe).
int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return ENOSPC;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

// Decimal digits of a non-negative value, without the C library (async-signal-safe).
char* format_decimal(char* out, std::int64_t value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (count > 0) *out++ = digits[--count];
  return out;
}

char* copy_text(char* out, const char* text) {
  while (*text != '\0') *out++ = *text++;
  return out;
}

}  // namespace

bool TraceWriter::open(const std::string& path, std::size_t capacity) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    print_warning("cannot create the trace file " + path + ": " + std::strerror(errno) +
                  "; this rank is not traced, the program runs on");
    return false;
  }
  path_ = path;
  // The program must run on whatever the tracer can get: a buffer this rank cannot have
  // becomes the smallest one, and failing that, this rank goes untraced.
  for (std::size_t size : {capacity, kMinBufferBytes}) {
    try {
      buffer_.reserve(size);
      capacity_ = size;
      break;
    } catch (const std::bad_alloc&) {
      print_warning("cannot allocate a trace buffer of " + std::to_string(size) + " bytes" +
                    (size > kMinBufferBytes ? "; trying " + std::to_string(kMinBufferBytes)
                                            : "; this rank is not traced, the program runs on"));
    }
  }
  if (capacity_ == 0) {
    ::close(fd_);
    ::unlink(path.c_str());
    fd_ = -1;
    return false;
  }
  g_view.data.store(buffer_.data());
  g_view.owner.store(getpid());
  g_view.fd.store(fd_);
  return true;
}

void TraceWriter::write_header(const core::TraceHeader& header) {
  if (!is_open()) return;
  if (!make_room(kMaxEventLine + header.host.size())) return;
  core::append_header(buffer_, header);
  publish();
}

void TraceWriter::write_communicator(const core::Communicator& communicator) {
  if (!is_open()) return;
  long_line_.clear();
  core::append_comm(long_line_, communicator);
  if (long_line_.size() > capacity_) {
    // Longer than the whole buffer: flush what precedes it and write it directly.
    if (!flush()) return;
    if (int error = write_all(fd_, long_line_.data(), long_line_.size()); error != 0) fail(error);
    return;
  }
  if (!make_room(long_line_.size())) return;
  buffer_.append(long_line_);
  publish();
}

void TraceWriter::write_dims_create(const core::DimsCreate& dims) {
  // Up to 16 extents given and chosen, each at most 11 characters.
  constexpr std::size_t kMaxDimsLine = 32 + 2 * 16 * 12;
  if (!is_open() || !make_room(kMaxDimsLine)) return;
  core::append_dims_create(buffer_, dims);
  publish();
}

void TraceWriter::write_event(const core::Event& event, int counter_count) {
  if (!is_open() || !make_room(kMaxEventLine)) return;
  core::append_event(buffer_, event, counter_count);
  ++events_;
  for (const core::RequestRecord& request : event.requests) {
    if (!make_room(kMaxRequestLine)) return;
    core::append_request(buffer_, request);
  }
  publish();
}

void TraceWriter::flush_if_nearly_full() {
  if (buffer_.size() * 10 >= capacity_ * 9) flush();
}

void TraceWriter::finish(core::TraceEnd end) {
  if (!is_open() || !make_room(kMaxRequestLine)) return;
  core::append_end(buffer_, end, 0, events_);
  if (!flush()) return;
  // Whoever takes the descriptor closes it: here, or a signal handler that came first.
  int fd = g_view.fd.exchange(-1);
  if (fd >= 0) ::close(fd);
  fd_ = -1;
}

bool TraceWriter::make_room(std::size_t bytes) {
  return buffer_.size() + bytes <= capacity_ || flush();
}

void TraceWriter::publish() {
  g_view.events.store(events_);
  g_view.published.store(buffer_.size());
}

bool TraceWriter::flush() {
  if (!is_open() || g_view.owner.load() != getpid()) return false;
  // A handler holding the flag runs on another thread and is brief.
  while (g_view.writing.test_and_set(std::memory_order_acquire)) {
  }
  if (g_view.fd.load() != fd_) {
    // A signal handler took the file (the program survived the signal): the trace is over.
    g_view.writing.clear(std::memory_order_release);
    fd_ = -1;
    return false;
  }
  // A SIGCONT handler may have written a first part already.
  std::size_t offset = g_view.written.load();
  int error = write_all(fd_, buffer_.data() + offset, buffer_.size() - offset);
  if (error == 0) {
    g_view.events.store(events_);
    g_view.published.store(0);
    g_view.written.store(0);
    buffer_.clear();
  }
  g_view.writing.clear(std::memory_order_release);
  if (error != 0) fail(error);
  return error == 0;
}

void TraceWriter::fail(int error) {
  print_warning("cannot write the trace file " + path_ + ": " + std::strerror(error) +
                "; tracing stops here, the program runs on");
  int fd = g_view.fd.exchange(-1);
  if (fd >= 0) ::close(fd);
  fd_ = -1;
  buffer_.clear();
}

void TraceWriter::write_out_from_signal() {
  if (g_view.owner.load() != getpid() || g_view.writing.test_and_set(std::memory_order_acquire)) {
    return;
  }
  int fd = g_view.fd.load();
  std::size_t begin = g_view.written.load();
  std::size_t end = g_view.published.load();
  if (fd >= 0 && end > begin && write_all(fd, g_view.data.load() + begin, end - begin) == 0) {
    g_view.written.store(end);
  }
  g_view.writing.clear(std::memory_order_release);
}

void TraceWriter::finish_from_signal(int signal) {
  if (g_view.owner.load() != getpid() || g_view.writing.test_and_set(std::memory_order_acquire)) {
    return;
  }
  int fd = g_view.fd.exchange(-1);
  if (fd < 0) {
    g_view.writing.clear(std::memory_order_release);
    return;
  }
  std::size_t begin = g_view.written.load();
  std::size_t end = g_view.published.load();
  if (end > begin) write_all(fd, g_view.data.load() + begin, end - begin);
  char line[64];
  char* out = copy_text(line, "end signal ");
  out = format_decimal(out, signal);
  *out++ = ' ';
  out = format_decimal(out, g_view.events.load());
  *out++ = '\n';
  write_all(fd, line, static_cast<std::size_t>(out - line));
  ::close(fd);
  g_view.writing.clear(std::memory_order_release);
}

}  // namespace p3s::trace
