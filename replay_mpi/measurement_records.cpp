#include "replay_mpi/measurement_records.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "replay_mpi/collective_call.hpp"
#include "replay_mpi/forwarding_cycle.hpp"

namespace p3s::replay {
namespace {

constexpr std::size_t kStepFields = 6;
constexpr std::size_t kMessageFields = 9;
constexpr std::size_t kUnitFields = 7;

// Per phase, each rank's time (the sum of its calls'): the mean over the measured repetitions,
// and each measured repetition's. A phase no process measured has zeros.
class RankTimes {
 public:
  RankTimes(int nprocs, std::size_t repetitions)
      : nprocs_(static_cast<std::size_t>(nprocs)), repetitions_(repetitions) {}

  std::vector<double>& mean(int phase) {
    std::vector<double>& v = mean_[phase];
    if (v.empty()) v.assign(nprocs_, 0.0);
    return v;
  }
  std::vector<double>& at_repetition(int phase, std::size_t rep) {
    auto& v = by_repetition_[phase];
    if (v.empty()) v.assign(repetitions_, std::vector<double>(nprocs_, 0.0));
    return v[rep];
  }

 private:
  std::size_t nprocs_;
  std::size_t repetitions_;
  std::map<int, std::vector<double>> mean_;
  std::map<int, std::vector<std::vector<double>>> by_repetition_;
};

using CallKey = std::tuple<int, int, int>;  // phase, rank, call

CallKey call_key(const std::vector<double>& records, std::size_t i) {
  return {static_cast<int>(records[i]), static_cast<int>(records[i + 1]),
          static_cast<int>(records[i + 2])};
}

// The mean times: a rank's calls other than completions, then its completion calls, each its
// compute (measured once) plus the latest of its peers' units (measured by any process).
void add_mean_times(const MeasurementRecords& all, RankTimes& times) {
  for (std::size_t i = 0; i + 3 <= all.seconds.size(); i += 3) {
    times.mean(static_cast<int>(all.seconds[i]))[static_cast<std::size_t>(all.seconds[i + 1])] +=
        all.seconds[i + 2];
  }
  std::map<CallKey, std::pair<double, double>> calls;
  for (std::size_t i = 0; i + 5 <= all.completions.size(); i += 5) {
    auto& [compute, latest] = calls[call_key(all.completions, i)];
    compute += all.completions[i + 3];
    latest = std::max(latest, all.completions[i + 4]);
  }
  for (const auto& [key, value] : calls) {
    times.mean(std::get<0>(key))[static_cast<std::size_t>(std::get<1>(key))] +=
        value.first + value.second;
  }
}

// The same for each measured repetition alone.
void add_repetition_times(const MeasurementRecords& all, std::size_t reps, RankTimes& times) {
  const std::vector<double>& seconds = all.repetition_seconds;
  for (std::size_t i = 0; i + 2 + reps <= seconds.size(); i += 2 + reps) {
    const int phase = static_cast<int>(seconds[i]);
    const auto rank = static_cast<std::size_t>(seconds[i + 1]);
    for (std::size_t rep = 0; rep < reps; ++rep)
      times.at_repetition(phase, rep)[rank] += seconds[i + 2 + rep];
  }
  const std::vector<double>& completions = all.repetition_completions;
  std::map<CallKey, std::vector<std::pair<double, double>>> calls;
  for (std::size_t i = 0; i + 3 + 2 * reps <= completions.size(); i += 3 + 2 * reps) {
    auto& parts = calls[call_key(completions, i)];
    parts.resize(reps);
    for (std::size_t rep = 0; rep < reps; ++rep) {
      parts[rep].first += completions[i + 3 + rep];
      parts[rep].second = std::max(parts[rep].second, completions[i + 3 + reps + rep]);
    }
  }
  for (const auto& [key, parts] : calls) {
    for (std::size_t rep = 0; rep < reps; ++rep) {
      times.at_repetition(std::get<0>(key), rep)[static_cast<std::size_t>(std::get<1>(key))] +=
          parts[rep].first + parts[rep].second;
    }
  }
}

// The planned steps with what each slot executed and measured; per step, the network
// messages each slot sent itself.
std::map<int, std::vector<double>> add_step_log(const std::vector<double>& steps,
                                                const Setup& setup, ReplayResult& r) {
  for (const PlannedStep& s : setup.plan.steps) {
    StepResult sr;
    sr.phase = s.phase;
    sr.ranks = s.ranks;
    sr.warmup_repetitions = warmup_repetitions(s);
    sr.executed.assign(s.ranks.size(), 0);
    sr.measured.assign(s.ranks.size(), 0);
    sr.black_holes = s.black_holes;
    r.step_log.push_back(sr);
  }
  std::map<int, std::vector<double>> own_network;  // per step: per slot
  for (std::size_t i = 0; i + kStepFields <= steps.size(); i += kStepFields) {
    StepResult& sr = r.step_log[static_cast<std::size_t>(steps[i])];
    const auto s = static_cast<std::size_t>(steps[i + 1]);
    sr.executed[s] = static_cast<std::int64_t>(steps[i + 2]);
    sr.measured[s] = static_cast<std::int64_t>(steps[i + 3]);
    if (s == 0) sr.noise_messages = static_cast<std::int64_t>(steps[i + 4]);
    own_network[static_cast<int>(steps[i])].push_back(steps[i + 5]);
  }
  return own_network;
}

// The slowest rank's measured compute per repetition, per phase.
std::map<int, double> slowest_compute(const std::vector<double>& compute) {
  std::map<std::pair<int, int>, double> per_rank;
  for (std::size_t i = 0; i + 3 <= compute.size(); i += 3) {
    per_rank[{static_cast<int>(compute[i]), static_cast<int>(compute[i + 1])}] += compute[i + 2];
  }
  std::map<int, double> slowest;
  for (const auto& [key, seconds] : per_rank) {
    slowest[key.first] = std::max(slowest[key.first], seconds);
  }
  return slowest;
}

PhaseResult phase_result(int p, const core::ScaledTrace& trace, const Setup& setup,
                         bool collectives_live, const ReplayResult& r, RankTimes& times,
                         std::map<int, std::vector<double>>& own_network) {
  PhaseResult ph;
  ph.name = trace.phases()[static_cast<std::size_t>(p)].name;
  ph.weight = trace.phases()[static_cast<std::size_t>(p)].weight;
  ph.per_rank = spread_of(times.mean(p));
  ph.phase_et = ph.per_rank.max;
  // The slowest rank's time in each measured repetition, and their spread.
  std::vector<double> slowest;
  for (std::size_t rep = 0; rep < static_cast<std::size_t>(r.repetitions); ++rep) {
    const std::vector<double>& ranks = times.at_repetition(p, rep);
    slowest.push_back(*std::max_element(ranks.begin(), ranks.end()));
  }
  ph.by_repetition = spread_of(slowest);
  double own = 0, noise_sum = 0;
  for (std::size_t k = 0; k < r.step_log.size(); ++k) {
    if (r.step_log[k].phase != p) continue;
    ++ph.steps;
    for (const double x : own_network[static_cast<int>(k)]) own += x;
    noise_sum += static_cast<double>(r.step_log[k].noise_messages);
  }
  std::vector<core::Event> events;
  trace.phase_events(p, 0, events);
  const bool has_collectives = std::any_of(events.begin(), events.end(), [](const core::Event& e) {
    return is_replayed_collective(e.op);
  });
  ph.collectives = !has_collectives ? "none" : collectives_live ? "live" : "fit";
  ph.app_network_messages = setup.plan.traffic[static_cast<std::size_t>(p)].network_messages;
  ph.replay_network_messages = ph.steps > 0 ? own / ph.steps : 0;
  ph.noise_messages = ph.steps > 0 ? noise_sum / ph.steps : 0;
  if (const auto cycle = unloadable_forwarding_cycle(trace, p, setup.plan.measurable)) {
    ph.not_held = describe(*cycle, setup.plan.measurable);
  }
  return ph;
}

MessageResult message_result(const std::vector<double>& records, std::size_t i) {
  MessageResult m;
  m.phase = static_cast<int>(records[i]);
  m.step = static_cast<int>(records[i + 1]);
  m.rank = static_cast<std::int32_t>(records[i + 2]);
  m.peer = static_cast<std::int32_t>(records[i + 3]);
  m.send = records[i + 4] != 0;
  m.bytes = static_cast<std::int64_t>(records[i + 5]);
  m.same_node = records[i + 6] != 0;
  m.seconds = records[i + 7];
  m.in_flight = static_cast<int>(records[i + 8]);
  return m;
}

}  // namespace

void record_step(int step, int slot, const StepCounts& counts, MeasurementRecords& records) {
  records.steps.insert(
      records.steps.end(),
      {static_cast<double>(step), static_cast<double>(slot), static_cast<double>(counts.executed),
       static_cast<double>(counts.measured), static_cast<double>(counts.noise_messages),
       static_cast<double>(counts.network_messages)});
}

void record_measurements(const MeasurableProcess& process, MeasurementRecords& records) {
  for (const auto& [key, by_rep] : process.rank_repetition_seconds()) {
    std::vector<double>& out = records.repetition_seconds;
    out.insert(out.end(), {static_cast<double>(key.first), static_cast<double>(key.second)});
    out.insert(out.end(), by_rep.begin(), by_rep.end());
  }
  for (const auto& [key, part] : process.completions()) {
    std::vector<double>& out = records.repetition_completions;
    out.insert(out.end(),
               {static_cast<double>(std::get<0>(key)), static_cast<double>(std::get<1>(key)),
                static_cast<double>(std::get<2>(key))});
    out.insert(out.end(), part.compute_by_repetition.begin(), part.compute_by_repetition.end());
    out.insert(out.end(), part.latest_by_repetition.begin(), part.latest_by_repetition.end());
  }
  for (const auto& [key, value] : process.rank_seconds()) {
    records.seconds.insert(records.seconds.end(), {static_cast<double>(key.first),
                                                   static_cast<double>(key.second), value});
  }
  for (const auto& [key, value] : process.rank_compute_seconds()) {
    records.compute.insert(records.compute.end(), {static_cast<double>(key.first),
                                                   static_cast<double>(key.second), value});
  }
  for (const auto& [key, part] : process.completions()) {
    records.completions.insert(
        records.completions.end(),
        {static_cast<double>(std::get<0>(key)), static_cast<double>(std::get<1>(key)),
         static_cast<double>(std::get<2>(key)), part.compute, part.latest});
  }
  for (const UnitResult& u : process.units()) {
    records.units.insert(records.units.end(),
                         {static_cast<double>(u.phase), static_cast<double>(u.rank),
                          static_cast<double>(u.call), static_cast<double>(u.unit),
                          static_cast<double>(u.step), static_cast<double>(u.timed), u.seconds});
  }
  for (const MessageResult& m : process.messages()) {
    records.messages.insert(
        records.messages.end(),
        {static_cast<double>(m.phase), static_cast<double>(m.step), static_cast<double>(m.rank),
         static_cast<double>(m.peer), m.send ? 1.0 : 0.0, static_cast<double>(m.bytes),
         m.same_node ? 1.0 : 0.0, m.seconds, static_cast<double>(m.in_flight)});
  }
}

void add_measurements(const MeasurementRecords& all, const core::ScaledTrace& trace,
                      const Setup& setup, const std::vector<int>& phases, bool collectives_live,
                      ReplayResult& result) {
  std::map<int, std::vector<double>> own_network = add_step_log(all.steps, setup, result);
  RankTimes times(result.nprocs, static_cast<std::size_t>(result.repetitions));
  add_mean_times(all, times);
  add_repetition_times(all, static_cast<std::size_t>(result.repetitions), times);
  const std::map<int, double> compute = slowest_compute(all.compute);
  for (const int p : phases) {
    PhaseResult ph = phase_result(p, trace, setup, collectives_live, result, times, own_network);
    if (const auto c = compute.find(p); c != compute.end()) ph.compute_seconds = c->second;
    result.pet += ph.phase_et * ph.weight;
    if (!ph.not_held.empty()) {
      result.warnings.push_back(ph.name + ": not held at R = " + std::to_string(result.processes) +
                                ": " + ph.not_held);
    }
    result.phases.push_back(std::move(ph));
  }
  for (std::size_t i = 0; i + kMessageFields <= all.messages.size(); i += kMessageFields)
    result.messages.push_back(message_result(all.messages, i));
  for (std::size_t i = 0; i + kUnitFields <= all.units.size(); i += kUnitFields) {
    const auto field = [&](std::size_t k) { return static_cast<int>(all.units[i + k]); };
    result.units.push_back(
        {field(0), field(1), field(2), field(3), field(4), field(5), all.units[i + 6]});
  }
}

}  // namespace p3s::replay
