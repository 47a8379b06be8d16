#pragma once
// app.slt: the SLT as JSON (format in core/FORMATS.md, "Scalable Logical Trace").
#include <filesystem>
#include <nlohmann/json.hpp>

#include "model/slt.hpp"

namespace p3s::model {

nlohmann::ordered_json slt_to_json(const Slt& slt);
// Strict: throws core::FormatError naming `name` for anything missing or mistyped.
Slt slt_from_json(const nlohmann::json& j, const std::string& name);

void write_slt(const std::filesystem::path& file, const Slt& slt);
Slt read_slt(const std::filesystem::path& file);

}  // namespace p3s::model
