#include "sim/session_output.hpp"

#include <nlohmann/json.hpp>

namespace p3s::sim {

std::string SessionOutput::encode() const {
  return nlohmann::json{{"first_start", first_start},
                        {"measure_start", measure_start},
                        {"end", end},
                        {"events", events},
                        {"engine_seconds", engine_seconds}}
      .dump();
}

SessionOutput SessionOutput::decode(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  SessionOutput out;
  j.at("first_start").get_to(out.first_start);
  j.at("measure_start").get_to(out.measure_start);
  j.at("end").get_to(out.end);
  j.at("events").get_to(out.events);
  j.at("engine_seconds").get_to(out.engine_seconds);
  return out;
}

}  // namespace p3s::sim
