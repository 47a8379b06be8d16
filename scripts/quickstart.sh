#!/usr/bin/env bash
# Quick start: build p3s, trace the bundled 2D stencil at small process counts, find each run's
# phases, then predict its run time at 64 to 4,096 processes on the default SimGrid platform
# (model, ST4NP, simulation, report and picture). Everything goes to ./quickstart/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
echo "== building p3s (log: quickstart-build.log)"
bash scripts/build.sh > quickstart-build.log 2>&1 || { tail -40 quickstart-build.log; exit 1; }
p3s=build/src/cli/p3s
app=build/tests/apps/app_stencil2d
out=quickstart
mkdir -p "$out"
runs=()
for n in 4 9 16 25; do
  echo "== tracing the 2D stencil at n=$n (local grid 64x64, 100 iterations)"
  $p3s trace --force --out "$out/stencil-$n" -- mpirun --oversubscribe -np "$n" "$app" 64 100
  $p3s signature "$out/stencil-$n"
  runs+=("$out/stencil-$n")
done
echo "== predicting N = 64 .. 4096 on simgrid_platforms/default.xml (the stencil keeps its"
echo "   64x64 block per process as N grows: weak scaling)"
$p3s predict --runs "${runs[@]}" --targets 64,256,1024,4096 --scaling weak \
  --platform simgrid_platforms/default.xml -o "$out/report" --force
echo "picture of the scaling curve: $out/report/scaling.svg"
