#!/usr/bin/env bash
# Tracer overhead: time per MPI call with and without libp3s_trace.so on a message-rate loop
# (small Isend/Irecv/Waitall between rank pairs), and the wall-time overhead on test apps.
# Two ranks, one per core, so that oversubscription does not blur the figures.
# usage: scripts/bench/tracer_overhead.sh [BUILD_DIR] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/mpi-env.sh
build=${1:-build}
repeats=${2:-5}
lib=$build/src/trace/libp3s_trace.so
apps=$build/tests/apps
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Median of the numbers on stdin.
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Runs "$@" under mpirun -np 2, plain or traced, and prints the wall seconds.
timed() {
  local mode=$1; shift
  local start end
  rm -rf "$out/trace"; mkdir -p "$out/trace"
  start=$(date +%s.%N)
  if [ "$mode" = traced ]; then
    LD_PRELOAD=$lib P3S_TRACE_DIR=$out/trace mpirun -np 2 "$@" > "$out/last.txt"
  else
    mpirun -np 2 "$@" > "$out/last.txt"
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

echo "== message rate: 2 ranks, 8-byte Isend/Irecv, windows of 64, then Waitall"
for mode in plain traced; do
  for _ in $(seq "$repeats"); do
    rm -rf "$out/trace"; mkdir -p "$out/trace"
    if [ "$mode" = traced ]; then
      LD_PRELOAD=$lib P3S_TRACE_DIR=$out/trace mpirun -np 2 "$apps/bench_msgrate" 1000000 64
    else
      mpirun -np 2 "$apps/bench_msgrate" 1000000 64
    fi | sed -n 's/.*usec_per_call=\([0-9.eE+-]*\).*/\1/p'
  done | median > "$out/$mode.usec"
  calls=$(grep -o 'calls=[0-9]*' "$out/last.txt" 2>/dev/null || true)
  printf "  %-7s %8.4f us per call (median of %d runs)\n" "$mode" "$(cat "$out/$mode.usec")" "$repeats"
done
plain=$(cat "$out/plain.usec"); traced=$(cat "$out/traced.usec")
printf "  added by the tracer: %.4f us per call (target <= 0.5)\n" "$(echo "$traced - $plain" | bc -l)"

echo "== applications: 2 ranks, wall time of mpirun, median of $repeats runs"
run_app() {
  local name=$1; shift
  local p t
  p=$(for _ in $(seq "$repeats"); do timed plain "$@"; done | median)
  t=$(for _ in $(seq "$repeats"); do timed traced "$@"; done | median)
  printf "  %-14s plain %7.3f s  traced %7.3f s  overhead %+6.2f %% (target <= 3 %%)\n" \
    "$name" "$p" "$t" "$(echo "($t - $p) / $p * 100" | bc -l)"
}
# Sizes chosen for runs of a few seconds, so mpirun's start-up does not hide the overhead.
run_app butterfly "$apps/app_butterfly" 4096 150000
run_app ring "$apps/app_ring" 4096 200000
run_app halo_f "$apps/app_halo_f" 256 40000
# The same app with coarse iterations (ms of compute between calls), as real codes have.
run_app halo_f_coarse "$apps/app_halo_f" 2048 400
