#include "sim/session_plan.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace p3s::sim {

SessionPlan full_plan(const core::ScaledTrace& trace) {
  SessionPlan plan;
  const std::vector<core::ScaledPhase>& phases = trace.phases();
  for (int p = 0; p < static_cast<int>(phases.size()); ++p) {
    const core::ScaledPhase& phase = phases[static_cast<std::size_t>(p)];
    if (!(phase.weight >= 0) || !std::isfinite(phase.weight)) {
      throw std::invalid_argument("phase " + phase.name + " has weight " +
                                  std::to_string(phase.weight));
    }
    plan.segments.push_back({p, std::llround(phase.weight)});
  }
  return plan;
}

SessionPlan phase_plan(int phase, int measured) {
  SessionPlan plan;
  plan.segments = {{phase, 1 + static_cast<std::int64_t>(measured)}};
  plan.warmup_repetitions = 1;
  return plan;
}

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
