#include "cli/parse_options.hpp"

#include <fmt/core.h>

#include <iostream>
#include <regex>

#include "cli/commands.hpp"

namespace p3s::cli {
namespace po = boost::program_options;

namespace {

// Boost 1.74 formats an error by replacing each %name% placeholder (%option%, %value%...)
// until none is left, so an option or a value that holds one itself never ends. No option or
// value of p3s has that shape: it is refused before Boost sees it.
void refuse_boost_placeholders(const Args& args) {
  static const std::regex placeholder("%[A-Za-z_]+%");
  for (const std::string& arg : args) {
    std::smatch found;
    if (std::regex_search(arg, found, placeholder)) {
      throw UsageError(fmt::format("argument '{}' holds '{}', which the option parser cannot take",
                                   arg, found.str()));
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
  refuse_boost_placeholders(args);
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
