#include "replay_mpi/measurable_process.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "replay_mpi/control.hpp"
#include "replay_mpi/event_peers.hpp"

namespace p3s::replay {
namespace {

using core::Op;

double now() {
  return MPI_Wtime();
}

int count(std::int64_t bytes) {
  return static_cast<int>(std::max<std::int64_t>(bytes, 0));
}

// Over the measured repetitions: entry k's total.
double summed(const std::vector<std::vector<double>>& by_rep, std::size_t k) {
  double sum = 0;
  for (const std::vector<double>& r : by_rep) sum += r[k];
  return sum;
}

// What the black hole receives (tag, bytes) and sends (tag, bytes) for one call, -1 for
// neither.
Control serve(std::int32_t recv_tag, std::int64_t recv_bytes, std::int32_t send_tag,
              std::int64_t send_bytes) {
  Control c;
  c.kind = Control::Serve;
  c.recv_tag = recv_tag;
  c.recv_bytes = recv_bytes;
  c.send_tag = send_tag;
  c.send_bytes = send_bytes;
  return c;
}

}  // namespace

MeasurableProcess::MeasurableProcess(const core::ScaledTrace& trace, const Setup& setup,
                                     const ReplayComms& comms, ComputeEmulation compute,
                                     const MeasurableOptions& options)
    : trace_(trace), setup_(setup), comms_(comms), compute_(compute), options_(options) {
  MPI_Comm_rank(MPI_COMM_WORLD, &self_);
  int* ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
  if (found && ub) tag_ub_ = *ub;
}

void MeasurableProcess::load(int index, int slot) {
  const PlannedStep& step = setup_.plan.steps[static_cast<std::size_t>(index)];
  step_ = index;
  phase_ = step.phase;
  rank_ = step.ranks[static_cast<std::size_t>(slot)];
  collectives_only_ = rank_ < 0;
  const std::int32_t played = collectives_only_
                                  ? *std::find_if(step.ranks.begin(), step.ranks.end(),
                                                  [](std::int32_t r) { return r >= 0; })
                                  : rank_;
  slot_of_.clear();
  for (std::size_t i = 0; i < step.ranks.size(); ++i)
    if (step.ranks[i] >= 0) slot_of_[step.ranks[i]] = static_cast<int>(i);
  const int hole = step.black_hole[static_cast<std::size_t>(slot)];
  black_hole_ = hole < 0 ? -1 : setup_.black_holes[static_cast<std::size_t>(hole)];
  std::vector<core::Event> events;
  trace_.phase_events(phase_, played, events);
  program_ = core::compile_rank_program(events, 1.0);
  first_unit_.clear();
  completion_peers_.assign(program_.steps.size(), {});
  std::vector<Unit> units;
  for (std::size_t i = 0; i < program_.steps.size(); ++i) {
    first_unit_.push_back(static_cast<std::uint32_t>(units.size()));
    event_units(program_, program_.steps[i], units);
    if (core::op_kind(program_.steps[i].op) == core::OpKind::Completion)
      completion_peers_[i] = completion_peers(program_, program_.steps[i]);
  }
  first_unit_.push_back(static_cast<std::uint32_t>(units.size()));
  measured_.assign(units.size(), 0);
  if (!collectives_only_)
    for (const std::uint32_t e : step.measured[static_cast<std::size_t>(slot)]) measured_[e] = 1;
}

int MeasurableProcess::process_of(std::int32_t rank) const {
  const auto it = slot_of_.find(rank);
  if (it != slot_of_.end()) return setup_.measurable[static_cast<std::size_t>(it->second)];
  if (black_hole_ < 0)
    throw std::logic_error("rank " + std::to_string(rank_) + " talks to rank " +
                           std::to_string(rank) + ", not loaded, and has no black hole");
  return black_hole_;
}

char* MeasurableProcess::send_buffer(std::int64_t bytes) {
  if (static_cast<std::int64_t>(send_buffer_.size()) < bytes)
    send_buffer_.resize(static_cast<std::size_t>(bytes));
  return send_buffer_.empty() ? nullptr : send_buffer_.data();
}

char* MeasurableProcess::receive_buffer(std::int64_t req, std::int64_t bytes) {
  std::vector<char>& b = req < 0 ? scratch_ : receive_buffers_[req];
  if (static_cast<std::int64_t>(b.size()) < bytes) b.resize(static_cast<std::size_t>(bytes));
  return b.empty() ? nullptr : b.data();
}

StepCounts MeasurableProcess::run_step(int index, int slot, bool warmup) {
  load(index, slot);
  StepCounts counts;
  counts.network_messages = collectives_only_ ? 0 : network_messages();
  const NoiseLoad noise = noise_load(counts.network_messages);
  if (slot == 0) {
    counts.noise_messages = noise.per_pair * static_cast<std::int64_t>(setup_.noise_pairs.size());
  }
  const auto measured_repetitions = static_cast<std::size_t>(options_.repetitions);
  MeasuredTimes times{std::vector<std::vector<double>>(measured_repetitions,
                                                       std::vector<double>(measured_.size(), 0.0)),
                      std::vector<std::vector<double>>(
                          measured_repetitions, std::vector<double>(program_.steps.size(), 0.0)),
                      std::vector<int>(measured_.size(), 0), 0};
  const int warmups = warmup_repetitions(setup_.plan.steps[static_cast<std::size_t>(index)]);
  const int repetitions = warmups + options_.repetitions;
  // What the black hole serves, before the first repetition; no requests end its step (below).
  if (StepRequests asked{black_hole_requests(), repetitions};
      black_hole_ >= 0 && !asked.requests.empty()) {
    send_step_requests(asked, black_hole_, comms_.control);
  }
  for (int rep = 0; rep < repetitions; ++rep) {
    const bool measuring = !warmup && rep >= warmups;
    if (slot == 0 && measuring && noise.per_pair > 0) start_noise(noise.per_pair, noise.bytes);
    // The warm-up repetitions are played, never measured.
    play_repetition(measuring, measuring ? static_cast<std::size_t>(rep - warmups) : 0, times);
  }
  counts.executed = times.calls;
  if (slot == 0 && !setup_.noise_pairs.empty())
    for (const auto& pair : setup_.noise_pairs) send_control(Control{}, pair.first, comms_.control);
  if (black_hole_ >= 0) send_step_requests({}, black_hole_, comms_.control);
  if (!warmup && !collectives_only_) {
    counts.measured = std::count(measured_.begin(), measured_.end(), 1);
    add_measured(times);
    if (options_.record_units) add_unit_records(times);
  }
  return counts;
}

void MeasurableProcess::play_repetition(bool measuring, std::size_t rep, MeasuredTimes& times) {
  double previous = now();
  for (std::size_t i = 0; i < program_.steps.size(); ++i) {
    if (collectives_only_) {
      if (is_replayed_collective(program_.steps[i].op)) collective(program_.steps[i]);
      continue;
    }
    previous = play_call(i, measuring, rep, previous, times);
  }
  finish_repetition();
}

MeasurableProcess::NoiseLoad MeasurableProcess::noise_load(std::int64_t own_messages) const {
  NoiseLoad noise;
  if (setup_.noise_pairs.empty()) return noise;
  // What the application puts on the network per repetition, less what this step does.
  std::int64_t own = 0;
  MPI_Allreduce(&own_messages, &own, 1, MPI_INT64_T, MPI_SUM, comms_.measurable);
  const PhaseTraffic& t = setup_.plan.traffic[static_cast<std::size_t>(phase_)];
  const auto pairs = static_cast<std::int64_t>(setup_.noise_pairs.size());
  noise.per_pair = std::min<std::int64_t>(
      options_.noise_cap,
      (std::max<std::int64_t>(0, t.network_messages - own) + pairs - 1) / pairs);
  noise.bytes = t.mean_bytes;
  return noise;
}

double MeasurableProcess::play_call(std::size_t i, bool measuring, std::size_t rep, double previous,
                                    MeasuredTimes& times) {
  const core::ProgramStep& call = program_.steps[i];
  const std::uint32_t unit = first_unit_[i];
  const bool timed = measuring && measured_[unit];
  compute_.run(std::llround(call.compute_seconds * 1e9));
  const double called = now();
  const std::vector<std::int32_t>& peers = completion_peers_[i];
  if (core::op_kind(call.op) == core::OpKind::Completion) {
    complete(call, i, done_);
  } else {
    execute(call, timed && options_.record_messages);
  }
  const double ended = now();
  ++times.calls;
  if (measuring && !peers.empty()) {
    if (measured_[unit]) times.computes[rep][i] += called - previous;
    for (std::size_t k = 0; k < peers.size(); ++k) {
      if (!measured_[unit + k]) continue;
      times.units[rep][unit + k] += done_[k] - called;
      ++times.timed[unit + k];
    }
  } else if (timed) {
    ++times.timed[unit];
    times.computes[rep][i] += called - previous;
    const bool fitted = is_replayed_collective(call.op) && !options_.collectives_live;
    times.units[rep][unit] += fitted ? called - previous +
                                           options_.fitted->at(CollectiveShape{
                                               call.op, call.bytes, call.rbytes, trace_.nprocs()})
                                     : ended - previous;
  }
  return ended;
}

void MeasurableProcess::add_measured(const MeasuredTimes& times) {
  const double reps = options_.repetitions;
  const auto measured_repetitions = static_cast<std::size_t>(options_.repetitions);
  double total = 0;
  std::vector<double> total_by_rep(measured_repetitions, 0.0);
  for (std::size_t i = 0; i < program_.steps.size(); ++i) {
    const std::uint32_t first = first_unit_[i];
    if (!completion_peers_[i].empty()) {
      add_completion(i, times);
      continue;
    }
    if (!measured_[first]) continue;
    total += summed(times.units, first) / reps;
    for (std::size_t r = 0; r < measured_repetitions; ++r) total_by_rep[r] += times.units[r][first];
  }
  seconds_[{phase_, rank_}] += total;
  // Each call's compute is measured with its first unit, so once over the steps.
  double compute = 0;
  for (std::size_t i = 0; i < program_.steps.size(); ++i) {
    if (measured_[first_unit_[i]]) compute += summed(times.computes, i) / reps;
  }
  compute_seconds_[{phase_, rank_}] += compute;
  std::vector<double>& by_rep = repetition_seconds_[{phase_, rank_}];
  by_rep.resize(measured_repetitions, 0.0);
  for (std::size_t r = 0; r < measured_repetitions; ++r) by_rep[r] += total_by_rep[r];
}

void MeasurableProcess::add_unit_records(const MeasuredTimes& times) {
  for (std::size_t i = 0; i < program_.steps.size(); ++i) {
    for (std::uint32_t u = first_unit_[i]; u < first_unit_[i + 1]; ++u) {
      if (times.timed[u] == 0) continue;
      const double seconds = summed(times.units, u) / options_.repetitions;
      units_.push_back({phase_, rank_, static_cast<int>(i), static_cast<int>(u - first_unit_[i]),
                        step_, times.timed[u], seconds});
    }
  }
}

void MeasurableProcess::add_completion(std::size_t i, const MeasuredTimes& times) {
  const std::uint32_t first = first_unit_[i], end = first_unit_[i + 1];
  if (std::find(measured_.begin() + first, measured_.begin() + end, 1) == measured_.begin() + end)
    return;
  const double reps = options_.repetitions;
  const auto measured_repetitions = static_cast<std::size_t>(options_.repetitions);
  CompletionPart& part = completions_[{phase_, rank_, static_cast<std::uint32_t>(i)}];
  part.compute_by_repetition.resize(measured_repetitions, 0.0);
  part.latest_by_repetition.resize(measured_repetitions, 0.0);
  if (measured_[first]) {
    part.compute += summed(times.computes, i) / reps;
    for (std::size_t r = 0; r < measured_repetitions; ++r)
      part.compute_by_repetition[r] += times.computes[r][i];
  }
  for (std::uint32_t u = first; u < end; ++u) {
    if (!measured_[u]) continue;
    part.latest = std::max(part.latest, summed(times.units, u) / reps);
    for (std::size_t r = 0; r < measured_repetitions; ++r)
      part.latest_by_repetition[r] = std::max(part.latest_by_repetition[r], times.units[r][u]);
  }
}

std::vector<Control> MeasurableProcess::black_hole_requests() const {
  std::vector<Control> requests;
  if (collectives_only_) return requests;
  for (const core::ProgramStep& call : program_.steps) black_hole_requests(call, requests);
  return requests;
}

void MeasurableProcess::black_hole_requests(const core::ProgramStep& call,
                                            std::vector<Control>& out) const {
  switch (call.op) {
    case Op::Sendrecv:
    case Op::SendrecvReplace:
      return sendrecv_request(call, out);
    case Op::Startall:
      for (std::uint32_t k = 0; k < call.record_count; ++k) {
        const core::RequestRecord& r = program_.records[call.first_record + k];
        if (!external(r.peer)) continue;
        out.push_back(r.send ? serve(r.tag, r.bytes, -1, -1) : serve(-1, -1, r.tag, r.bytes));
      }
      return;
    case Op::Probe:
    case Op::Iprobe:  // not replayed
    case Op::SendInit:
    case Op::RecvInit:  // only describe a request, which Start makes
      return;
    default:
      // Any other point-to-point call or Start: its destination, its source.
      if (const core::OpKind kind = core::op_kind(call.op);
          kind != core::OpKind::PointToPoint && kind != core::OpKind::Persistent) {
        return;
      }
      if (external(call.dst)) out.push_back(serve(call.tag, call.bytes, -1, -1));
      if (external(call.src)) out.push_back(serve(-1, -1, call.rtag, call.rbytes));
      return;
  }
}

void MeasurableProcess::sendrecv_request(const core::ProgramStep& call,
                                         std::vector<Control>& out) const {
  // Traces imported from SMPI carry no sendrecv tags (-1): any tag does, the same on both ends
  // (as sendrecv() sends them). Both halves in one request when both are the black hole's: it
  // then exchanges at once.
  Control c = serve(-1, -1, -1, -1);
  if (external(call.dst)) {
    c.recv_tag = std::max(call.tag, 0);
    c.recv_bytes = call.bytes;
  }
  if (external(call.src)) {
    c.send_tag = std::max(call.rtag, 0);
    c.send_bytes = call.rbytes;
  }
  if (c.recv_bytes >= 0 || c.send_bytes >= 0) out.push_back(c);
}

void MeasurableProcess::execute(const core::ProgramStep& call, bool record) {
  switch (core::op_kind(call.op)) {
    case core::OpKind::PointToPoint:
      return point_to_point(call, record);
    case core::OpKind::Completion:  // run_step completes requests, timing each peer's
      return;
    case core::OpKind::Persistent:
      return start_persistent(call, record);
    case core::OpKind::Collective:
      return collective(call);
    case core::OpKind::CommCreate:  // p2p on any communicator replays on one (README)
    case core::OpKind::Finalize:
      return;
  }
}

void MeasurableProcess::point_to_point(const core::ProgramStep& call, bool record) {
  if (call.op == Op::Sendrecv || call.op == Op::SendrecvReplace) return sendrecv(call, record);
  if (call.op == Op::Probe || call.op == Op::Iprobe) return;
  if (call.dst >= 0) return send(call.op, call.dst, call.tag, call.bytes, call.req, record);
  if (call.src >= 0) return receive(call.op, call.src, call.rtag, call.rbytes, call.req, record);
}

void MeasurableProcess::start_persistent(const core::ProgramStep& call, bool record) {
  if (call.op == Op::Start) {
    if (call.dst >= 0) return send(Op::Isend, call.dst, call.tag, call.bytes, call.req, record);
    if (call.src >= 0)
      return receive(Op::Irecv, call.src, call.rtag, call.rbytes, call.req, record);
    return;
  }
  if (call.op != Op::Startall) return;  // send_init and recv_init only describe a request
  for (std::uint32_t i = 0; i < call.record_count; ++i) {
    const core::RequestRecord& r = program_.records[call.first_record + i];
    if (r.peer < 0) continue;
    if (r.send) {
      send(Op::Isend, r.peer, r.tag, r.bytes, r.req, record);
    } else {
      receive(Op::Irecv, r.peer, r.tag, r.bytes, r.req, record);
    }
  }
}

MeasurableProcess::Pending MeasurableProcess::pending(std::int32_t peer, std::int64_t bytes,
                                                      bool send, bool record, double posted) const {
  Pending p;
  p.posted = posted;
  p.peer = peer;
  p.bytes = bytes;
  p.send = send;
  p.record = record;
  p.in_flight = static_cast<int>(pending_.size()) + 1;
  return p;
}

void MeasurableProcess::send(Op op, std::int32_t dst, std::int32_t tag, std::int64_t bytes,
                             std::int64_t req, bool record) {
  if (tag < 0 || tag > tag_ub_)
    throw std::invalid_argument("phase " + std::to_string(phase_) + ", rank " +
                                std::to_string(rank_) + ": tag " + std::to_string(tag) +
                                " is outside this MPI's 0.." + std::to_string(tag_ub_));
  const int to = process_of(dst);
  const double posted = now();
  char* data = send_buffer(bytes);
  switch (op) {
    case Op::Send:
    case Op::Rsend:  // ready mode would need the black hole's receive posted first
      MPI_Send(data, count(bytes), MPI_BYTE, to, tag, comms_.data);
      break;
    case Op::Ssend:
      MPI_Ssend(data, count(bytes), MPI_BYTE, to, tag, comms_.data);
      break;
    case Op::Bsend: {  // buffered: complete for the sender at once
      detached_.emplace_back();
      MPI_Isend(data, count(bytes), MPI_BYTE, to, tag, comms_.data, &detached_.back());
      return;
    }
    default: {
      Pending p = pending(dst, bytes, true, record, posted);
      if (op == Op::Issend) {
        MPI_Issend(data, count(bytes), MPI_BYTE, to, tag, comms_.data, &p.request);
      } else {
        MPI_Isend(data, count(bytes), MPI_BYTE, to, tag, comms_.data, &p.request);
      }
      pending_[req] = p;
      return;
    }
  }
  if (record)
    record_message(dst, true, bytes, posted, now(), static_cast<int>(pending_.size()) + 1);
}

void MeasurableProcess::receive(Op op, std::int32_t src, std::int32_t tag, std::int64_t bytes,
                                std::int64_t req, bool record) {
  const int from = process_of(src);
  const double posted = now();
  if (op == Op::Irecv) {
    Pending p = pending(src, bytes, false, record, posted);
    MPI_Irecv(receive_buffer(req, bytes), count(bytes), MPI_BYTE, from, tag, comms_.data,
              &p.request);
    pending_[req] = p;
    return;
  }
  MPI_Recv(receive_buffer(-1, bytes), count(bytes), MPI_BYTE, from, tag, comms_.data,
           MPI_STATUS_IGNORE);
  if (record)
    record_message(src, false, bytes, posted, now(), static_cast<int>(pending_.size()) + 1);
}

void MeasurableProcess::sendrecv(const core::ProgramStep& call, bool record) {
  const int to = call.dst >= 0 ? process_of(call.dst) : MPI_PROC_NULL;
  const int from = call.src >= 0 ? process_of(call.src) : MPI_PROC_NULL;
  // Traces imported from SMPI carry no sendrecv tags (-1): any tag does, the same on both ends.
  const int tag = std::max(call.tag, 0);
  const int rtag = std::max(call.rtag, 0);
  const double posted = now();
  MPI_Sendrecv(send_buffer(call.bytes), count(call.bytes), MPI_BYTE, to, tag,
               receive_buffer(-1, call.rbytes), count(call.rbytes), MPI_BYTE, from, rtag,
               comms_.data, MPI_STATUS_IGNORE);
  if (!record) return;
  const double done = now();
  const int in_flight = static_cast<int>(pending_.size()) + 2;
  if (call.dst >= 0) record_message(call.dst, true, call.bytes, posted, done, in_flight);
  if (call.src >= 0) record_message(call.src, false, call.rbytes, posted, done, in_flight);
}

void MeasurableProcess::complete(const core::ProgramStep& call, std::size_t call_index,
                                 std::vector<double>& done) {
  const std::vector<std::int32_t>& peers = completion_peers_[call_index];
  done.assign(peers.size(), now());
  std::vector<MPI_Request>& requests = requests_;
  std::vector<std::int64_t>& ids = request_ids_;
  requests.clear();
  ids.clear();
  for (std::uint32_t i = 0; i < call.record_count; ++i) {
    const std::int64_t req = program_.records[call.first_record + i].req;
    const auto it = pending_.find(req);
    if (it == pending_.end()) continue;  // a non-blocking collective's: run when started
    requests.push_back(it->second.request);
    ids.push_back(req);
  }
  // Completions as they happen. SMPI's MPI_Waitsome tests the requests left, and every test
  // costs simulated time (smpi/test): there, one MPI_Waitany per request.
  completed_.resize(requests.size());
  for (std::size_t left = requests.size(); left > 0;) {
    int n = 0;
#ifdef P3S_REPLAY_SMPI
    MPI_Waitany(static_cast<int>(requests.size()), requests.data(), completed_.data(),
                MPI_STATUS_IGNORE);
    n = completed_[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
#else
    MPI_Waitsome(static_cast<int>(requests.size()), requests.data(), &n, completed_.data(),
                 MPI_STATUSES_IGNORE);
#endif
    if (n == MPI_UNDEFINED) break;
    const double t = now();
    for (int k = 0; k < n; ++k) {
      const auto it =
          pending_.find(ids[static_cast<std::size_t>(completed_[static_cast<std::size_t>(k)])]);
      const Pending& p = it->second;
      if (p.record) record_message(p.peer, p.send, p.bytes, p.posted, t, p.in_flight);
      const auto peer = std::find(peers.begin(), peers.end(), p.peer) - peers.begin();
      if (peer < static_cast<std::ptrdiff_t>(done.size())) done[static_cast<std::size_t>(peer)] = t;
      pending_.erase(it);
    }
    left -= static_cast<std::size_t>(n);
  }
}

void MeasurableProcess::collective(const core::ProgramStep& call) {
  if (call.comm != 0)
    throw std::invalid_argument("phase " + std::to_string(phase_) + ", rank " +
                                std::to_string(rank_) + ": " + std::string(core::op_name(call.op)) +
                                " on a sub-communicator: the replay runs collectives on the world "
                                "only");
  int root = 0;
  if (core::is_rooted(call.op) && call.root >= 0) {
    const auto it = slot_of_.find(call.root);
    if (it != slot_of_.end()) root = it->second;
  }
  collective_.run({call.op, call.bytes, call.rbytes, trace_.nprocs()}, comms_.measurable, root);
  // Run on M processes instead of N, its exit times (which member leaves first) are not the
  // application's and would show up as waiting in the next measured messages: the measurable
  // processes leave it together instead; its time at N is the fit's.
  if (!options_.collectives_live) leave_together(comms_.measurable);
}

void MeasurableProcess::finish_repetition() {
  // Requests the repetition left open, and buffered sends: complete them before the next.
  for (auto& [req, p] : pending_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
  pending_.clear();
  if (!detached_.empty()) {
    MPI_Waitall(static_cast<int>(detached_.size()), detached_.data(), MPI_STATUSES_IGNORE);
    detached_.clear();
  }
}

void MeasurableProcess::record_message(std::int32_t peer, bool send, std::int64_t bytes,
                                       double posted, double completed, int in_flight) {
  MessageResult m;
  m.phase = phase_;
  m.step = step_;
  m.rank = rank_;
  m.peer = peer;
  m.send = send;
  m.bytes = bytes;
  const std::int64_t n = trace_.nprocs();
  m.same_node = core::node_of_rank(rank_, n, options_.ranks_per_node, options_.mapping) ==
                core::node_of_rank(peer, n, options_.ranks_per_node, options_.mapping);
  m.seconds = completed - posted;
  m.in_flight = in_flight;
  messages_.push_back(m);
}

std::int64_t MeasurableProcess::network_messages() const {
  // Messages this process puts on the network per repetition: sends to a process on another
  // node, and what its black hole sends it from another node.
  const auto node = [&](int process) {
    return comms_.node_of_process[static_cast<std::size_t>(process)];
  };
  std::int64_t n = 0;
  for (const core::ProgramStep& call : program_.steps) {
    if (call.dst >= 0 && node(process_of(call.dst)) != node(self_)) ++n;
    if (call.src >= 0 && !loaded(call.src) && node(black_hole_) != node(self_)) ++n;
  }
  return n;
}

void MeasurableProcess::start_noise(std::int64_t count_per_pair, double bytes) {
  Control c;
  c.kind = Control::Noise;
  c.recv_bytes = count_per_pair;
  c.send_bytes = std::llround(bytes);
  for (const auto& pair : setup_.noise_pairs) send_control(c, pair.first, comms_.control);
}

}  // namespace p3s::replay
