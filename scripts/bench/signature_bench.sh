#!/usr/bin/env bash
# Benchmark of `p3s signature` (not a test): analysis time and peak memory on a synthetic run
# of RANKS ranks x EVENTS events each, written by signature_bench_gen with core's trace writers
# from a periodic 2D stencil pattern (per iteration: 4 irecv, 4 isend, waitall with its 8
# request records, compute, allreduce; jittered compute and call times).
#
# usage: scripts/bench/signature_bench.sh [RANKS (64)] [EVENTS_PER_RANK (100000)] [WORKERS (2)]
# Needs a configured build in ./build (scripts/build.sh; or set P3S_BUILD_DIR); leaves the
# generated run in <build>/bench/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/gnu_time.sh
ranks=${1:-64}
events=${2:-100000}
workers=${3:-2}
build=${P3S_BUILD_DIR:-build}
run="$build/bench/signature-${ranks}x${events}"

cmake --build "$build" --target p3s signature_bench_gen -j"$(nproc)" >/dev/null
if [[ ! -f "$run/run.json" ]]; then
  rm -rf "$run"
  "$build/src/signature/signature_bench_gen" "$run" "$ranks" "$events"
fi
total=$(( $(find "$run" -name 'rank-*.p3st' -exec tail -n1 {} \; | awk '{s += $3} END {print s}') ))
bytes=$(du -sb "$run" | cut -f1)
# Read the traces once so the timed run measures the analysis, not the disk.
cat "$run"/rank-*.p3st >/dev/null

log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/bin/time -v "$build/src/cli/p3s" signature "$run" -o "$run/signature.json" \
  --workers "$workers" >/dev/null 2>"$log"
seconds=$(wall_seconds "$log")
user=$(time_field 'User time' "$log")
system=$(time_field 'System time' "$log")
rss_kb=$(time_field 'Maximum resident set size' "$log")

echo "signature benchmark: $ranks ranks x $events events (synthetic stencil), $workers workers"
echo "  events analysed : $total ($(( bytes / 1048576 )) MiB of traces)"
echo "  wall time       : ${seconds} s (user ${user} s, system ${system} s)"
awk -v e="$total" -v s="$seconds" 'BEGIN { printf "  throughput      : %.2f million events/s\n", e / s / 1e6 }'
awk -v k="$rss_kb" 'BEGIN { printf "  peak RSS        : %.1f MiB\n", k / 1024 }'
