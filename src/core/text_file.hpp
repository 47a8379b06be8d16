#pragma once
// Reading and writing whole text files with errors that name the file: a directory where a file
// is expected, a file that cannot be opened, a write that fails (a full disk shows only when the
// file is closed, so the close is checked too).
#include <filesystem>
#include <string>
#include <string_view>

namespace p3s::core {

// The whole file. Throws FormatError naming the file when it is missing, a directory, or
// cannot be read; `what` says what the file should have been ("trace file", "SLT").
std::string read_text_file(const std::filesystem::path& file, std::string_view what);

// Replaces the file's content with `text`. Throws std::runtime_error naming the file and the
// system's reason when it cannot be created, written or closed (ENOSPC included).
void write_text_file(const std::filesystem::path& file, std::string_view text);

}  // namespace p3s::core
