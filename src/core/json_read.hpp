#pragma once
// Strict reading of p3s's JSON files: numbers of the right kind and range, and errors that name
// the file and the JSON path of the bad value ("app.slt: /phases/0/slots/2/tag: ...").
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace p3s::core {

// A value of a JSON document that is not what it must be. Keeps the value's address so the
// reader can name its path in the document.
class JsonValueError : public std::runtime_error {
 public:
  JsonValueError(const nlohmann::json& node, const std::string& reason)
      : std::runtime_error(reason), node_(&node) {}
  const nlohmann::json* node() const { return node_; }

 private:
  const nlohmann::json* node_;
};

// An integer (written without a fraction or exponent) in [min, max].
std::int64_t json_integer(const nlohmann::json& j, std::int64_t min = INT64_MIN,
                          std::int64_t max = INT64_MAX);
std::int32_t json_int32(const nlohmann::json& j, std::int32_t min = INT32_MIN,
                        std::int32_t max = INT32_MAX);
// A finite number in [min, max].
double json_number(const nlohmann::json& j, double min = std::numeric_limits<double>::lowest(),
                   double max = std::numeric_limits<double>::max());
// An array of such integers or numbers.
std::vector<std::int64_t> json_integers(const nlohmann::json& j, std::int64_t min = INT64_MIN,
                                        std::int64_t max = INT64_MAX);
std::vector<double> json_numbers(const nlohmann::json& j,
                                 double min = std::numeric_limits<double>::lowest(),
                                 double max = std::numeric_limits<double>::max());
// Throws JsonValueError on `j` with `reason` unless `ok`.
void json_require(bool ok, const nlohmann::json& j, const std::string& reason);

// nlohmann's message without its "[json.exception.type_error.302] " prefix.
std::string json_message(const nlohmann::json::exception& e);

// Runs `read` on `node`; a missing key or a value of the wrong type inside it (nlohmann's
// exceptions, which do not say where) is reported as a JsonValueError on `node`, so the message
// names at least the element it is in ("/phases/2: key 'weight' not found").
template <typename Read>
auto json_within(const nlohmann::json& node, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throw JsonValueError(node, json_message(e));
  }
}

// The JSON pointer ("/phases/0/weight") of `node` inside `root`, or "" when it is not in it.
std::string json_path(const nlohmann::json& root, const nlohmann::json* node);

// Parses `text` (the content of `file`) and reads it with `read`; every error -- not JSON, a
// missing key or a value of the wrong type (nlohmann), a JsonValueError, or the
// std::invalid_argument / std::domain_error / std::out_of_range a reader throws -- becomes a
// FormatError naming the file and, where known, the JSON path.
void read_json_document(const std::string& file, const std::string& text,
                        const std::function<void(const nlohmann::json&)>& read);
// The same for a document already parsed.
void read_json_value(const std::string& file, const nlohmann::json& root,
                     const std::function<void(const nlohmann::json&)>& read);

}  // namespace p3s::core
