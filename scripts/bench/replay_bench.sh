#!/usr/bin/env bash
# The Synthetic Signature (replay_mpi) on this machine; prints figures, gates nothing.
#  1. compute emulation: how closely spin and sleep keep to bursts of 1 us to 1 ms;
#  2. the replay loop's own cost per event: bench_msgrate's loop (8-byte Isend/Irecv windows and
#     a Waitall, 2 ranks) run bare, against p3s-replay of its model at N = 2 on 2 processes with
#     no compute: (replay time per call - bare time per call) is what the replay adds per event;
#  3. the 2D stencil traced at n = 4, 9, 16, modelled, replayed at N = 16: on R = 16 (SynET and
#     PET against the traced run's AET) and on R = 4 (ranges and black holes) against the same.
# usage: scripts/bench/replay_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/mpi-env.sh
build=${1:-build}
cmake --build "$build" -j2 --target p3s p3s_trace p3s-replay replay_compute_bench bench_msgrate \
  app_stencil2d > /dev/null
p3s=$build/src/cli/p3s
replay=$build/replay_mpi/p3s-replay
apps=$build/tests/apps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "== 1. compute emulation (median and 90th percentile of the elapsed time per burst)"
"$build/replay_mpi/replay_compute_bench"

echo
echo "== 2. replay loop cost per event: bench_msgrate (windows of 8) bare vs replayed at N = 2"
calls=400000
window=8
for n in 2 4 6 8; do
  "$p3s" trace --out "$work/msgrate-$n" -- mpirun --oversubscribe -np "$n" \
    "$apps/bench_msgrate" 20000 "$window" > /dev/null
done
"$p3s" model "$work"/msgrate-{2,4,6,8} -o "$work/msgrate.slt" > /dev/null
reps=$((calls / (2 * window + 1)))
events=$((2 * window + 1))
# The model's loop phase: the one with 2 x window + 1 calls per repetition.
phase=$(mpirun -np 2 "$replay" "$work/msgrate.slt" -n 2 -o "$work/probe.json" --compute none \
  --repetitions 1 --no-messages > /dev/null && json "$work/probe.json" \
  "[s['phase'] for s in j['step_log'] if s['executed'][0] == 2 * $events][0]")
# Alternating runs, medians: the machine is shared.
for i in 1 2 3 4 5; do
  mpirun -np 2 "$apps/bench_msgrate" "$calls" "$window" |
    sed -n 's/.*usec_per_call=\([0-9.e+-]*\).*/\1/p' >> "$work/bare"
  mpirun -np 2 "$replay" "$work/msgrate.slt" -n 2 -o "$work/msgrate-replay.json" --force \
    --compute none --repetitions "$reps" --no-messages --phases "$phase" > /dev/null
  json "$work/msgrate-replay.json" "j['phases'][0]['phase_et_seconds'] / $events * 1e6" >> "$work/replayed"
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
bare=$(median < "$work/bare")
replayed=$(median < "$work/replayed")
echo "bare MPI: $(tr '\n' ' ' < "$work/bare")us per call; median $bare"
echo "replayed: $(tr '\n' ' ' < "$work/replayed")us per event ($events per repetition); median $replayed"
python3 -c "print(f'added by the replay: {$replayed - $bare:+.3f} us per event (target <= 1 us)')"

echo
echo "== 3. stencil2d 64 100 at N = 16: traced run against the Synthetic Signature"
for n in 4 9 16; do
  "$p3s" trace --out "$work/st-$n" -- mpirun --oversubscribe -np "$n" \
    "$apps/app_stencil2d" 64 100 > /dev/null
done
"$p3s" model "$work"/st-{4,9,16} -o "$work/st.slt" > /dev/null
aet=$("$p3s" signature "$work/st-16" -o "$work/sig16.json" > /dev/null && json "$work/sig16.json" "j['aet_seconds']")
for r in 16 4; do
  /usr/bin/time -f "%e" -o "$work/wall" mpirun --oversubscribe -np "$r" "$replay" "$work/st.slt" -n 16 \
    -o "$work/st-replay-$r.json" --no-messages > /dev/null
  pet=$(json "$work/st-replay-$r.json" "j['pet_seconds']")
  synet=$(json "$work/st-replay-$r.json" "j['synet_seconds']")
  steps=$(json "$work/st-replay-$r.json" "j['steps']")
  python3 -c "
aet, pet, synet = $aet, $pet, $synet
print(f'R = $r: $steps steps, PET {pet:.4g} s vs AET {aet:.4g} s ({100*(pet-aet)/aet:+.1f} %), '
      f'SynET {synet:.3g} s ({synet/aet:.2f} x AET), launch to end $(cat "$work/wall") s')"
done
echo "(16 ranks and the replay's processes share $(nproc) cores here: times are inflated and noisy)"
