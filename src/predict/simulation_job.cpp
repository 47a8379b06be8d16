#include "predict/simulation_job.hpp"

#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/this_program.hpp"
#include "predict/shell_command.hpp"

namespace p3s::predict {

std::vector<std::string> simulation_job_words(const std::string& command,
                                              const std::vector<std::string>& args,
                                              std::size_t task) {
  const std::filesystem::path exe = core::this_program();
  if (exe.empty()) throw std::runtime_error("cannot tell where p3s is (/proc/self/exe)");
  std::vector<std::string> words = {exe.string(), command};
  words.insert(words.end(), args.begin(), args.end());
  words.insert(words.end(), {"--sim-task", std::to_string(task)});
  return words;
}

std::string run_simulation_job(const std::string& launcher, const std::vector<std::string>& words,
                               std::size_t task) {
  const std::string command = shell_command(launcher, words);
  const CommandOutput job = run_shell_captured(command);
  const std::size_t mark = job.output.rfind(kTaskResultMark);
  if (job.exit_code != 0 || mark == std::string::npos) {
    throw std::runtime_error(fmt::format(
        "simulation job {} failed (exit status {}{}): the command was: {}", task, job.exit_code,
        mark == std::string::npos ? ", no result printed" : "", command));
  }
  const std::size_t start = mark + kTaskResultMark.size();
  const std::size_t end = job.output.find('\n', start);
  std::string result =
      job.output.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!nlohmann::json::accept(result)) {
    throw std::runtime_error(fmt::format(
        "simulation job {} printed a result that is not JSON: the command was: {}", task, command));
  }
  return result;
}

}  // namespace p3s::predict
