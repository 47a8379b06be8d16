#!/usr/bin/env bash
# Benchmark of `p3s predict --jobs` (not a test): traces the bundled 2D stencil for real at
# n = 4, 9, 16, 25 (oversubscribed), then times `p3s predict` with 8 targets and their intervals
# (three simulations per N, 12 N with the traced ones) with --jobs 2 against --jobs 1, pair by
# pair (farm-bench: medians of wall, CPU and peak memory, and the ratio), and checks that both
# wrote the same prediction (the table and the JSON without its wall-clock fields).
# Target (issue 23): --jobs 2 at least 1.8x faster than --jobs 1 on 2 idle cores.
#
# usage: scripts/bench/predict_jobs_bench.sh BUILD_DIR
#   TARGETS=64,128,256,512,1024,2048,4096,8192   RUNS=3   JOBS=2
#   ENGINE=simgrid   the simulations' engine (--engine: simgrid or fluid)
#   KEEP=1   keep the work directory (printed) instead of removing it
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
targets=${TARGETS:-64,128,256,512,1024,2048,4096,8192}
jobs=${JOBS:-2}
engine=${ENGINE:-simgrid}
source scripts/mpi-env.sh
cmake --build "$build" --target p3s p3s_trace app_stencil2d -j2 >/dev/null
p3s=$build/src/cli/p3s
work=$(mktemp -d "${TMPDIR:-/tmp}/p3s-predict-jobs-bench.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

runs=()
for n in 4 9 16 25; do
  "$p3s" trace --force --out "$work/stencil-$n" -- \
    mpirun --oversubscribe -np "$n" "$build/tests/apps/app_stencil2d" 64 40 >"$work/trace-$n.log" 2>&1 ||
    { tail -20 "$work/trace-$n.log"; exit 1; }
  runs+=("$work/stencil-$n")
done
predict() {  # OUT JOBS
  echo "$p3s predict --runs ${runs[*]} --targets $targets --platform simgrid_platforms/default.xml" \
    "-o $1 --force --jobs $2 --engine $engine"
}
echo "p3s predict, targets $targets with intervals, $engine engine, --jobs $jobs (A) against --jobs 1 (B)" \
  "($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
farm-bench -n "${RUNS:-3}" --warmup 0 --timeout 3000 --vs "$(predict "$work/one" 1)" -- \
  $(predict "$work/many" "$jobs")
strip() {  # the prediction's JSON without what depends on the machine's clock
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for p in d.get("points", []): p.pop("simulation_wall_seconds", None)
print(json.dumps(d, indent=1, sort_keys=True))' "$1"
}
if diff "$work/one/prediction.txt" "$work/many/prediction.txt" >/dev/null &&
  diff <(strip "$work/one/prediction.json") <(strip "$work/many/prediction.json") >/dev/null; then
  echo "same prediction with --jobs $jobs and --jobs 1"
else
  echo "DIFFERENT predictions with --jobs $jobs and --jobs 1" >&2
  exit 1
fi
