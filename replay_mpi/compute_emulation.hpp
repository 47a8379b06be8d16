#pragma once
// Stands in for an event's modelled compute before the call. `sleep` is the paper's nanosleep
// (a core left idle); `spin` keeps the core busy until the time is up, as the traced code did;
// `none` skips compute (logical checks). In an SMPI build (P3S_REPLAY_SMPI) time is SimGrid's:
// `spin` executes the flops the time is worth at the host's speed, as `p3s simulate` does, and
// `sleep` sleeps in simulated time.
#include <cstdint>
#include <string_view>

namespace p3s::replay {

enum class ComputeMode : std::uint8_t { Sleep, Spin, None };

ComputeMode compute_mode_from_name(std::string_view name);  // sleep | spin | none
std::string_view compute_mode_name(ComputeMode mode);

class ComputeEmulation {
 public:
  explicit ComputeEmulation(ComputeMode mode);
  void run(std::int64_t ns) const;

 private:
  ComputeMode mode_;
};

}  // namespace p3s::replay
