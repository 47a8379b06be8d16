#pragma once
// A simulation as a job of its own through a cluster's launcher (p3s predict and p3s whatif
// --sim-launcher): the job runs this same p3s command again with `--sim-task K`, which makes
// the same plan of simulations, runs simulation K alone and prints its result, JSON on one
// line, after kTaskResultMark. The report directory and the inputs must be where the job runs.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::predict {

// What a simulation job prints before its result.
inline constexpr std::string_view kTaskResultMark = "p3s-simulation-task-result ";

// The words of job `task`: this program, `command` ("predict", "whatif"), the arguments it was
// given, then --sim-task TASK. Throws std::runtime_error when this program cannot be found.
std::vector<std::string> simulation_job_words(const std::string& command,
                                              const std::vector<std::string>& args,
                                              std::size_t task);

// Runs job `task` (`words` after the user's `launcher`, by /bin/sh) and returns its result.
// Throws std::runtime_error naming the job and its command when it fails, prints no result,
// or prints one that is not JSON.
std::string run_simulation_job(const std::string& launcher, const std::vector<std::string>& words,
                               std::size_t task);

}  // namespace p3s::predict
