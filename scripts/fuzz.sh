#!/usr/bin/env bash
# Fuzzes p3s's parsers with libFuzzer under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   bash scripts/fuzz.sh [--seconds S] [--jobs J] [TARGET...]
#
# Builds the targets of fuzz/ with clang in build-fuzz/ (once; then incrementally), starts each
# from its committed seeds (fuzz/seeds/TARGET) plus what earlier runs found
# (build-fuzz/corpus/TARGET), and runs it for S seconds (default 600), J targets at a time
# (default 1). Prints per target: executions, executions per second, corpus size, and the
# crashes, hangs (-timeout 10 s) and out-of-memory inputs (-rss_limit_mb 2048) it found, which
# it keeps in build-fuzz/artifacts/TARGET/. Exits 1 when any target found one.
# CI runs `bash scripts/fuzz.sh --seconds 5` (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=600
jobs=1
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(fuzz_rank_trace fuzz_run_json fuzz_signature_json fuzz_slt fuzz_ti_import fuzz_st4np
     fuzz_platform fuzz_command_line)
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

cc=$(command -v clang-14 || command -v clang || true)
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$cxx" ]; then
  echo "fuzz.sh: needs clang (Debian: apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 2
fi
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=$cc CXX=$cxx cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DP3S_FUZZ=ON \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" > /dev/null
fi
started=$(date +%s)
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}"
echo "fuzz.sh: sanitizer build took $(( $(date +%s) - started )) s"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
run_target() {
  local t=$1 corpus=build-fuzz/corpus/$1 artifacts=build-fuzz/artifacts/$1
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  build-fuzz/fuzz/"$t" "$corpus" "fuzz/seeds/$t" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -close_fd_mask=3 -print_final_stats=1 \
    -artifact_prefix="$PWD/$artifacts/" > "build-fuzz/$t.log" 2>&1 || true
}
running=0
for t in "${targets[@]}"; do
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait

found=0
printf '%-22s %12s %10s %10s %8s %6s %6s\n' target executions exec/s corpus crashes hangs ooms
for t in "${targets[@]}"; do
  log=build-fuzz/$t.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  corpus=$(find "build-fuzz/corpus/$t" -type f | wc -l)
  crashes=$(find "build-fuzz/artifacts/$t" -name 'crash-*' -o -name 'leak-*' -o -name 'deadly-*' | wc -l)
  hangs=$(find "build-fuzz/artifacts/$t" -name 'timeout-*' -o -name 'slow-unit-*' | wc -l)
  ooms=$(find "build-fuzz/artifacts/$t" -name 'oom-*' | wc -l)
  # The log has the last word: a finding whose input could not be written still counts.
  summary=$(grep -m1 '^SUMMARY: ' "$log" || true)
  if [ -n "$summary" ] && [ $((crashes + hangs + ooms)) -eq 0 ]; then
    case $summary in
      *timeout*) hangs=1 ;;
      *out-of-memory*) ooms=1 ;;
      *) crashes=1 ;;
    esac
  fi
  printf '%-22s %12s %10s %10s %8s %6s %6s\n' "$t" "${runs:-?}" "${rate:-?}" "$corpus" "$crashes" \
    "$hangs" "$ooms"
  if [ -z "$runs" ] || [ $((crashes + hangs + ooms)) -gt 0 ]; then
    found=1
    echo "  see build-fuzz/$t.log and build-fuzz/artifacts/$t/" >&2
    grep -m3 -E 'ERROR|invariant broken|runtime error|SUMMARY' "$log" | sed 's/^/  /' >&2 || true
  fi
done
exit $found
