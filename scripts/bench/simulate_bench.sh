#!/usr/bin/env bash
# Benchmarks p3s's simulator (p3s_sim) against SimGrid's own `smpirun -replay` of the same
# ST4NP: the synthetic 2D stencil (per iteration per rank: compute, 4 Irecv, 4 Isend, Waitall,
# compute, Allreduce of 8 bytes), simulated in full, exported as TI traces for the replay. Both
# run the same allreduce algorithm: SMPI's recursive doubling by default (SMPI's default
# allreduce is a linear reduce, quadratic in N). The replay gets SMPI's fastest settings: no
# detached sends, no privatization, no stack guard pages, small stacks.
#
# usage: scripts/bench/simulate_bench.sh [BUILD_DIR]
#   SIZES="32:30 64:10 128:2"   SIDE:ITERATIONS pairs, N = SIDE^2 ranks on N hosts
#   REPLAY_MAX_N=16384           larger N run p3s only
#   ALLREDUCE=rdb                SMPI's allreduce algorithm for both ("default": SMPI's default)
# Prints one line per N and simulator: events, wall and CPU seconds, events per second (wall),
# peak resident memory, and the simulated time (both must agree).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/gnu_time.sh
build=${1:-build}
sizes=${SIZES:-"32:30 64:10 128:2"}
replay_max=${REPLAY_MAX_N:-16384}
allreduce=--cfg=smpi/allreduce:${ALLREDUCE:-rdb}

cmake --build "$build" --target p3s simulate_bench >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/p3s-simulate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
replaymain="$(pkg-config --variable=libdir simgrid)/simgrid/smpireplaymain"

report() {  # SIMULATOR N EVENTS TIMEFILE SIMULATED
  local wall cpu rss
  wall=$(wall_seconds "$4")
  cpu=$(echo "$(time_field "User time" "$4") + $(time_field "System time" "$4")" | bc -l)
  rss=$(time_field "Maximum resident set size" "$4")
  printf "%-8s %6d %10d %9.1f %9.1f %12.0f %9.0f %14.9f\n" "$1" "$2" "$3" "$wall" "$cpu" \
    "$(echo "$3 / $wall" | bc -l)" "$((rss / 1024))" "$5"
}

printf "%-8s %6s %10s %9s %9s %12s %9s %14s\n" simulator N events wall_s cpu_s events/s rss_MiB simulated_s
for size in $sizes; do
  side=${size%:*}
  iterations=${size#*:}
  n=$((side * side))
  "$build/src/cli/p3s" platform -o "$work/platform.xml" --hosts "$n" >/dev/null
  if [ "$n" -le "$replay_max" ]; then  # the replay's input, written outside the timed run
    "$build/src/sim/simulate_bench" "$side" "$iterations" "$work/platform.xml" --export-ti "$work/ti"
  fi
  /usr/bin/time -v -o "$work/p3s.time" "$build/src/sim/simulate_bench" "$side" "$iterations" \
    "$work/platform.xml" "$allreduce" >"$work/p3s.json"
  events=$(grep -o '"events": [0-9]*' "$work/p3s.json" | grep -o '[0-9]*$')
  simulated=$(grep -o '"pet_seconds": [0-9.e+-]*' "$work/p3s.json" | sed 's/.*: //')
  report p3s "$n" "$events" "$work/p3s.time" "$simulated"

  if [ "$n" -le "$replay_max" ]; then
    for ((r = 0; r < n; r++)); do echo "node-$r"; done >"$work/hosts"
    /usr/bin/time -v -o "$work/replay.time" smpirun -np "$n" -platform "$work/platform.xml" \
      -hostfile "$work/hosts" -replay "$work/ti/ti.list" -no-privatize \
      --cfg=smpi/send-is-detached-thresh:0 --cfg=contexts/guard-size:0 \
      --cfg=contexts/stack-size:256 "$allreduce" \
      --log=root.thres:warning --log=smpi_replay.thres:info "$replaymain" >"$work/replay.out" 2>&1
    simulated=$(grep -o 'Simulation time [0-9.]*' "$work/replay.out" | sed 's/.* //')
    report replay "$n" "$events" "$work/replay.time" "$simulated"
    rm -rf "$work/ti"
  fi
done
