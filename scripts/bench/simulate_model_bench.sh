#!/usr/bin/env bash
# Benchmark of `p3s simulate` on the stencil *model* (not a test): traces the bundled 2D stencil
# for real at n = 4, 9, 16, 25 (oversubscribed), models the runs into stencil.slt, then for each
# N instantiates that model and simulates it with each engine (SimGrid's and the fluid one), per
# phase and in full (every phase in order, each repeated its weight), against SimGrid's own
# `smpirun -replay` of the same ST4NP exported as TI traces by `p3s generate --export-ti`, in
# the same run. Both use the same
# allreduce algorithm: SMPI's recursive doubling by default (SMPI's default allreduce is a
# linear reduce, quadratic in N). The replay gets SMPI's fastest settings: no detached sends,
# no privatization, no stack guard pages, small stacks. Targets: at least 5x the replay's
# events/s at N = 4,096; N = 65,536 (p3s only) in at most 10 minutes and 16 GiB.
#
# usage: scripts/bench/simulate_model_bench.sh BUILD_DIR
#   ENGINES="simgrid fluid"   p3s's engines; MODES="full per-phase" its modes
#   SIMGRID_UP_TO=65536       the largest N SimGrid's engine runs (the fluid one runs every N)
#   SIMGRID_FULL_UP_TO=...    the largest N it runs in full (default: SIMGRID_UP_TO)
#   RANKS_PER_HOST=1          ranks per host (hosts of as many cores), for N beyond a platform
#   SIZES="1024 4096 16384"   the N simulated by both (perfect squares, one rank per host; "": none)
#   P3S_ONLY_SIZES=""         further N run by p3s only, e.g. "65536"
#   COUNTS="4 9 16 25"        the traced process counts (perfect squares)
#   EDGE=64 ITERATIONS=10     the stencil's arguments when traced (ITERATIONS is the weight
#                             of its main phase, so the length of a --full simulation)
#   ALLREDUCE=rdb             SMPI's allreduce algorithm for both ("default": SMPI's default)
#   LINK_SHARING=max-min      the platform's links (p3s platform --link-sharing; "none": no
#                             contention, which smpirun does not model, so no replay then)
#   MARGINAL_REPETITIONS=""   e.g. 9: each per-phase simulation is run again with that many
#                             measured repetitions (3 by default), and a line gives the events
#                             per second of the difference: the cost of an event without the
#                             start (reading the model, loading the platform, building routes),
#                             which weighs most at small N
#   KEEP=1                    keep the work directory (printed) instead of removing it
# Prints one line per N, engine and mode: events, wall and CPU seconds, events per second (wall),
# peak resident memory and the simulated time; the fluid engine's lines add their simulated
# time's relative difference from SimGrid's engine in the same mode; the replay's line its
# difference from p3s's SimGrid engine in full (both simulate the same trace, so it must be ~0),
# then that engine's events/s over the replay's.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/gnu_time.sh
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
sizes=${SIZES-"1024 4096 16384"}
p3s_only=${P3S_ONLY_SIZES:-}
engines=${ENGINES:-"simgrid fluid"}
modes=${MODES:-"full per-phase"}
simgrid_up_to=${SIMGRID_UP_TO:-65536}
simgrid_full_up_to=${SIMGRID_FULL_UP_TO:-$simgrid_up_to}
per_host=${RANKS_PER_HOST:-1}
counts=${COUNTS:-"4 9 16 25"}
edge=${EDGE:-64}
iterations=${ITERATIONS:-10}
allreduce=()
if [ "${ALLREDUCE:-rdb}" != default ]; then allreduce=(--cfg=smpi/allreduce:${ALLREDUCE:-rdb}); fi
link_sharing=${LINK_SHARING:-max-min}
source scripts/mpi-env.sh

cmake --build "$build" --target p3s p3s_trace app_stencil2d -j2 >/dev/null
p3s=$build/src/cli/p3s
app=$build/tests/apps/app_stencil2d
work=$(mktemp -d "${TMPDIR:-/tmp}/p3s-simulate-model-bench.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
replaymain="$(pkg-config --variable=libdir simgrid)/simgrid/smpireplaymain"

rate() { echo "$1 / $(wall_seconds "$2")" | bc -l; }  # EVENTS TIMEFILE: events/s (wall)
report() {  # SIMULATOR N EVENTS TIMEFILE SIMULATED [EXTRA]
  local cpu rss
  cpu=$(echo "$(time_field "User time" "$4") + $(time_field "System time" "$4")" | bc -l)
  rss=$(time_field "Maximum resident set size" "$4")
  printf "%-18s %8d %11d %9.1f %9.1f %11.0f %9.0f %15.9f %s\n" "$1" "$2" "$3" \
    "$(wall_seconds "$4")" "$cpu" "$(rate "$3" "$4")" "$((rss / 1024))" "$5" "${6:-}"
}
# run LOG CMD...: runs CMD with its output in LOG; shows the log and stops if it fails.
run() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { tail -30 "$log"; echo "failed: $*" >&2; exit 1; }
}

runs=()
for n in $counts; do
  run "$work/trace-$n.log" "$p3s" trace --force --out "$work/stencil-$n" -- \
    mpirun --oversubscribe -np "$n" "$app" "$edge" "$iterations"
  runs+=("$work/stencil-$n")
