#pragma once
// A measurable process (001 sec. 4): in each step it plays one rank of the ST4NP, a warm-up
// repetition then the measured ones, emulating each event's compute before the call and timing
// the events the plan measures here. Messages to ranks the step did not load go to its black
// hole, announced by a control message first.
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/rank_program.hpp"
#include "core/scaled_trace.hpp"
#include "replay_mpi/collective_call.hpp"
#include "replay_mpi/compute_emulation.hpp"
#include "replay_mpi/control.hpp"
#include "replay_mpi/replay_comms.hpp"
#include "replay_mpi/replay_result.hpp"
#include "replay_mpi/replay_setup.hpp"

namespace p3s::replay {

struct MeasurableOptions {
  int repetitions = 3;            // measured repetitions per step, after one warm-up repetition
  bool collectives_live = false;  // every rank is loaded: collectives are timed as they run
  const std::map<CollectiveShape, double>* fitted = nullptr;  // else their time at N
  std::int64_t ranks_per_node = 1;                            // the application's placement at N
  core::Mapping mapping = core::Mapping::Block;
  bool record_messages = true;
  bool record_units = false;  // every unit it measures, as UnitResult
  int noise_cap = 256;        // noise messages per pair and repetition, at most
  // One-way latency (s) of a control message to each black hole process (control_latency.hpp).
  const std::map<int, double>* control_latency = nullptr;
};

struct StepCounts {
  std::int64_t executed = 0;          // calls made, over all repetitions
  std::int64_t measured = 0;          // measurement units
  std::int64_t noise_messages = 0;    // per repetition (slot 0 only)
  std::int64_t network_messages = 0;  // this process's, per repetition
};

class MeasurableProcess {
 public:
  MeasurableProcess(const core::ScaledTrace& trace, const Setup& setup, const ReplayComms& comms,
                    ComputeEmulation compute, const MeasurableOptions& options);

  // Plays slot `slot` of step `index` (measuring unless `warmup`).
  StepCounts run_step(int index, int slot, bool warmup);

  // Per (phase, rank): the sum of the mean times per repetition of the calls other than
  // completions that this process measured.
  const std::map<std::pair<int, std::int32_t>, double>& rank_seconds() const { return seconds_; }
  // Per (phase, rank): the time before its calls, the emulated compute, per repetition (mean).
  const std::map<std::pair<int, std::int32_t>, double>& rank_compute_seconds() const {
    return compute_seconds_;
  }
  // The same per measured repetition (not averaged), for the spread over repetitions.
  const std::map<std::pair<int, std::int32_t>, std::vector<double>>& rank_repetition_seconds()
      const {
    return repetition_seconds_;
  }
  // A completion call's time is its compute (measured with its first unit) plus the latest of
  // its peers' completion times (each measured with its unit), perhaps by different processes.
  struct CompletionPart {
    double compute = 0;
    double latest = 0;  // the latest of the units measured here
    // The same per measured repetition (compute and latest unit of that repetition alone).
    std::vector<double> compute_by_repetition;
    std::vector<double> latest_by_repetition;
  };
  using CompletionKey = std::tuple<int, std::int32_t, std::uint32_t>;  // phase, rank, call
  const std::map<CompletionKey, CompletionPart>& completions() const { return completions_; }
  const std::vector<MessageResult>& messages() const { return messages_; }
  const std::vector<UnitResult>& units() const { return units_; }

 private:
  struct Pending {
    MPI_Request request = MPI_REQUEST_NULL;
    double posted = 0;
    std::int32_t peer = 0;
    std::int64_t bytes = 0;
    bool send = false;
    bool record = false;
    int in_flight = 0;
  };

  // Per measured repetition: each unit's time, and each call's compute before it (kept apart
  // for a completion, whose first unit it goes with).
  struct MeasuredTimes {
    std::vector<std::vector<double>> units;     // [repetition][unit]
    std::vector<std::vector<double>> computes;  // [repetition][call], measured calls
    std::vector<int> timed;                     // [unit]: repetitions that timed it
    std::int64_t calls = 0;                     // calls made, every repetition
  };
  // What each noise pair sends per measured repetition of the step.
  struct NoiseLoad {
    std::int64_t per_pair = 0;  // messages
    double bytes = 0;           // each
  };

