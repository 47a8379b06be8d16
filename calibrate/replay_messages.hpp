#pragma once
// The Synthetic Signature's measured messages as calibration samples: every message a replay
// (`p3s-replay`, "p3s-replay 1" in src/core/FORMATS.md) received, as an app-message sample of
// its size and link kind. Calibrating from them alone fits what an application's own message
// sizes can show (calibrate/README.md, "From replay measurements").
#include <filesystem>
#include <string_view>

#include "calibrate/measurements.hpp"

namespace p3s::calibrate {

inline constexpr std::string_view kReplayFormat = "p3s-replay 1";

// Appends the replay's received messages to `out` and returns true when `file` is a replay
// result; returns false, appending nothing, when it is no JSON document of that format. Throws
// core::FormatError naming the file and the JSON path when it is one but is malformed, and
// when it measured no received message.
bool read_replay_messages(const std::filesystem::path& file, Measurements& out);

}  // namespace p3s::calibrate
