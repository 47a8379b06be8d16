#!/usr/bin/env bash
# How far `p3s model` gets on real LAMMPS inputs under strong scaling (Debian's lammps and
# lammps-examples; not a test): each case is traced at its training counts and at a larger
# hold-out count, modelled with --holdout, and summarised as the share of every training run
# that exactly modelled phases explain, and the hold-out verdict of the phases that take at
# least 2 % of the hold-out run. Traces are kept in OUT_DIR and reused when run again.
#
# usage: scripts/bench/lammps_survey.sh [BUILD_DIR (build)] [OUT_DIR (/tmp/p3s-lammps-survey)]
#                                        [CASE...]
# CASE: melt (3D, cubic box), eim (3D, many-body potential), min (2D minimisation),
#       micelle (2D, bonds), crack (2D, non-periodic), peptide (3D, PPPM long-range); all by
#       default. Ranks are oversubscribed: the logical content is what is checked.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/mpi-env.sh
build=${1:-build}
out=${2:-${TMPDIR:-/tmp}/p3s-lammps-survey}
shift $(($# < 2 ? $# : 2))
p3s=$(realpath "$build")/src/cli/p3s
examples=/usr/share/lammps/examples
if [ ! -d "$examples" ] || ! command -v lmp > /dev/null; then
  echo "lammps_survey.sh: needs Debian's lammps and lammps-examples (apt-get install lammps lammps-examples)" >&2
  exit 2
fi
# name: example input, training counts, hold-out count
declare -A cases=(
  [melt]="melt/in.melt:8 12 16:32"
  [eim]="eim/in.eim:8 12 16:32"
  [min]="min/in.min:6 8 12:16"
  [micelle]="micelle/in.micelle:6 8 12:16"
  [crack]="crack/in.crack:6 8 12:16"
  [peptide]="peptide/in.peptide:8 12 16:32"
)
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(melt eim min micelle crack peptide)
mkdir -p "$out"
printf '%-8s %-10s %-26s %s\n' case training "covered (per training n)" "hold-out: phases of 2 % or more"
for name in "${names[@]}"; do
  spec=${cases[$name]:?unknown case $name}
  input=${spec%%:*}
  rest=${spec#*:}
  training=${rest%:*}
  holdout=${rest##*:}
  dir=$out/$name
  mkdir -p "$dir"
  cp -r "$examples/$(dirname "$input")/." "$dir/input"
  runs=()
  for n in $training $holdout; do
    if [ ! -f "$dir/run-$n/run.json" ]; then
      (cd "$dir/input" && "$p3s" trace --force --out "$dir/run-$n" -- \
        mpirun --oversubscribe -np "$n" lmp -in "$(basename "$input")" -log none -screen none) \
        > "$dir/trace-$n.log" 2>&1 || { echo "$name: trace at n = $n failed ($dir/trace-$n.log)"; continue 2; }
    fi
  done
  for n in $training; do runs+=("$dir/run-$n"); done
  "$p3s" model --runs "${runs[@]}" --holdout "$dir/run-$holdout" --scaling strong \
    -o "$dir/app.slt" > "$dir/model.log" 2>&1 || true
  covered=$(awk '/^coverage \(share/ {on = 1; next} on && /^  n = / {printf "%s%s", sep, $4 "%"; sep = " "}' "$dir/model.log")
  verdicts=$(awk '/^hold-out check/ {on = 1; next} /^coverage/ {on = 0}
                  on && /^  phase [0-9]/ && $3 + 0 >= 2 {
                    v = $4 == "not" ? "not modelled" : $4 == "no" ? "absent" : $4
                    printf "%s%s %s %s", sep, $2, $3, v; sep = ", "}' "$dir/model.log")
  printf '%-8s %-10s %-26s n = %s: %s\n' "$name" "${training// /,}" "$covered" "$holdout" "$verdicts"
done
echo "details: $out/CASE/model.log"
