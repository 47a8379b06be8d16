#pragma once
// signature.json: the signature as the later stages read it (format in core/FORMATS.md,
// section "Signature").
#include <filesystem>
#include <nlohmann/json.hpp>

#include "signature/signature.hpp"

namespace p3s::signature {

// Keys in the documented order, "format" first.
nlohmann::ordered_json signature_to_json(const Signature& sig);
// Strict: throws core::FormatError naming `name` for anything missing, mistyped or inconsistent.
Signature signature_from_json(const nlohmann::json& j, const std::string& name);

void write_signature(const std::filesystem::path& file, const Signature& sig);
Signature read_signature(const std::filesystem::path& file);

}  // namespace p3s::signature