done
run "$work/model.log" "$p3s" model "${runs[@]}" -o "$work/stencil.slt"
echo "model: app_stencil2d $edge $iterations traced at n = ${counts// /, }" \
  "(allreduce: ${ALLREDUCE:-rdb}; links: $link_sharing; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"

printf "%-18s %8s %11s %9s %9s %11s %9s %15s %s\n" simulator N events wall_s cpu_s events/s \
  rss_MiB simulated_s "vs p3s"
for n in $sizes $p3s_only; do
  replay=0
  for s in $sizes; do if [ "$s" = "$n" ] && [ "$link_sharing" = max-min ]; then replay=1; fi; done
  run "$work/platform.log" "$p3s" platform -o "$work/platform.xml" \
    --hosts "$(((n + per_host - 1) / per_host))" --cores-per-host "$per_host" \
    --link-sharing "$link_sharing"
  if [ "$replay" = 1 ]; then
    run "$work/generate.log" "$p3s" generate "$work/stencil.slt" -n "$n" -o "$work/st4np" \
      --export-ti "$work/ti"
    rm -rf "$work/st4np"
  fi

  declare -A simulated_by=()
  full_events=0
  for mode in $modes; do
    mode_flag=()
    if [ "$mode" = full ]; then mode_flag=(--full); fi
    for engine in $engines; do
      if [ "$engine" = simgrid ] && [ "$n" -gt "$simgrid_up_to" ]; then continue; fi
      if [ "$engine/$mode" = simgrid/full ] && [ "$n" -gt "$simgrid_full_up_to" ]; then continue; fi
      run "$work/p3s.log" /usr/bin/time -v -o "$work/p3s.time" "$p3s" simulate \
        "$work/stencil.slt" -n "$n" --platform "$work/platform.xml" --ranks-per-host "$per_host" \
        --engine "$engine" "${mode_flag[@]}" --json "$work/p3s.json" "${allreduce[@]}"
      events=$(grep -o '"events": [0-9]*' "$work/p3s.json" | grep -o '[0-9]*$')
      simulated=$(grep -o '"pet_seconds": [0-9.e+-]*' "$work/p3s.json" | sed 's/.*: //')
      simulated_by[$engine/$mode]=$simulated
      if [ "$engine/$mode" = simgrid/full ]; then
        full_events=$events
        cp "$work/p3s.time" "$work/simgrid-full.time"
      fi
      extra=""
      if [ "$engine" = fluid ] && [ -n "${simulated_by[simgrid/$mode]:-}" ]; then
        extra=$(printf "%+.1e against simgrid" \
          "$(echo "($simulated - ${simulated_by[simgrid/$mode]}) / ${simulated_by[simgrid/$mode]}" | bc -l)")
      fi
      report "p3s $engine/$mode" "$n" "$events" "$work/p3s.time" "$simulated" "$extra"
      if [ -n "${MARGINAL_REPETITIONS:-}" ] && [ "$mode" = per-phase ]; then
        run "$work/p3s.log" /usr/bin/time -v -o "$work/more.time" "$p3s" simulate \
          "$work/stencil.slt" -n "$n" --platform "$work/platform.xml" \
          --ranks-per-host "$per_host" --engine "$engine" --repetitions "$MARGINAL_REPETITIONS" \
          --json "$work/more.json" "${allreduce[@]}"
        more=$(grep -o '"events": [0-9]*' "$work/more.json" | grep -o '[0-9]*$')
        seconds=$(echo "$(wall_seconds "$work/more.time") - $(wall_seconds "$work/p3s.time")" | bc -l)
        printf "%-18s %8d %11d %9.2f %9s %11.0f   (marginal: the events and wall time %s measured repetitions add to 3)\n" \
          "  marginal" "$n" "$((more - events))" "$seconds" "" \
          "$(echo "($more - $events) / $seconds" | bc -l)" "$MARGINAL_REPETITIONS"
      fi
    done
  done

  if [ "$replay" = 1 ] && [ "$per_host" = 1 ] && [ -n "${simulated_by[simgrid/full]:-}" ]; then
    for ((r = 0; r < n; r++)); do echo "node-$r"; done >"$work/hosts"
    run "$work/replay.out" /usr/bin/time -v -o "$work/replay.time" smpirun -np "$n" \
      -platform "$work/platform.xml" -hostfile "$work/hosts" -replay "$work/ti/ti.list" \
      -no-privatize --cfg=smpi/send-is-detached-thresh:0 --cfg=contexts/guard-size:0 \
      --cfg=contexts/stack-size:256 "${allreduce[@]}" \
      --log=root.thres:warning --log=smpi_replay.thres:info "$replaymain"
    simulated=$(grep -o 'Simulation time [0-9.e+-]*' "$work/replay.out" | sed 's/.* //')
    difference=$(echo "($simulated - ${simulated_by[simgrid/full]}) / ${simulated_by[simgrid/full]}" | bc -l)
    ratio=$(echo "$(rate "$full_events" "$work/simgrid-full.time") / $(rate "$full_events" "$work/replay.time")" |
      bc -l)
    report replay "$n" "$full_events" "$work/replay.time" "$simulated" \
      "$(printf "%+.1e (p3s simgrid/full %.1fx the replay's events/s)" "$difference" "$ratio")"
    rm -rf "$work/ti"
  fi
done
