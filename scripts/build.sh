#!/usr/bin/env bash
# Configures and builds p3s in ./build (warnings are errors), with compile_commands.json for
# clang-tidy (scripts/tidy.sh).
#
#   bash scripts/build.sh          RelWithDebInfo (-O2 -g): what you debug and profile
#   bash scripts/build.sh --check  -O1 without debug information: about half the compile time,
#                                  for a build that is only tested (scripts/test.sh, CI)
# Switching between the two rebuilds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
type=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ "${1:-}" = "--check" ]; then
  type=(-DCMAKE_BUILD_TYPE=Check "-DCMAKE_C_FLAGS_CHECK=-O1 -DNDEBUG"
        "-DCMAKE_CXX_FLAGS_CHECK=-O1 -DNDEBUG" "-DCMAKE_Fortran_FLAGS_CHECK=-O1")
fi
cmake -S . -B build "${type[@]}" -DP3S_WERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
cmake --build build -j"$(nproc)"
