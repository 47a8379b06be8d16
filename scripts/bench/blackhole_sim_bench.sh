#!/usr/bin/env bash
# Benchmark (not a test): the Synthetic Signature inside SimGrid against p3s's full per-phase
# simulation of the same model. Trains the 2D stencil's model from communication-and-flops SMPI
# runs at n = 4, 9, 16, 25 (as the timing tests do), then for each N: `p3s simulate` (every rank
# simulated, per phase) and `p3s-replay-smpi` under smpirun with R processes (R / 2 loaded ranks
# per step, black holes for the others, collectives fitted in P), both with the allreduce
# algorithm ALLREDUCE on a flat cluster of N hosts. Prints per N and way: wall and CPU seconds,
# peak memory, PhaseET and PET, and the black-hole PET's error against the full simulation.
#
# usage: scripts/bench/blackhole_sim_bench.sh BUILD_DIR
#   SIZES="4096:64 16384:128"   N:R pairs
#   FULL_MAX_N=16384             larger N run the black-hole replay only
#   ALLREDUCE=rdb                SMPI's allreduce algorithm for both ("default": SMPI's own)
#   KEEP=1                       keep the work directory (printed)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/gnu_time.sh
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
sizes=${SIZES:-"4096:64 16384:128"}
full_max=${FULL_MAX_N:-16384}
cfg=()
if [ "${ALLREDUCE:-rdb}" != default ]; then cfg=(--cfg=smpi/allreduce:${ALLREDUCE:-rdb}); fi
p3s=$build/src/cli/p3s
replay=$build/replay_mpi/p3s-replay-smpi
app=$build/tests/smpi/smpi_stencil2d_flops
cmake --build "$build" --target p3s p3s_replay_smpi smpi_apps >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/p3s-blackhole-bench.XXXXXX")
if [ -n "${KEEP:-}" ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
platform=$PWD/simgrid_platforms/default.xml

runs=()
for n in 4 9 16 25; do
  mkdir -p "$work/n$n/ti"
  (cd "$work/n$n" && smpirun -platform "$platform" --cfg=smpi/simulate-computation:no \
    -trace-ti --cfg=tracing/filename:ti/trace.txt -np "$n" "$app" 64 40 >smpi.out 2>&1)
  "$p3s" trace import-ti "$work/n$n/ti/trace.txt" -o "$work/n$n/run" --flops-per-second 1e9 \
    >/dev/null 2>&1
  runs+=("$work/n$n/run")
done
"$p3s" model "${runs[@]}" -o "$work/app.slt" >/dev/null 2>&1

field() {  # JSON-FILE EXPRESSION
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}
report() {  # WAY N R TIMEFILE JSON
  local cpu
  cpu=$(echo "$(time_field "User time" "$4") + $(time_field "System time" "$4")" | bc -l)
  printf "%-11s %8d %5s %9.1f %9.1f %9.0f %14.6g %12.6g\n" "$1" "$2" "$3" "$(wall_seconds "$4")" \
    "$cpu" "$(($(time_field "Maximum resident set size" "$4") / 1024))" \
    "$(field "$5" "j['phases'][0]['phase_et_seconds']")" "$(field "$5" "j['pet_seconds']")"
}

printf "%-11s %8s %5s %9s %9s %9s %14s %12s\n" way N R wall_s cpu_s rss_MiB phase_et_s pet_s
for size in $sizes; do
  n=${size%:*}
  r=${size#*:}
  "$p3s" platform -o "$work/platform-$n.xml" --hosts "$n" >/dev/null
  if [ "$n" -le "$full_max" ]; then
    /usr/bin/time -v -o "$work/full.time" "$p3s" simulate "$work/app.slt" -n "$n" \
      --platform "$work/platform-$n.xml" "${cfg[@]}" --json "$work/full-$n.json" \
      >/dev/null 2>&1
    report per-phase "$n" "$n" "$work/full.time" "$work/full-$n.json"
  fi
  /usr/bin/time -v -o "$work/bh.time" smpirun -platform "$work/platform-$n.xml" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 "${cfg[@]}" -np "$r" "$replay" \
    "$work/app.slt" -n "$n" -o "$work/bh-$n.json" --force >"$work/bh.out" 2>&1
  report black-hole "$n" "$r" "$work/bh.time" "$work/bh-$n.json"
  if [ "$n" -le "$full_max" ]; then
    python3 -c "import json,sys
f=json.load(open(sys.argv[1]))['pet_seconds']; b=json.load(open(sys.argv[2]))['pet_seconds']
print('  black-hole PET against per-phase: %+.2f %%' % (100 * (b - f) / f))" \
      "$work/full-$n.json" "$work/bh-$n.json"
  fi
done
