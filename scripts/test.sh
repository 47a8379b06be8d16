#!/usr/bin/env bash
# Builds p3s and runs every test: unit tests, then integration tests that run Open MPI
# and SimGrid for real.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure --timeout 900 "$@"
