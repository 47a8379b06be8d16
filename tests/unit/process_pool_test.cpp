// core::run_in_processes and run_in_child: work in child processes of their own, texts back by
// index, at most `jobs` at a time, and work that fails or a child that dies named.
#include "core/process_pool.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace p3s::core {
namespace {

TEST(ProcessPool, EveryTaskRunsInAChildAndComesBackByIndex) {
  const std::vector<std::string> texts = run_in_processes(
      7, 3, [](std::size_t i) { return std::to_string(i * i) + " " + std::to_string(::getpid()); });
  ASSERT_EQ(texts.size(), 7u);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::size_t space = texts[i].find(' ');
    EXPECT_EQ(texts[i].substr(0, space), std::to_string(i * i));
    EXPECT_NE(std::stol(texts[i].substr(space + 1)), ::getpid()) << "task " << i;
  }
}

TEST(ProcessPool, OneJobRunsTheTasksHere) {
  const std::vector<std::string> texts =
      run_in_processes(3, 1, [](std::size_t) { return std::to_string(::getpid()); });
  for (const std::string& t : texts) EXPECT_EQ(std::stol(t), ::getpid());
}

TEST(ProcessPool, LargeTextsComeBackWhole) {
  // More than a pipe holds (64 KiB), from two children writing at once.
  const std::vector<std::string> texts = run_in_processes(
      4, 2, [](std::size_t i) { return std::string(1 << 20, static_cast<char>('a' + i)); });
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(texts[i], std::string(1 << 20, static_cast<char>('a' + i)));
  }
}

TEST(ProcessPool, NoMoreThanJobsRunAtOnce) {
  // Each task marks its start and end in a file opened for appending; the most marks open at
  // once is the most tasks that ran at once.
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("p3s-pool-" + std::to_string(::getpid()) + ".txt");
  std::filesystem::remove(file);
  run_in_processes(8, 2, [&](std::size_t) {
    std::ofstream(file, std::ios::app) << "+\n";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ofstream(file, std::ios::app) << "-\n";
    return std::string();
  });
  std::ifstream in(file);
  int open = 0, most = 0;
  for (std::string line; std::getline(in, line);) {
    open += line == "+" ? 1 : -1;
    most = std::max(most, open);
  }
  std::filesystem::remove(file);
  EXPECT_EQ(open, 0);
  EXPECT_EQ(most, 2);
}

TEST(ProcessPool, AFailedTaskIsNamedAfterEveryChildEnded) {
  try {
    run_in_processes(4, 2, [](std::size_t i) -> std::string {
      if (i == 2) throw std::runtime_error("N = 4096: the platform has 1024 hosts");
      return "fine";
    });
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "N = 4096: the platform has 1024 hosts");
  }
}

TEST(ProcessPool, AChildThatDiesIsNamed) {
  try {
    run_in_processes(3, 3, [](std::size_t i) -> std::string {
      if (i == 1) std::raise(SIGKILL);
      return "fine";
    });
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("task 1 was killed by signal 9"), std::string::npos)
        << e.what();
  }
}

TEST(ProcessPool, OneChildGivesItsResultAndItsPeakMemory) {
  const ChildOutput out = run_in_child(
      [] {
        std::string big(64 << 20, 'x');  // touched: resident
        return std::to_string(big.size());
      },
      "the test's child");
  EXPECT_EQ(out.result, std::to_string(64 << 20));
  EXPECT_GE(out.peak_rss_kib, 64 << 10);
  try {
    run_in_child([]() -> std::string { std::_Exit(3); }, "the test's child", "a hint");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the test's child stopped with exit status 3 and no result; a hint");
  }
}

TEST(ProcessPool, TheCoresAvailableAreAtLeastOne) {
  EXPECT_GE(available_cores(), 1u);
}

}  // namespace
}  // namespace p3s::core
