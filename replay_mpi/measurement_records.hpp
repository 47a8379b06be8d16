#pragma once
// What every process measured, as the flat records of doubles process 0 gathers (one MPI type
// moves them all), and the ReplayResult process 0 makes of every process's records: the step
// log, each phase's PhaseET and spreads, the measured messages. The record layouts are here
// only, on both sides.
#include <vector>

#include "core/scaled_trace.hpp"
#include "replay_mpi/measurable_process.hpp"
#include "replay_mpi/replay_result.hpp"
#include "replay_mpi/replay_setup.hpp"

namespace p3s::replay {

struct MeasurementRecords {
  // Per step a measurable process played: step, slot, executed, measured, noise messages and
  // network messages per repetition.
  std::vector<double> steps;
  // Per (phase, rank): [phase, rank, seconds] and [phase, rank, compute seconds]; per
  // completion call: [phase, rank, call, compute, latest].
  std::vector<double> seconds, compute, completions;
  // The same per measured repetition: [phase, rank, seconds x R] and [phase, rank, call,
  // compute x R, latest x R], R the measured repetitions.
  std::vector<double> repetition_seconds, repetition_completions;
  std::vector<double> messages;  // per measured message, its MessageResult's fields
  std::vector<double> units;     // per unit measured, its UnitResult's fields (record_units)
};

// Appends what a measurable process counted in step `step`, playing slot `slot`.
void record_step(int step, int slot, const StepCounts& counts, MeasurementRecords& records);

// Appends the times and messages a measurable process measured over all steps.
void record_measurements(const MeasurableProcess& process, MeasurementRecords& records);

// Fills the result's step log, phases (those of `phases`), PET and messages from every
// process's records, concatenated; the result's nprocs and repetitions are already set.
void add_measurements(const MeasurementRecords& all, const core::ScaledTrace& trace,
                      const Setup& setup, const std::vector<int>& phases, bool collectives_live,
                      ReplayResult& result);

}  // namespace p3s::replay
