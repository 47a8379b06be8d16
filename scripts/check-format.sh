#!/usr/bin/env bash
# Fails when a C or C++ source is not formatted as .clang-format says; prints the files.
# `clang-format -i FILE` fixes one.
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.c' '*.h')
else
  mapfile -t files < <(find src tests calibrate replay_mpi fuzz \( -name '*.[ch]' -o -name '*.[ch]pp' \))
fi
if ! report=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  echo "check-format: not formatted (run clang-format -i on them):" >&2
  sed -n 's/^\([^ :]*\):[0-9]*:[0-9]*: error:.*/  \1/p' <<< "$report" | sort -u >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
