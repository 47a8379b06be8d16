#include "ti/ti_list.hpp"

#include <algorithm>
#include <sstream>
#include <string>

#include "core/format_error.hpp"
#include "core/text_file.hpp"

namespace p3s::ti {
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> candidates(const fs::path& name, const fs::path& list_dir,
                                 const fs::path& cwd) {
  std::vector<fs::path> all;
  if (name.is_absolute()) {
    all.push_back(name);
  } else {
    all.push_back(list_dir / name);
    all.push_back(cwd / name);
  }
  if (name.has_parent_path())
    all.push_back(list_dir / name.parent_path().filename() / name.filename());
  std::vector<fs::path> distinct;
  for (const fs::path& p : all) {
    fs::path normal = p.lexically_normal();
    if (std::find(distinct.begin(), distinct.end(), normal) == distinct.end())
      distinct.push_back(normal);
  }
  return distinct;
}

std::string joined(const std::vector<fs::path>& paths) {
  std::string text;
  for (const auto& p : paths) text += (text.empty() ? "" : ", ") + p.string();
  return text;
}

}  // namespace

std::vector<fs::path> read_ti_list(const fs::path& list, const fs::path& cwd) {
  std::istringstream in(core::read_text_file(list, "TI trace list"));
  const fs::path list_dir = fs::absolute(list).parent_path();
  std::vector<fs::path> files;
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    std::vector<fs::path> tried = candidates(line, list_dir, cwd);
    auto found = std::find_if(tried.begin(), tried.end(),
                              // Not throwing: a name too long for the system is not found.
                              [](const fs::path& p) {
                                std::error_code ec;
                                return fs::is_regular_file(p, ec);
                              });
    if (found == tried.end())
      throw core::FormatError(list.string(), line_no,
                              "rank file '" + line + "' not found (tried " + joined(tried) + ")");
    files.push_back(*found);
  }
  if (files.empty())
    throw core::FormatError(
        list.string(), 0,
        "names no rank file: not a TI trace list, or the SMPI run wrote no trace");
  return files;
}

}  // namespace p3s::ti
