#include "cli/parse_options.hpp"

#include <iostream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "core/option_arguments.hpp"

namespace p3s::cli {
namespace po = boost::program_options;

std::optional<po::variables_map> parse_options(const Args& args,
                                               const po::options_description& visible,
                                               std::string_view usage,
                                               const po::positional_options_description& positional,
                                               const po::options_description* hidden) {
  po::options_description all;
  all.add(visible);
  if (hidden) all.add(*hidden);
  try {
    core::refuse_option_parser_placeholders(args);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
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
