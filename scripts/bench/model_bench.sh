#!/usr/bin/env bash
# Benchmark of the model stage (not a test). Traces the bundled 2D stencil for real at 5
# process counts up to 64 (oversubscribed, small iterations: only the logical content and the
# run count matter), times `p3s model` on those 5 runs, then times `p3s generate` (wall, CPU,
# peak RSS from /usr/bin/time -v) at N = 4,096 and 65,536 for a model of PHASES phases: the
# stencil's modelled phases repeated, each copy a phase of its own, since generate's cost is
# per phase and rank, whatever the phase is. Generate writes the whole ST4NP and checks its
# consistency, as a user's run does. Target: 65,536 ranks of a 6-phase model in <= 10 s, with a
# peak RSS that does not grow with N.
#
# usage: scripts/bench/model_bench.sh BUILD_DIR
#   COUNTS="16 25 36 49 64"   the traced process counts (perfect squares)
#   SIZES="4096 65536"        the N generated (perfect squares)
#   PHASES=6                  phases of the generated model
#   KEEP=1                    keep the work directory (printed) instead of removing it
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/gnu_time.sh
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
counts=${COUNTS:-"16 25 36 49 64"}
sizes=${SIZES:-"4096 65536"}
phases=${PHASES:-6}
source scripts/mpi-env.sh

cmake --build "$build" --target p3s p3s_trace app_stencil2d -j2 >/dev/null
p3s=$build/src/cli/p3s
app=$build/tests/apps/app_stencil2d
work=$(mktemp -d "${TMPDIR:-/tmp}/p3s-model-bench.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

report() {  # WHAT TIMEFILE
  local wall cpu rss
  wall=$(wall_seconds "$2")
  cpu=$(echo "$(time_field "User time" "$2") + $(time_field "System time" "$2")" | bc -l)
  rss=$(time_field "Maximum resident set size" "$2")
  printf "%-34s %9.2f %9.2f %9.1f\n" "$1" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)"
}

runs=()
for n in $counts; do
  "$p3s" trace --force --out "$work/stencil-$n" -- \
    mpirun --oversubscribe -np "$n" "$app" 16 20 >"$work/trace-$n.log" 2>&1 ||
    { cat "$work/trace-$n.log"; exit 1; }
  runs+=("$work/stencil-$n")
done
events=$(cat "$work"/stencil-*/rank-*.p3st | wc -l)

printf "%-34s %9s %9s %9s\n" step wall_s cpu_s rss_MiB
/usr/bin/time -v -o "$work/model.time" "$p3s" model "${runs[@]}" -o "$work/stencil.slt" \
  >"$work/model.log" 2>&1 || { cat "$work/model.log"; exit 1; }
report "model (5 runs, n = ${counts// /,})" "$work/model.time"

# The stencil's phases, copied until there are $phases, each with its own index and name.
jq --argjson count "$phases" '
  .phases as $p | .compute.phases as $c
  | .phases = [range($count) as $k | $p[$k % ($p | length)] | .index = $k | .name = "phase \($k)"]
  | .compute.phases = [range($count) as $k | $c[$k % ($c | length)] | .index = $k]' \
  "$work/stencil.slt" >"$work/model-$phases.slt"

for n in $sizes; do
  /usr/bin/time -v -o "$work/generate-$n.time" "$p3s" generate "$work/model-$phases.slt" -n "$n" \
    -o "$work/st4np-$n" >"$work/generate-$n.log" 2>&1 || { cat "$work/generate-$n.log"; exit 1; }
  grep -q '^consistent' "$work/generate-$n.log" || { cat "$work/generate-$n.log"; exit 1; }
  report "generate $phases phases, N = $n" "$work/generate-$n.time"
done
echo
echo "traced: ${#runs[@]} runs (n = ${counts// /, }), $events trace lines; model: $work/stencil.slt" \
  "($(jq '.phases | length' "$work/stencil.slt") modelled phase(s), repeated to $phases)"
for n in $sizes; do
  echo "ST4NP at N = $n: $(du -h "$work/st4np-$n/st4np.txt" | cut -f1)," \
    "$(grep -c '^rank ' "$work/st4np-$n/st4np.txt") ranks"
done
