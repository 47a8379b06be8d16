#!/usr/bin/env bash
# Quick start: build what the quick start needs, calibrate a SimGrid platform to this machine,
# trace the bundled 2D stencil at small process counts, find each run's phases, then predict
# its run time at the traced counts and at 64 to 4,096 processes on this machine's platform
# (model, ST4NP, simulation, report and picture). Everything goes to ./quickstart/.
#
# The traced runs put up to 25 ranks on this machine's cores. The prediction models that
# sharing instead of ignoring it: the platform's hosts are this machine (its cores, its
# calibrated compute speed and shared-memory path, and what a communication round costs when
# its ranks outnumber its cores, measured by running the benchmark's round tests
# oversubscribed), and ranks are placed 25 to a host, so each traced run is simulated as it ran
# (all its ranks sharing one host's cores) and the curve beyond is the same machine, larger:
# more such hosts, each as loaded as the largest traced run, joined by a network as fast as
# this machine's shared memory (nothing here measures a network).
#
# The stencil keeps a 512 x 512 block per process (two 2 MiB fields) for 400 iterations: work
# between messages as a real code has it, rather than MPI calls and the tracer's own clock
# reads, which ranks sharing a core multiply; and a loop long enough that starting up (MPI's
# first connections, which 25 ranks on 2 cores make slow) is not most of the measured time.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
started=$(date +%s)
echo "== building p3s, the tracer, the stencil and the calibration benchmark (log: quickstart-build.log)"
{
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
    cmake --build build -j"$(nproc)" --target p3s p3s_trace app_stencil2d p3s-calibrate-bench
} > quickstart-build.log 2>&1 || { tail -40 quickstart-build.log; exit 1; }
p3s=build/src/cli/p3s
app=build/tests/apps/app_stencil2d
out=quickstart
per_host=25
mkdir -p "$out"

echo "== calibrating this machine: point-to-point between 2 ranks and the compute probe (~2 min)"
mpirun -np 2 build/calibrate/p3s-calibrate-bench --reps 3 --max-bytes 1048576 --min-time 1e-3 \
  --out "$out/calibration.jsonl"
rounds=()
for per_core in 4 12; do
  np=$((per_core * $(nproc)))
  echo "== measuring communication rounds with $np ranks on this machine's $(nproc) cores"
  mpirun --oversubscribe -np "$np" build/calibrate/p3s-calibrate-bench --rounds-only --reps 3 \
    --min-time 1e-2 --out "$out/rounds-$np.jsonl"
  rounds+=("$out/rounds-$np.jsonl")
done
$p3s calibrate "$out/calibration.jsonl" "${rounds[@]}" -o "$out/this-machine.xml" \
  --hosts $(((4096 + per_host - 1) / per_host)) --cores-per-host "$(nproc)" \
  --network-as-same-node --report "$out/calibration" --force

runs=()
for n in 4 9 16 25; do
  echo "== tracing the 2D stencil at n=$n (local grid 512x512, 400 iterations)"
  $p3s trace --force --out "$out/stencil-$n" -- mpirun --oversubscribe -np "$n" "$app" 512 400
  $p3s signature "$out/stencil-$n" -o "$out/signature-$n.json"
  runs+=("$out/stencil-$n")
done
echo "== predicting the traced n and N = 64 .. 4096 on $out/this-machine.xml, $per_host ranks"
echo "   per host as traced (the stencil keeps its 512x512 block per process: weak scaling)"
$p3s predict --runs "${runs[@]}" --targets 64,256,1024,4096 --scaling weak \
  --platform "$out/this-machine.xml" --ranks-per-host "$per_host" -o "$out/report" --force
echo "picture of the scaling curve: $out/report/scaling.svg"
echo "calibration of this machine: $out/calibration/calibration.{txt,svg}"
echo "quick start took $(($(date +%s) - started)) s"
