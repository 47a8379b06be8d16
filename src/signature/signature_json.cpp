#include "signature/signature_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/checked_math.hpp"
#include "core/format_error.hpp"
#include "core/json_read.hpp"
#include "core/rank_list.hpp"
#include "core/text_file.hpp"

namespace p3s::signature {
namespace {

using nlohmann::json;
// Written objects keep their keys in the documented order ("format" first).
using ojson = nlohmann::ordered_json;

constexpr double kNsPerSecond = 1e9;

double seconds(double ns) {
  return ns / kNsPerSecond;
}
// Bad content found while reading; turned into a FormatError naming the file at the top.
struct BadSignature : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Seconds as written, back in nanoseconds: non-negative and within what an int64 of ns holds.
constexpr double kMaxSeconds = 9e9;
std::int64_t ns_from(const json& j) {
  return std::llround(core::json_number(j, 0, kMaxSeconds) * kNsPerSecond);
}

std::string text_of(const json& j) {
  core::json_require(j.is_string(), j, std::string("must be a string, not ") + j.type_name());
  return j.get<std::string>();
}

bool flag_of(const json& j) {
  core::json_require(j.is_boolean(), j, "must be true or false");
  return j.get<bool>();
}

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

// Means and spreads of times and counts: non-negative and, like the traces' nanoseconds and
// counts, within 64 bits (a larger spread would square to infinity and not be written back).
RunningStats stats_from(const json& j, std::int64_t count, double scale) {
  const double largest = static_cast<double>(INT64_MAX) * scale;
  return RunningStats::from(count, core::json_number(j.at("mean"), 0, largest) / scale,
                            core::json_number(j.at("stddev"), 0, largest) / scale);
}

constexpr double kToSeconds = 1.0 / kNsPerSecond;

// A size's range over the repetitions, [min, max], around its mean.
RunningStats range_from(const json& j, std::int64_t count, double mean, const char* key) {
  const auto range = core::json_numbers(j, 0, static_cast<double>(core::kMaxBytes));
  core::json_require(range.size() == 2 && range[0] <= mean && mean <= range[1], j,
                     std::string(key) + " must be [min, max] around the mean size");
  return RunningStats::from(count, mean, 0.0, range[0], range[1]);
}

// Peers and roots: an offset from the rank, null when the call has none, "any" for a
// receive from MPI_ANY_SOURCE whose source was never learnt.
ojson peer_json(std::int32_t offset) {
  if (offset == core::kNone) return nullptr;
  if (offset == core::kAnySource) return "any";
  return offset;
}

// An offset (peer - rank) mod nprocs lies in 0..nprocs-1.
std::int32_t peer_from(const json& j, std::int32_t nprocs) {
  if (j.is_null()) return core::kNone;
  if (j.is_string()) {
    core::json_require(j.get<std::string>() == "any", j,
                       "peer must be an integer, null or \"any\"");
    return core::kAnySource;
  }
  return core::json_int32(j, 0, nprocs - 1);
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
  ojson j = {{"dir", sig.run_dir}};
  j.update(core::run_info_json(sig.run));
  return j;
}

EventToken event_from(const json& j, SlotStats& slot, std::int64_t weight, bool instructions,
                      std::size_t comm_count, std::int32_t nprocs) {
  EventToken t;
  const auto op = core::op_from_name(text_of(j.at("op")));
  core::json_require(op.has_value(), j.at("op"), "unknown op " + j.at("op").dump());
  t.op = *op;
  t.dst = peer_from(j.at("dst"), nprocs);
  t.tag = core::json_int32(j.at("tag"), core::kAnyTag);
  t.bytes = core::json_integer(j.at("bytes"), 0, core::kMaxBytes);
  t.src = peer_from(j.at("src"), nprocs);
  t.rtag = core::json_int32(j.at("rtag"), core::kAnyTag);
  t.rbytes = core::json_integer(j.at("rbytes"), 0, core::kMaxBytes);
  t.comm = core::json_int32(j.at("comm"), 0, static_cast<std::int32_t>(comm_count) - 1);
  t.root = peer_from(j.at("root"), nprocs);
  t.requests = j.at("requests").is_null() ? core::kNone : core::json_int32(j.at("requests"), 0);
  slot.bytes = range_from(j.at("bytes_range"), weight, static_cast<double>(t.bytes), "bytes_range");
  slot.rbytes =
      range_from(j.at("rbytes_range"), weight, static_cast<double>(t.rbytes), "rbytes_range");
  slot.cpu_ns = stats_from(j.at("cpu"), weight, kToSeconds);
  slot.burst_ns = stats_from(j.at("burst"), weight, kToSeconds);
  slot.call_ns = stats_from(j.at("call"), weight, kToSeconds);
  if (instructions) slot.instructions = stats_from(j.at("instructions"), weight, 1.0);
  return t;
}

RankPhase phase_from(const json& j, bool instructions, std::size_t comm_count,
                     std::int32_t nprocs) {
  RankPhase p;
  p.id = core::json_int32(j.at("id"), 0);
  p.weight = core::json_integer(j.at("weight"), 1);
  p.occurrences = core::json_integer(j.at("occurrences"), 0);
  p.first_event = static_cast<std::size_t>(core::json_integer(j.at("first_event"), 0));
  p.time_ns = stats_from(j.at("time"), p.weight, kToSeconds);
  p.total_ns = ns_from(j.at("time").at("total"));
  p.cpu_ns = stats_from(j.at("cpu"), p.weight, kToSeconds);
  if (instructions) p.instructions = stats_from(j.at("instructions"), p.weight, 1.0);
  for (const json& e : j.at("events")) {
    p.slots.emplace_back();
    p.events.push_back(core::json_within(e, [&] {
      return event_from(e, p.slots.back(), p.weight, instructions, comm_count, nprocs);
    }));
  }
  if (p.events.empty()) throw BadSignature("phase " + std::to_string(p.id) + " has no events");
  return p;
}

RankPhases rank_from(const json& j, std::int32_t nprocs) {
  RankPhases r;
  r.rank = core::json_int32(j.at("rank"), 0, nprocs - 1);
  r.nprocs = nprocs;
  r.events = core::json_integer(j.at("events"), 0);
  r.end = end_from(text_of(j.at("end")));
  r.run_ns = ns_from(j.at("run_seconds"));
  r.instructions = flag_of(j.at("instructions"));
  r.phase_count = core::json_integer(j.at("phase_count"), 0);
  r.other_events = core::json_integer(j.at("other_events"), 0);
  r.other_ns = ns_from(j.at("other_seconds"));
  for (const json& c : j.at("comms")) {
    std::vector<std::int32_t> members;
    try {
      members = core::parse_rank_list(text_of(c), nprocs);
    } catch (const std::invalid_argument& e) {
      throw core::JsonValueError(c, std::string("communicator members: ") + e.what());
    }
    std::vector<std::int32_t> sorted = members;
    std::sort(sorted.begin(), sorted.end());
    core::json_require(sorted.back() < nprocs, c, "communicator member outside 0..nprocs-1");
    core::json_require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), c,
                       "a communicator member is listed twice");
    r.comms.push_back({std::move(members)});
  }
  if (r.comms.empty())
    throw BadSignature("rank " + std::to_string(r.rank) +
                       " has no communicators (MPI_COMM_WORLD comes first)");
  for (const json& p : j.at("phases"))
    r.phases.push_back(core::json_within(
        p, [&] { return phase_from(p, r.instructions, r.comms.size(), nprocs); }));
  return r;
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
  sig.run_dir = text_of(j.at("run").at("dir"));
  sig.run = core::json_within(j.at("run"), [&] { return core::run_info_from_json(j.at("run")); });
  const std::string compute = text_of(j.at("compute"));
  core::json_require(compute == "cpu_time" || compute == "instructions", j.at("compute"),
                     "compute must be cpu_time or instructions");
  sig.compute = compute == "instructions" ? ComputeMetric::Instructions : ComputeMetric::CpuTime;
  sig.threshold = core::json_number(j.at("threshold"), 0, 1);
  sig.size_tolerance = core::json_number(j.at("size_tolerance"), 0);
  sig.aet_ns = ns_from(j.at("aet_seconds"));
  sig.representative = core::json_int32(j.at("representative_rank"), 0, sig.run.nprocs - 1);
  for (const json& p : j.at("phases")) {
    sig.phases.push_back({core::json_int32(p.at("id"), 0), core::json_integer(p.at("weight"), 0),
                          core::json_integer(p.at("events"), 0),
                          core::json_int32(p.at("ranks"), 0, sig.run.nprocs),
                          flag_of(p.at("same_weight"))});
  }
  sig.notes = j.at("notes").get<std::vector<std::string>>();
  for (const json& r : j.at("ranks")) {
    sig.ranks.push_back(core::json_within(r, [&] { return rank_from(r, sig.run.nprocs); }));
  }
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
  Signature sig;
  core::read_json_value(name, j, [&](const json& root) {
    try {
      sig = parse(root);
    } catch (const BadSignature& e) {
      throw core::FormatError(name, 0, e.what());
    }
  });
  return sig;
}

void write_signature(const std::filesystem::path& file, const Signature& sig) {
  core::write_text_file(file, signature_to_json(sig).dump(1) + "\n");
}

Signature read_signature(const std::filesystem::path& file) {
  Signature sig;
  core::read_json_document(file.string(), core::read_text_file(file, "signature"),
                           [&](const json& j) { sig = signature_from_json(j, file.string()); });
  return sig;
}

}  // namespace p3s::signature
