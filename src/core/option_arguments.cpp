#include "core/option_arguments.hpp"

#include <regex>
#include <stdexcept>

namespace p3s::core {

void refuse_option_parser_placeholders(std::span<const std::string> args) {
  static const std::regex placeholder("%[A-Za-z_]+%");
  for (const std::string& arg : args) {
    std::smatch found;
    if (std::regex_search(arg, found, placeholder)) {
      throw std::invalid_argument("argument '" + arg + "' holds '" + found.str() +
                                  "', which the option parser cannot take");
    }
  }
}

}  // namespace p3s::core
