#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy) over p3s's own sources: src/, calibrate/ and
# replay_mpi/ (test apps, tests and fuzz targets are left out). Needs a configured build
# directory with compile_commands.json (scripts/build.sh writes one). Exits 1 on any finding.
#
#   bash scripts/tidy.sh [BUILD_DIR] [FILE_REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
regex=${2:-"$PWD/(src|calibrate|replay_mpi)/.*\.cpp$"}
tidy=$(command -v run-clang-tidy-14 || command -v run-clang-tidy || true)
if [ -z "$tidy" ]; then
  echo "tidy.sh: needs run-clang-tidy (Debian: apt-get install clang-tidy)" >&2
  exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy.sh: $build/compile_commands.json is missing (run scripts/build.sh first)" >&2
  exit 2
fi
started=$(date +%s)
log=$(mktemp)
if ! "$tidy" -p "$build" -j"$(nproc)" -quiet "$regex" > "$log" 2>&1; then
  grep -E '(warning|error):' "$log" | sort -u >&2 || cat "$log" >&2
  echo "tidy.sh: clang-tidy found the above ($(($(date +%s) - started)) s)" >&2
  rm -f "$log"
  exit 1
fi
files=$(grep -c '^clang-tidy' "$log" || true)
rm -f "$log"
echo "tidy.sh: $files files clean ($(($(date +%s) - started)) s)"
