#include "calibrate/replay_messages.hpp"

#include <fmt/core.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "core/format_error.hpp"
#include "core/json_read.hpp"
#include "replay_mpi/replay_result.hpp"

namespace p3s::calibrate {

bool read_replay_messages(const std::filesystem::path& file, Measurements& out) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != kReplayFormat) return false;
  replay::ReplayResult r;
  core::read_json_value(file.string(), j,
                        [&](const nlohmann::json& root) { r = replay::replay_result_of(root); });
  std::size_t received = 0;
  for (std::size_t i = 0; i < r.messages.size(); ++i) {
    const replay::MessageResult& m = r.messages[i];
    // The sender's side is its call's own time (an MPI_Isend returns at once); the receiver's
    // spans the message from posting the receive to its arrival.
    if (m.send) continue;
    MessageSample s;
    s.test = Test::AppMessage;
    s.link = m.same_node ? LinkKind::SameNode : LinkKind::CrossNode;
    s.bytes = m.bytes;
    s.seconds = m.seconds;
    s.where = fmt::format("{}:/messages/rows/{}", file.string(), i);
    out.messages.push_back(s);
    ++received;
  }
  if (received == 0) {
    throw core::FormatError(file.string(), 0,
                            r.messages.empty() ? "the replay measured no messages (was it run with "
                                                 "--no-messages, or has the application none?)"
                                               : "the replay measured no received message");
  }
  return true;
}

}  // namespace p3s::calibrate
