// How closely the Synthetic Signature's compute emulation (replay_mpi/compute_emulation.hpp)
// keeps to the bursts it is asked for, spin against sleep, on this machine: for bursts of 1 us
// to 1 ms, the median and 90th percentile of (elapsed - asked) / asked over many bursts.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "replay_mpi/compute_emulation.hpp"

int main() {
  using p3s::replay::ComputeEmulation;
  using p3s::replay::ComputeMode;
  std::printf("%-6s %10s %12s %12s %14s\n", "mode", "burst_us", "median_us", "p90_us",
              "median_error");
  for (const ComputeMode mode : {ComputeMode::Spin, ComputeMode::Sleep}) {
    const ComputeEmulation emulate(mode);
    for (const long ns : {1'000L, 5'000L, 20'000L, 50'000L, 100'000L, 1'000'000L}) {
      const int count = static_cast<int>(std::min(2000L, 200'000'000L / ns));
      std::vector<double> over;
      for (int i = 0; i < count; ++i) {
        const auto start = std::chrono::steady_clock::now();
        emulate.run(ns);
        const double took =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                .count();
        over.push_back(took);
      }
      std::sort(over.begin(), over.end());
      const double median = over[over.size() / 2], p90 = over[over.size() * 9 / 10];
      std::printf("%-6s %10.1f %12.2f %12.2f %+13.1f%%\n",
                  mode == ComputeMode::Spin ? "spin" : "sleep", static_cast<double>(ns) / 1e3,
                  median / 1e3, p90 / 1e3,
                  100 * (median - static_cast<double>(ns)) / static_cast<double>(ns));
    }
  }
}
