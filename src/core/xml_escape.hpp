#pragma once
// Text placed in XML (platform files, SVG pictures) with its markup characters escaped.
#include <string>
#include <string_view>

namespace p3s::core {

std::string xml_escaped(std::string_view text);

}  // namespace p3s::core
