#!/usr/bin/env bash
# Benchmark of `p3s model` on runs whose structure grows with n (not a test): the bundled
# multigrid (tests/apps/mgrid.c, its SMPI build) run communication-only under smpirun at 16,
# 32, 64 and 128 ranks and imported, as README's "training where the cluster budget is small"
# does, then `p3s model` on the four runs timed (farm-bench: medians of wall, CPU, peak memory)
# against another p3s binary when OLD names one, and the two SLTs compared. Most of this
# model's time once went into asking, for every slot and every rule that reproduces the runs,
# at which n up to 16 x 128 it first gives some rank another peer.
#
# usage: scripts/bench/model_growing_bench.sh BUILD_DIR
#   OLD=/path/to/p3s   a p3s to compare with (B)   RUNS=3
#   KEEP=1             keep the work directory (printed) instead of removing it
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
root=$PWD
source scripts/mpi-env.sh
cmake --build "$build" --target p3s smpi_apps -j2 >/dev/null
p3s=$build/src/cli/p3s
work=$(mktemp -d "${TMPDIR:-/tmp}/p3s-model-growing-bench.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

runs=()
for n in 16 32 64 128; do
  mkdir -p "$work/smpi-$n/ti"
  (cd "$work/smpi-$n" && smpirun -platform "$root/tests/smpi/platform_cluster.xml" \
     --cfg=smpi/simulate-computation:no -trace-ti --cfg=tracing/filename:ti/trace.txt \
     -np "$n" "$build/tests/smpi/smpi_mgrid" 32 4 >"$work/smpi-$n.log" 2>&1) ||
    { tail -20 "$work/smpi-$n.log"; exit 1; }
  "$p3s" trace import-ti "$work/smpi-$n/ti/trace.txt" -o "$work/run-$n" \
    --flops-per-second 20000 >/dev/null 2>&1
  runs+=("$work/run-$n")
done
model() {  # P3S OUT
  echo "$1 model ${runs[*]} -o $2"
}
echo "p3s model, mgrid from communication-only SMPI runs at 16, 32, 64, 128 ranks" \
  "($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
if [ -n "${OLD:-}" ]; then
  farm-bench -n "${RUNS:-3}" --warmup 0 --timeout 3000 --vs "$(model "$OLD" "$work/old.slt")" -- \
    $(model "$p3s" "$work/new.slt")
  if cmp -s "$work/old.slt" "$work/new.slt"; then
    echo "the two SLTs are identical"
  else
    echo "the two SLTs differ" >&2
    exit 1
  fi
else
  farm-bench -n "${RUNS:-3}" --warmup 0 --timeout 3000 -- $(model "$p3s" "$work/new.slt")
fi
