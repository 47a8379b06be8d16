#!/usr/bin/env bash
# Regenerates fuzz/seeds/ from real outputs of a normal build (bash scripts/build.sh first):
# rank traces and run.json of traced runs, their signature.json, an SLT, an SMPI TI trace,
# platform options and command lines. The seeds are committed; run this when a format changes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
build=${1:-build}
p3s=$build/src/cli/p3s
apps=$build/tests/apps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz_rank_trace,fuzz_run_json,fuzz_signature_json,fuzz_slt,fuzz_ti_import,fuzz_st4np,fuzz_platform,fuzz_command_line}

# Real runs at small n: a ring (blocking point-to-point, a reduce), a butterfly (sendrecv), a
# 2D stencil (non-blocking calls and their waits, an allreduce), and a run that aborts.
"$p3s" trace -o "$work/ring-2" -- mpirun --oversubscribe -np 2 "$apps/app_ring" 16 3 2>/dev/null
"$p3s" trace -o "$work/ring-3" -- mpirun --oversubscribe -np 3 "$apps/app_ring" 16 3 2>/dev/null
"$p3s" trace -o "$work/ring-4" -- mpirun --oversubscribe -np 4 "$apps/app_ring" 16 3 2>/dev/null
"$p3s" trace -o "$work/fly-4" -w grid=64 -- mpirun --oversubscribe -np 4 "$apps/app_butterfly" 16 3 2>/dev/null || true
"$p3s" trace -o "$work/stencil-4" -- mpirun --oversubscribe -np 4 "$apps/app_stencil2d" 8 3 2>/dev/null
"$p3s" trace -o "$work/fail-2" -- mpirun --oversubscribe -np 2 "$apps/app_failing" abort 3 2>/dev/null || true
for run in ring-2 fly-4 stencil-4 fail-2; do
  for f in "$work/$run"/rank-0000[01].p3st; do
    [ -f "$f" ] && head -c 6000 "$f" > "$seeds/fuzz_rank_trace/$run-$(basename "$f")"
  done
  cp "$work/$run/run.json" "$seeds/fuzz_run_json/$run.json"
done
"$p3s" signature "$work/ring-2" -o "$seeds/fuzz_signature_json/ring-2.json" > /dev/null
"$p3s" model "$work/ring-2" "$work/ring-3" "$work/ring-4" -o "$seeds/fuzz_slt/ring.slt" > /dev/null
"$p3s" model "$work/ring-2" "$work/ring-4" --allow-partial -o "$seeds/fuzz_slt/ring-2-4.slt" > /dev/null
# The ring's model instantiated at 4 and 6 ranks (ST4NPs).
for n in 4 6; do
  "$p3s" generate "$seeds/fuzz_slt/ring.slt" -n $n -o "$work/st4np-$n" > /dev/null
  cp "$work/st4np-$n/st4np.txt" "$seeds/fuzz_st4np/ring-$n.txt"
done

# An SMPI run: its TI list, then its rank files, NUL-separated (fuzz_ti_import names them
# r1.txt, r2.txt, ...).
(cd "$work" && mkdir ti && smpirun -np 2 -platform "$OLDPWD/tests/smpi/platform_cluster.xml" -trace-ti \
   --cfg=tracing/filename:ti/trace.txt "$OLDPWD/$build/tests/smpi/smpi_ring" 16 3 > /dev/null 2>&1)
{
  printf 'r1.txt\nr2.txt\n\0'
  n=0
  for f in "$work"/ti/trace.txt_files/*; do
    [ $n -gt 0 ] && printf '\0'
    cat "$f"
    n=$((n + 1))
  done
} > "$seeds/fuzz_ti_import/smpi-ring-2"

# Platform options: hosts, cores, topology, bandwidth, latency, speed, loopback bandwidth and
# latency, bw-factor, lat-factor, os, ois, or.
printf '16\0001\000flat\00010Gbps\0001us\0001Gf\000100Gbps\0000.1us\000\000\000\000\000' \
  > "$seeds/fuzz_platform/flat"
printf '64\0002\000fat-tree\0001Gbps\0002us\0002Gf\000\000\0000:1;65536:0.9\0000:1\0000:1us:0\000\000' \
  > "$seeds/fuzz_platform/fat-tree"
printf '27\0001\000torus\00025GiBps\00050ns\00010kf\000\000\000\000\0000:0:1e-9;1024:1us:1e-10\000\000' \
  > "$seeds/fuzz_platform/torus"
printf '4096\0001\000dragonfly\000100Mbps\0001ms\0001Gflops\000\000\000\000\000\000\000' \
  > "$seeds/fuzz_platform/dragonfly"

# Command lines (arguments NUL-separated; no '/' in them, the target refuses paths).
cl() { local name=$1; shift; printf '%s\0' "$@" | head -c -1 > "$seeds/fuzz_command_line/$name"; }
cl trace trace --out run -w grid=64 -- mpirun -np 4 app
cl trace-no-dashes trace --out run app
cl import-ti trace import-ti list.txt -o run --flops-per-second 20000
cl show show run --rank 1 --json --accept-truncated
cl signature signature run -o sig.json --threshold 1% --size-tolerance 50% --workers 2
cl model model r4 r9 r16 --holdout r25 --min-coverage 90% --allow-partial -o app.slt
cl generate generate app.slt -n 1024 --ranks 0-63 --partial --export-ti ti
cl platform platform -o p.xml --hosts 64 --topology torus --bandwidth 10Gbps --latency 1us
cl simulate simulate app.slt -n 64 --platform p.xml --ranks-per-host 2 --mapping cyclic --cfg smpi/allreduce:rdb --cpu-speedup 2 --full
cl predict predict --runs r4 r9 --targets 64,256 --platform p.xml -o report --scaling weak
cl whatif whatif app.slt -n 64,256 --platform p.xml --platform q.xml --cpu-speedup 1,2 --bandwidth x2,/2 --latency /2 --topology torus,dragonfly -o report --efficiency 0.6
echo "seeds written to $seeds:"
du -sh "$seeds"/*
