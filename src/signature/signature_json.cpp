#include "signature/signature_json.hpp"

#include <cmath>
#include <fstream>

#include "core/format_error.hpp"
#include "core/rank_list.hpp"

namespace p3s::signature {
namespace {

using nlohmann::json;
// Written objects keep their keys in the documented order ("format" first).
using ojson = nlohmann::ordered_json;

constexpr double kNsPerSecond = 1e9;

double seconds(double ns) {
  return ns / kNsPerSecond;
}
std::int64_t to_ns(double s) {
  return std::llround(s * kNsPerSecond);
}

// Bad content found while reading; turned into a FormatError naming the file at the top.
struct BadSignature : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string_view end_name(core::TraceEnd end) {
  switch (end) {
    case core::TraceEnd::Complete:
      return "complete";
    case core::TraceEnd::Aborted:
      return "abort";
    case core::TraceEnd::Signalled:
      return "signal";
    case core::TraceEnd::Truncated:
      break;
  }
  return "truncated";
}

core::TraceEnd end_from(const std::string& name) {
  for (auto end : {core::TraceEnd::Complete, core::TraceEnd::Aborted, core::TraceEnd::Signalled,
                   core::TraceEnd::Truncated}) {
    if (end_name(end) == name) return end;
  }
  throw BadSignature("unknown trace end '" + name + "'");
}

// Statistics of times are written in seconds, counts as they are.
ojson stats_json(const RunningStats& s, double scale) {
  return {{"mean", s.mean() * scale}, {"stddev", s.stddev() * scale}};
}

RunningStats stats_from(const json& j, std::int64_t count, double scale) {
  return RunningStats::from(count, j.at("mean").get<double>() / scale,
                            j.at("stddev").get<double>() / scale);
}

constexpr double kToSeconds = 1.0 / kNsPerSecond;

// A size's range over the repetitions, [min, max], around its mean.
RunningStats range_from(const json& j, std::int64_t count, double mean, const char* key) {
  const auto range = j.get<std::vector<double>>();
  if (range.size() != 2 || !(range[0] <= mean) || !(mean <= range[1]) || range[0] < 0) {
    throw BadSignature(std::string(key) + " must be [min, max] around the mean size");
  }
  return RunningStats::from(count, mean, 0.0, range[0], range[1]);
}

// Peers and roots: an offset from the rank, null when the call has none, "any" for a
// receive from MPI_ANY_SOURCE whose source was never learnt.
ojson peer_json(std::int32_t offset) {
  if (offset == core::kNone) return nullptr;
  if (offset == core::kAnySource) return "any";
  return offset;
}

std::int32_t peer_from(const json& j) {
  if (j.is_null()) return core::kNone;
  if (j.is_string()) {
    if (j.get<std::string>() != "any")
      throw BadSignature("peer must be an integer, null or \"any\"");
    return core::kAnySource;
  }
  return j.get<std::int32_t>();
}

ojson event_json(const EventToken& t, const SlotStats& slot, bool instructions) {
  ojson j = {{"op", core::op_name(t.op)},
             {"dst", peer_json(t.dst)},
             {"tag", t.tag},
             {"bytes", t.bytes},
             {"src", peer_json(t.src)},
             {"rtag", t.rtag},
             {"rbytes", t.rbytes},
             {"comm", t.comm},
             {"root", peer_json(t.root)},
             {"requests", t.requests == core::kNone ? ojson(nullptr) : ojson(t.requests)},
             {"bytes_range", {slot.bytes.min(), slot.bytes.max()}},
             {"rbytes_range", {slot.rbytes.min(), slot.rbytes.max()}},
             {"cpu", stats_json(slot.cpu_ns, kToSeconds)},
             {"burst", stats_json(slot.burst_ns, kToSeconds)},
             {"call", stats_json(slot.call_ns, kToSeconds)}};
  j["instructions"] = instructions ? stats_json(slot.instructions, 1.0) : ojson(nullptr);
  return j;
}

ojson phase_json(const RankPhase& p, bool instructions) {
  ojson events = ojson::array();
  for (std::size_t s = 0; s < p.events.size(); ++s) {
    events.push_back(event_json(p.events[s], p.slots[s], instructions));
  }
  ojson time = stats_json(p.time_ns, kToSeconds);
  time["total"] = seconds(static_cast<double>(p.total_ns));
  return {{"id", p.id},
          {"weight", p.weight},
          {"occurrences", p.occurrences},
          {"first_event", p.first_event},
          {"time", time},
          {"cpu", stats_json(p.cpu_ns, kToSeconds)},
          {"instructions", instructions ? stats_json(p.instructions, 1.0) : ojson(nullptr)},
          {"events", events}};
}

ojson rank_json(const RankPhases& r) {
  ojson comms = ojson::array();
  for (const CommShape& shape : r.comms) {
    std::string members;
    core::append_rank_list(members, shape.members);
    comms.push_back(members);
  }
  ojson phases = ojson::array();
  for (const RankPhase& p : r.phases) phases.push_back(phase_json(p, r.instructions));
  return {{"rank", r.rank},
          {"events", r.events},
          {"end", end_name(r.end)},
          {"run_seconds", seconds(static_cast<double>(r.run_ns))},
          {"pet_seconds", seconds(static_cast<double>(r.pet_ns()))},
          {"coverage", r.coverage()},
          {"instructions", r.instructions},
          {"phase_count", r.phase_count},
          {"other_events", r.other_events},
          {"other_seconds", seconds(static_cast<double>(r.other_ns))},
          {"comms", comms},
          {"phases", phases}};
}

ojson run_json(const Signature& sig) {
  const core::RunInfo& run = sig.run;
  return {{"dir", sig.run_dir},
          {"nprocs", run.nprocs},
          {"command", run.command},
          {"workload", run.workload
                           ? ojson{{"label", run.workload->label}, {"size", run.workload->size}}
                           : ojson(nullptr)},
          {"date", run.date},
          {"host", run.host},
          {"counters", run.counters},
          {"clock", {{"wall", run.wall_clock}, {"cpu", run.cpu_clock}}},
          {"source", run.source},
          {"exit_code", run.exit_code},
          {"wall_seconds", run.wall_seconds},
          {"complete", run.complete}};
}

EventToken event_from(const json& j, SlotStats& slot, std::int64_t weight, bool instructions,
                      std::size_t comm_count) {
  EventToken t;
  const auto op = core::op_from_name(j.at("op").get<std::string>());
  if (!op) throw BadSignature("unknown op '" + j.at("op").get<std::string>() + "'");
  t.op = *op;
  t.dst = peer_from(j.at("dst"));
  t.tag = j.at("tag").get<std::int32_t>();
  t.bytes = j.at("bytes").get<std::int64_t>();
  t.src = peer_from(j.at("src"));
  t.rtag = j.at("rtag").get<std::int32_t>();
  t.rbytes = j.at("rbytes").get<std::int64_t>();
  t.comm = j.at("comm").get<std::int32_t>();
  if (t.comm < 0 || static_cast<std::size_t>(t.comm) >= comm_count) {
    throw BadSignature("event refers to communicator " + std::to_string(t.comm) +
                       ", not in 'comms'");
  }
  t.root = peer_from(j.at("root"));
  t.requests = j.at("requests").is_null() ? core::kNone : j.at("requests").get<std::int32_t>();
  slot.bytes = range_from(j.at("bytes_range"), weight, static_cast<double>(t.bytes), "bytes_range");
  slot.rbytes =
      range_from(j.at("rbytes_range"), weight, static_cast<double>(t.rbytes), "rbytes_range");
  slot.cpu_ns = stats_from(j.at("cpu"), weight, kToSeconds);
  slot.burst_ns = stats_from(j.at("burst"), weight, kToSeconds);
  slot.call_ns = stats_from(j.at("call"), weight, kToSeconds);
  if (instructions) slot.instructions = stats_from(j.at("instructions"), weight, 1.0);
  return t;
}

RankPhase phase_from(const json& j, bool instructions, std::size_t comm_count) {
  RankPhase p;
  p.id = j.at("id").get<std::int32_t>();
  p.weight = j.at("weight").get<std::int64_t>();
  if (p.weight < 1) throw BadSignature("phase weight must be at least 1");
  p.occurrences = j.at("occurrences").get<std::int64_t>();
  p.first_event = j.at("first_event").get<std::size_t>();
  p.time_ns = stats_from(j.at("time"), p.weight, kToSeconds);
  p.total_ns = to_ns(j.at("time").at("total").get<double>());
  p.cpu_ns = stats_from(j.at("cpu"), p.weight, kToSeconds);
  if (instructions) p.instructions = stats_from(j.at("instructions"), p.weight, 1.0);
  for (const json& e : j.at("events")) {
    p.slots.emplace_back();
    p.events.push_back(event_from(e, p.slots.back(), p.weight, instructions, comm_count));
  }
  if (p.events.empty()) throw BadSignature("phase " + std::to_string(p.id) + " has no events");
  return p;
}

RankPhases rank_from(const json& j, std::int32_t nprocs) {
  RankPhases r;
  r.rank = j.at("rank").get<std::int32_t>();
  r.nprocs = nprocs;
  r.events = j.at("events").get<std::int64_t>();
  r.end = end_from(j.at("end").get<std::string>());
  r.run_ns = to_ns(j.at("run_seconds").get<double>());
  r.instructions = j.at("instructions").get<bool>();
  r.phase_count = j.at("phase_count").get<std::int64_t>();
  r.other_events = j.at("other_events").get<std::int64_t>();
  r.other_ns = to_ns(j.at("other_seconds").get<double>());
  for (const json& c : j.at("comms")) {
    try {
      r.comms.push_back({core::parse_rank_list(c.get<std::string>())});
    } catch (const std::invalid_argument& e) {
      throw BadSignature(std::string("communicator members: ") + e.what());
    }
  }
  if (r.comms.empty())
    throw BadSignature("rank " + std::to_string(r.rank) +
                       " has no communicators (MPI_COMM_WORLD comes first)");
  for (const json& p : j.at("phases"))
    r.phases.push_back(phase_from(p, r.instructions, r.comms.size()));
  return r;
}

core::RunInfo run_from(const json& j) {
  core::RunInfo run;
  run.nprocs = j.at("nprocs").get<int>();
  if (run.nprocs <= 0) throw BadSignature("nprocs must be positive");
  run.command = j.at("command").get<std::vector<std::string>>();
  if (!j.at("workload").is_null()) {
    run.workload = core::Workload{j["workload"].at("label").get<std::string>(),
                                  j["workload"].at("size").get<double>()};
  }
  run.date = j.at("date").get<std::string>();
  run.host = j.at("host").get<std::string>();
  run.counters = j.at("counters").get<std::vector<std::string>>();
  run.wall_clock = j.at("clock").at("wall").get<std::string>();
  run.cpu_clock = j.at("clock").at("cpu").get<std::string>();
  run.source = j.at("source").get<std::string>();
  run.exit_code = j.at("exit_code").get<int>();
  run.wall_seconds = j.at("wall_seconds").get<double>();
  run.complete = j.at("complete").get<bool>();
  return run;
}

Signature parse(const json& j) {
  if (!j.is_object() || !j.contains("format"))
    throw BadSignature("not a p3s signature (no \"format\")");
  const std::string format = j.at("format").get<std::string>();
  if (format != kSignatureFormat) {
    throw BadSignature("unsupported format '" + format + "' (this p3s reads '" +
                       std::string(kSignatureFormat) + "')");
  }
  Signature sig;
  sig.run_dir = j.at("run").at("dir").get<std::string>();
  sig.run = run_from(j.at("run"));
  const std::string compute = j.at("compute").get<std::string>();
  if (compute != "cpu_time" && compute != "instructions")
    throw BadSignature("compute must be cpu_time or instructions");
  sig.compute = compute == "instructions" ? ComputeMetric::Instructions : ComputeMetric::CpuTime;
  sig.threshold = j.at("threshold").get<double>();
  sig.size_tolerance = j.at("size_tolerance").get<double>();
  sig.aet_ns = to_ns(j.at("aet_seconds").get<double>());
  sig.representative = j.at("representative_rank").get<std::int32_t>();
  for (const json& p : j.at("phases")) {
    sig.phases.push_back({p.at("id").get<std::int32_t>(), p.at("weight").get<std::int64_t>(),
                          p.at("events").get<std::int64_t>(), p.at("ranks").get<std::int32_t>(),
                          p.at("same_weight").get<bool>()});
  }
  sig.notes = j.at("notes").get<std::vector<std::string>>();
  for (const json& r : j.at("ranks")) sig.ranks.push_back(rank_from(r, sig.run.nprocs));
  if (static_cast<int>(sig.ranks.size()) != sig.run.nprocs) {
    throw BadSignature("has " + std::to_string(sig.ranks.size()) + " ranks but nprocs is " +
                       std::to_string(sig.run.nprocs));
  }
  for (std::size_t r = 0; r < sig.ranks.size(); ++r) {
    if (sig.ranks[r].rank != static_cast<std::int32_t>(r))
      throw BadSignature("ranks must be listed in order 0..nprocs-1");
    for (const RankPhase& p : sig.ranks[r].phases) {
      if (p.id < 0 || static_cast<std::size_t>(p.id) >= sig.phases.size()) {
        throw BadSignature("rank " + std::to_string(r) + " has a phase with unknown id " +
                           std::to_string(p.id));
      }
    }
  }
  if (sig.representative < 0 || sig.representative >= sig.run.nprocs)
    throw BadSignature("representative_rank outside 0..nprocs-1");
  return sig;
}

}  // namespace

ojson signature_to_json(const Signature& sig) {
  ojson phases = ojson::array();
  for (const RunPhase& p : sig.phases) {
    phases.push_back({{"id", p.id},
                      {"weight", p.weight},
                      {"events", p.events},
                      {"ranks", p.ranks},
                      {"same_weight", p.same_weight}});
  }
  ojson ranks = ojson::array();
  for (const RankPhases& r : sig.ranks) ranks.push_back(rank_json(r));
  ojson out;
  out["format"] = kSignatureFormat;
  out["run"] = run_json(sig);
  out["compute"] = sig.compute == ComputeMetric::Instructions ? "instructions" : "cpu_time";
  out["threshold"] = sig.threshold;
  out["size_tolerance"] = sig.size_tolerance;
  out["aet_seconds"] = seconds(static_cast<double>(sig.aet_ns));
  out["representative_rank"] = sig.representative;
  out["pet_seconds"] = sig.ranks.empty() ? 0.0 : seconds(static_cast<double>(sig.pet_ns()));
  out["coverage"] = sig.ranks.empty() ? 0.0 : sig.coverage();
  out["phases"] = phases;
  out["notes"] = sig.notes;
  out["ranks"] = ranks;
  return out;
}

Signature signature_from_json(const json& j, const std::string& name) {
  try {
    return parse(j);
  } catch (const BadSignature& e) {
    throw core::FormatError(name, 0, e.what());
  } catch (const json::exception& e) {
    throw core::FormatError(name, 0, std::string("bad signature: ") + e.what());
  }
}

void write_signature(const std::filesystem::path& file, const Signature& sig) {
  std::ofstream out(file);
  out << signature_to_json(sig).dump(1) << '\n';
  if (!out) throw core::FormatError(file.string(), 0, "cannot write");
}

Signature read_signature(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw core::FormatError(file.string(), 0, "cannot open signature");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw core::FormatError(file.string(), 0, std::string("not valid JSON: ") + e.what());
  }
  return signature_from_json(j, file.string());
}

}  // namespace p3s::signature
