// p3s: predicts how an MPI application scales from a few small traced runs.
#include <fmt/core.h>

#include <cstdio>

#include <boost/program_options/errors.hpp>
#include <exception>

#include "cli/commands.hpp"
#include "core/format_error.hpp"

namespace {

void print_help() {
  fmt::print(
      "p3s {} - predict how an MPI application scales from a few small runs\n\n"
      "usage: p3s COMMAND [OPTIONS] [ARGS]\n"
      "       p3s COMMAND --help     options of one command\n"
      "       p3s --version\n\ncommands:\n",
      P3S_VERSION);
  for (const auto& c : p3s::cli::commands()) fmt::print("  {:<12} {}\n", c.name, c.summary);
  fmt::print("\nSee README.md for the pipeline and src/core/FORMATS.md for the files.\n");
}

}  // namespace

int main(int argc, char** argv) {
  // Whole lines on stdout, so that a report and an error on stderr interleave by line when
  // both go to one pipe (2>&1, a CI log).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  p3s::cli::Args all(argv + 1, argv + argc);
  if (all.empty() || all[0] == "--help" || all[0] == "-h" || all[0] == "help") {
    print_help();
    return all.empty() ? 2 : 0;
  }
  if (all[0] == "--version") {
    fmt::print("p3s {}\n", P3S_VERSION);
    return 0;
  }
  for (const auto& c : p3s::cli::commands()) {
    if (c.name != all[0]) continue;
    try {
      return c.run(p3s::cli::Args(all.begin() + 1, all.end()));
    } catch (const p3s::cli::UsageError& e) {
      fmt::print(stderr, "p3s {}: {}\n(see 'p3s {} --help')\n", c.name, e.what(), c.name);
      return 2;
    } catch (const boost::program_options::error& e) {
      fmt::print(stderr, "p3s {}: {}\n(see 'p3s {} --help')\n", c.name, e.what(), c.name);
      return 2;
    } catch (const p3s::core::FormatError& e) {
      fmt::print(stderr, "p3s {}: error: {}\n", c.name, e.what());
      return 1;
    } catch (const std::exception& e) {
      fmt::print(stderr, "p3s {}: error: {}\n", c.name, e.what());
      return 1;
    }
  }
  fmt::print(stderr, "p3s: unknown command '{}' (see 'p3s --help')\n", all[0]);
  return 2;
}
