#include "cli/parse_options.hpp"

#include <fmt/core.h>

#include <iostream>

#include "cli/commands.hpp"

namespace p3s::cli {
namespace po = boost::program_options;

namespace {

// Boost 1.74 formats its errors by replacing %placeholders% in the message until none is left,
// so an unknown option whose name holds one ("--x%option%") never ends: no option has a '%'.
void refuse_percent_in_option_names(const Args& args) {
  for (const std::string& arg : args) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string name = arg.substr(0, arg.find('='));
    if (name.find('%') != std::string::npos) {
      throw UsageError(fmt::format("unknown option '{}'", name));
    }
  }
}

}  // namespace

std::optional<po::variables_map> parse_options(const Args& args,
                                               const po::options_description& visible,
                                               std::string_view usage,
                                               const po::positional_options_description& positional,
                                               const po::options_description* hidden) {
  po::options_description all;
  all.add(visible);
  if (hidden) all.add(*hidden);
  refuse_percent_in_option_names(args);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << usage << visible << '\n';
    return std::nullopt;
  }
  po::notify(vm);
  return vm;
}

}  // namespace p3s::cli
