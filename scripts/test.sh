#!/usr/bin/env bash
# Checks the formatting, builds p3s (scripts/build.sh --check), then runs the tests: unit tests,
# then integration tests that run Open MPI and SimGrid for real. Tests labelled `timing` compare
# measured CPU times and need a quiet machine; they are left out here (run them with
# `ctest --test-dir build -L timing`). Tests run
# side by side, one per core; the real applications' alone (RUN_SERIAL).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
bash scripts/check-format.sh
bash scripts/build.sh --check
ctest --test-dir build --output-on-failure --timeout 900 -j "$(nproc)" -LE timing "$@"
