#include "core/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/format_error.hpp"

namespace p3s::core {
namespace {

// Closes the descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and returns close's errno (0 when it succeeded).
  int close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

}  // namespace

std::string read_text_file(const std::filesystem::path& file, std::string_view what) {
  const std::string name = file.string();
  Descriptor fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    throw FormatError(name, 0,
                      "cannot open the " + std::string(what) + ": " + std::strerror(errno));
  }
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) {
    throw FormatError(name, 0,
                      "cannot read the " + std::string(what) + ": " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) {
    throw FormatError(name, 0, "is a directory, not a " + std::string(what));
  }
  std::string text;
  if (S_ISREG(info.st_mode)) text.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw FormatError(name, 0,
                        "cannot read the " + std::string(what) + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

void write_text_file(const std::filesystem::path& file, std::string_view text) {
  const std::string name = file.string();
  auto failure = [&](int error) {
    return std::runtime_error("cannot write " + name + ": " + std::strerror(error));
  };
  Descriptor fd(::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw failure(errno);
  while (!text.empty()) {
    const ssize_t n = ::write(fd.get(), text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw failure(errno);
    if (n == 0) throw failure(ENOSPC);
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  if (const int error = fd.close(); error != 0) throw failure(error);
}

}  // namespace p3s::core
