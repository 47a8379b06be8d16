#pragma once
// The command-line parsing every subcommand shares: options, positional arguments, --help.
#include <boost/program_options.hpp>
#include <optional>
#include <string_view>

#include "cli/commands.hpp"

namespace p3s::cli {

// Parses `args` against `visible` (listed by --help) and `hidden` (positional arguments that
// --help describes in `usage` instead). With --help, prints `usage` and the options and
// returns nothing; otherwise checks required options and returns the values.
std::optional<boost::program_options::variables_map> parse_options(
    const Args& args, const boost::program_options::options_description& visible,
    std::string_view usage,
    const boost::program_options::positional_options_description& positional = {},
    const boost::program_options::options_description* hidden = nullptr);

}  // namespace p3s::cli
