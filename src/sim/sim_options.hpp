#pragma once
// How `simulate` runs an ST4NP: the platform, where ranks go, what is measured, and the
// SimGrid settings passed through.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rank_mapping.hpp"

namespace p3s::sim {

// Rank r goes to host r / k (block) or to host r % hosts_used (cyclic).
using core::Mapping;
using core::mapping_from_name;
using core::mapping_name;

// PerPhase: each phase on its own, a warm-up repetition then `measured_repetitions`;
// Full: every phase in order, each repeated its weight (rounded) times, as one run.
enum class SimMode : std::uint8_t { PerPhase, Full };

// SimGrid: one SMPI process per rank in SimGrid's engine. Fluid: one event loop over every
// rank's lowered program, SimGrid's SMPI network model timing the messages and a local
// settling of the links' max-min (fluid_sharing.hpp): no process per rank, a cost per event that
// does not grow with N, for the collectives p3s rebuilds.
enum class SimEngine : std::uint8_t { SimGrid, Fluid };

// SMPI's default smpi/send-is-detached-thresh: smaller point-to-point sends return at once.
inline constexpr std::int64_t kSmpiEagerThreshold = 65536;

struct SimOptions {
  std::filesystem::path platform;
  std::filesystem::path hostfile;  // optional: host names in placement order (smpirun's)
  int ranks_per_host = 1;
  Mapping mapping = Mapping::Block;
  SimMode mode = SimMode::PerPhase;
  SimEngine engine = SimEngine::SimGrid;
  int measured_repetitions = 3;
  // Compute bursts are times on the traced machine; they are simulated divided by this.
  double cpu_speedup = 1.0;
  // Messages below this many bytes are sent eagerly: the sender goes on without waiting for the
  // receiver, as SMPI does below smpi/send-is-detached-thresh. Applies to point-to-point
  // messages and to those of the collectives p3s runs itself (native_collectives). Unset: the
  // platform's smpi/send-is-detached-thresh (a calibrated platform has one), else SMPI's.
  std::optional<std::int64_t> eager_threshold;
  // Run SMPI's default collective algorithms on p3s's own messages (same simulated times, far
  // cheaper at large N); false leaves every collective to SMPI.
  bool native_collectives = true;
  // Passed to SimGrid as given, after p3s's own settings: "--cfg=KEY:VALUE", "--log=...".
  std::vector<std::string> simgrid_args;
  // PerPhase: this many phases simulated side by side, each in a process of its own (memory:
  // that many engines at N at once); 1: one after another.
  std::size_t phase_jobs = 1;
  // Called before each SimGrid run with what it simulates, for progress on long simulations.
  std::function<void(std::string_view)> progress;
};

SimMode mode_from_name(std::string_view name);  // "per-phase" | "full"
std::string_view mode_name(SimMode mode);
SimEngine engine_from_name(std::string_view name);  // "simgrid" | "fluid"
std::string_view engine_name(SimEngine engine);

// When `o` leaves some collectives to SMPI's own algorithms (another selector or algorithm than
// those p3s runs itself, or native_collectives off): a warning that SMPI simulates them without
// its eager sends. p3s keeps SMPI's detached sends off: they cost a linear search per message,
// and SimGrid 3.32 frees a sender's stack buffer when an algorithm that builds SMP communicators
// (the mpich, mvapich2 and impi selectors; ompi's from N = 256) switches replay off between a
// send and its receive. Their small messages then wait for their receivers: +17 % on the 3D
// stencil's PET at N = 128 under smpi/coll-selector:ompi, where SMPI's own replay of the same
// trace with eager sends gives the application's time.
std::optional<std::string> smpi_collectives_warning(const SimOptions& o);

}  // namespace p3s::sim
