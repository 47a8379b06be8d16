#include "core/json_read.hpp"

#include <fmt/core.h>

#include <cmath>

#include "core/format_error.hpp"

namespace p3s::core {
namespace {

using nlohmann::json;

std::string kind_of(const json& j) {
  if (j.is_number_float()) return fmt::format("the number {}", j.dump());
  return std::string(j.type_name()) + (j.is_primitive() ? " " + j.dump() : "");
}

// JSON pointer escaping (RFC 6901).
std::string escaped_key(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// Depth-first; a document nested deeper than any p3s file is not searched further (the
// recursion stays shallow whatever the input).
bool find_path(const json& at, const json* node, std::string& path, int depth = 0) {
  if (&at == node) return true;
  if (depth > 64) return false;
  if (at.is_object()) {
    for (auto it = at.begin(); it != at.end(); ++it) {
      const std::size_t size = path.size();
      path += "/" + escaped_key(it.key());
      if (find_path(it.value(), node, path, depth + 1)) return true;
      path.resize(size);
    }
  } else if (at.is_array()) {
    for (std::size_t i = 0; i < at.size(); ++i) {
      const std::size_t size = path.size();
      path += "/" + std::to_string(i);
      if (find_path(at[i], node, path, depth + 1)) return true;
      path.resize(size);
    }
  }
  return false;
}

}  // namespace

std::string json_message(const json::exception& e) {
  std::string what = e.what();
  if (what.starts_with("[json.exception.")) {
    const std::size_t end = what.find("] ");
    if (end != std::string::npos) return what.substr(end + 2);
  }
  return what;
}

void json_require(bool ok, const json& j, const std::string& reason) {
  if (!ok) throw JsonValueError(j, reason);
}

std::int64_t json_integer(const json& j, std::int64_t min, std::int64_t max) {
  const std::string range = fmt::format("an integer in {}..{}", min, max);
  if (j.is_number_unsigned()) {
    // nlohmann reads every non-negative integer as unsigned: both bounds still apply.
    const auto value = j.get<std::uint64_t>();
    json_require(value <= static_cast<std::uint64_t>(max) &&
                     (min <= 0 || value >= static_cast<std::uint64_t>(min)),
                 j, fmt::format("must be {}, not {}", range, value));
    return static_cast<std::int64_t>(value);
  }
  json_require(j.is_number_integer(), j, fmt::format("must be {}, not {}", range, kind_of(j)));
  const auto value = j.get<std::int64_t>();
  json_require(value >= min && value <= max, j, fmt::format("must be {}, not {}", range, value));
  return value;
}

std::int32_t json_int32(const json& j, std::int32_t min, std::int32_t max) {
  return static_cast<std::int32_t>(json_integer(j, min, max));
}

double json_number(const json& j, double min, double max) {
  json_require(j.is_number(), j, fmt::format("must be a number, not {}", kind_of(j)));
  const auto value = j.get<double>();
  json_require(std::isfinite(value) && value >= min && value <= max, j,
               fmt::format("must be a number in [{:g}, {:g}], not {}", min, max, j.dump()));
  return value;
}

std::vector<std::int64_t> json_integers(const json& j, std::int64_t min, std::int64_t max) {
  json_require(j.is_array(), j, "must be an array of integers, not " + kind_of(j));
  std::vector<std::int64_t> out;
  out.reserve(j.size());
  for (const json& v : j) out.push_back(json_integer(v, min, max));
  return out;
}

std::vector<double> json_numbers(const json& j, double min, double max) {
  json_require(j.is_array(), j, "must be an array of numbers, not " + kind_of(j));
  std::vector<double> out;
  out.reserve(j.size());
  for (const json& v : j) out.push_back(json_number(v, min, max));
  return out;
}

std::string json_path(const json& root, const json* node) {
  std::string path;
  if (!find_path(root, node, path)) return "";
  return path.empty() ? "/" : path;
}

void read_json_value(const std::string& file, const json& root,
                     const std::function<void(const json&)>& read) {
  try {
    read(root);
  } catch (const FormatError&) {
    throw;
  } catch (const JsonValueError& e) {
    const std::string path = json_path(root, e.node());
    throw FormatError(file, 0, path.empty() ? e.what() : path + ": " + e.what());
  } catch (const json::exception& e) {
    throw FormatError(file, 0, json_message(e));
  } catch (const std::invalid_argument& e) {
    throw FormatError(file, 0, e.what());
  } catch (const std::domain_error& e) {
    throw FormatError(file, 0, e.what());
  } catch (const std::out_of_range& e) {
    throw FormatError(file, 0, e.what());
  }
}

void read_json_document(const std::string& file, const std::string& text,
                        const std::function<void(const json&)>& read) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number no double holds (1e400).
    throw FormatError(file, 0, "not valid JSON: " + json_message(e));
  }
  read_json_value(file, root, read);
}

}  // namespace p3s::core