  // A request about to be posted, with what its message record needs.
  Pending pending(std::int32_t peer, std::int64_t bytes, bool send, bool record,
                  double posted) const;
  void load(int index, int slot);
  // The noise that makes up for the application's network messages the step does not send
  // (`own_messages`: this process's); collective over the measurable processes.
  NoiseLoad noise_load(std::int64_t own_messages) const;
  // Plays one repetition of the step's calls (measuring repetition `rep` when `measuring`).
  void play_repetition(bool measuring, std::size_t rep, MeasuredTimes& times);
  // Plays call i after its compute, `previous` the end of the call before; when measuring, adds
  // its measured units' times to repetition `rep`. Returns when the call ended.
  double play_call(std::size_t i, bool measuring, std::size_t rep, double previous,
                   MeasuredTimes& times);
  // Adds the step's measured times to the rank's: a completion's to its CompletionPart, the
  // other calls' to the rank's sums.
  void add_measured(const MeasuredTimes& times);
  void add_completion(std::size_t call, const MeasuredTimes& times);
  // Each unit the step timed, as the call timed it (record_units).
  void add_unit_records(const MeasuredTimes& times);
  // What one repetition's calls exchange with the ranks the step did not load, in call order:
  // what the black hole receives, and what it sends.
  std::vector<Control> black_hole_requests() const;
  // Appends to `out` what `call` asks of the black hole.
  void black_hole_requests(const core::ProgramStep& call, std::vector<Control>& out) const;
  void sendrecv_request(const core::ProgramStep& call, std::vector<Control>& out) const;
  void execute(const core::ProgramStep& call, bool record);
  void point_to_point(const core::ProgramStep& call, bool record);
  void start_persistent(const core::ProgramStep& call, bool record);
  void send(core::Op op, std::int32_t dst, std::int32_t tag, std::int64_t bytes, std::int64_t req,
            bool record);
  void receive(core::Op op, std::int32_t src, std::int32_t tag, std::int64_t bytes,
               std::int64_t req, bool record);
  void sendrecv(const core::ProgramStep& call, bool record);
  // Completes the call's requests; done[k]: when peer k's last request completed.
  void complete(const core::ProgramStep& call, std::size_t index, std::vector<double>& done);
  void collective(const core::ProgramStep& call);
  void finish_repetition();
  void record_message(std::int32_t peer, bool send, std::int64_t bytes, double posted,
                      double completed, int in_flight);
  int process_of(std::int32_t rank) const;
  bool loaded(std::int32_t rank) const { return slot_of_.count(rank) != 0; }
  // A peer the step did not load: its black hole stands in for it.
  bool external(std::int32_t rank) const { return rank >= 0 && !loaded(rank); }
  char* send_buffer(std::int64_t bytes);
  char* receive_buffer(std::int64_t req, std::int64_t bytes);
  std::int64_t network_messages() const;
  void start_noise(std::int64_t count, double bytes);

  const core::ScaledTrace& trace_;
  const Setup& setup_;
  const ReplayComms& comms_;
  ComputeEmulation compute_;
  MeasurableOptions options_;
  int self_ = 0;  // this process
  int tag_ub_ = 32767;

  // The step being played.
  int step_ = 0;
  int phase_ = 0;
  std::int32_t rank_ = -1;
  bool collectives_only_ = false;  // an empty slot joins the collectives only
  int black_hole_ = -1;            // process
  std::unordered_map<std::int32_t, int> slot_of_;
  core::RankProgram program_;
  std::vector<std::uint32_t> first_unit_;                    // per call, then the total
  std::vector<std::vector<std::int32_t>> completion_peers_;  // per call (completions only)
  std::vector<char> measured_;                               // per unit

  std::unordered_map<std::int64_t, Pending> pending_;
  std::vector<MPI_Request> detached_;
  // A completion call's requests, their ids, and which completed (kept between calls).
  std::vector<MPI_Request> requests_;
  std::vector<std::int64_t> request_ids_;
  std::vector<int> completed_;  // buffered sends, complete for the application already
  std::vector<double> done_;    // per peer of the completion call: when its last request did
  std::vector<char> send_buffer_, scratch_;
  std::unordered_map<std::int64_t, std::vector<char>> receive_buffers_;
  CollectiveCall collective_;

  std::map<std::pair<int, std::int32_t>, double> seconds_;
  std::map<std::pair<int, std::int32_t>, double> compute_seconds_;
  std::map<std::pair<int, std::int32_t>, std::vector<double>> repetition_seconds_;
  std::map<CompletionKey, CompletionPart> completions_;
  std::vector<MessageResult> messages_;
  std::vector<UnitResult> units_;
};

}  // namespace p3s::replay
