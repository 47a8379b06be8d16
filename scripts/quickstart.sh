#!/usr/bin/env bash
# Quick start: build p3s, trace the bundled 2D stencil at small process counts and summarise
# the traces. Output goes to ./quickstart/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
bash scripts/build.sh > quickstart-build.log 2>&1 || { cat quickstart-build.log; exit 1; }
p3s=build/src/cli/p3s
app=build/tests/apps/app_stencil2d
mkdir -p quickstart
for n in 4 9; do
  echo "== tracing the 2D stencil at n=$n"
  $p3s trace --force --out "quickstart/stencil-$n" --workload edge=64 -- \
    mpirun --oversubscribe -np "$n" "$app" 64 200
  $p3s show "quickstart/stencil-$n"
done
echo "run directories: quickstart/stencil-4 quickstart/stencil-9"
