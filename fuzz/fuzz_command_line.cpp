// p3s's command lines: the arguments are the input's NUL-separated parts, run through the same
// dispatch as the p3s executable, in a scratch directory. Every command must end with an exit
// code (a usage error, a clean error, or success), never a crash or an escaping exception.
// For safety no argument may name a path outside the scratch directory (no '/'), and the tracer
// library is a path that does not exist, so `p3s trace` refuses before running anything.
#include <unistd.h>

#include "cli/commands.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("P3S_TRACE_LIB", "/nonexistent/libp3s_trace.so", 1);
  unsetenv("LD_PRELOAD");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  const std::vector<std::string> args = fuzz::split_parts(fuzz::as_text(data, size), 24);
  for (const std::string& a : args) {
    if (a.find('/') != std::string::npos || a.starts_with("..")) return -1;  // not in the corpus
  }
  // Back to where libFuzzer was afterwards: it reads its corpus by relative paths.
  static const std::filesystem::path home = std::filesystem::current_path();
  const std::filesystem::path dir = fuzz::scratch_dir();
  if (chdir(dir.c_str()) != 0) return 0;
  const int code = cli::run_command_line(args);
  if (chdir(home.c_str()) != 0) fuzz::broken("cannot return to " + home.string());
  if (code < 0 || code > 3) fuzz::broken("exit code " + std::to_string(code));
  return 0;
}
