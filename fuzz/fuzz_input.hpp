#pragma once
// What the fuzz targets share: splitting one input into parts, a scratch directory per process,
// and stopping on a broken invariant (libFuzzer reports the abort with the input that caused it).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The parts of an input separated by NUL bytes (a list and its rank files, a command line's
// arguments, a platform's options).
inline std::vector<std::string> split_parts(std::string_view text, std::size_t max_parts) {
  std::vector<std::string> parts;
  while (parts.size() + 1 < max_parts) {
    const std::size_t nul = text.find('\0');
    if (nul == std::string_view::npos) break;
    parts.emplace_back(text.substr(0, nul));
    text.remove_prefix(nul + 1);
  }
  parts.emplace_back(text);
  return parts;
}

// A directory of this process's own under /dev/shm (or TMPDIR), emptied on every call.
inline std::filesystem::path scratch_dir() {
  namespace fs = std::filesystem;
  static const fs::path dir = [] {
    const fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path d = base / ("p3s-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  for (const auto& entry : fs::directory_iterator(dir)) fs::remove_all(entry.path());
  return dir;
}

// A property the code must keep whatever the input: breaking it is a bug, reported as a crash.
[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "p3s fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

}  // namespace p3s::fuzz
