#!/usr/bin/env bash
# Measures one kernel again on every unit the selector trains on for a device, beside cuSPARSE's algorithms (and
# auto, which the suite always measures): the real matrices as they are and replicated, bench/families.txt, the
# 45 selector-training families and any further families files the selector's results of that device cover
# (the H200's: bench/results/2026-11-30-h200-calls184-/gaps11.txt and unseen15.txt); f64 and f32. Run it on the GPU
# after a change to the kernel, then list the kernel in bench/selector/kernel-changes.txt and OUT's results files
# in scripts/train-selector.sh.
#   scripts/remeasure-kernel.sh KERNEL SPMV MATRICES FAMILIES45 OUT [FAMILIES_FILE ...]
# MATRICES: the folder of the real matrices; FAMILIES45: a families file of the 45 training families (the
# generators of ../shared/data/selector-training). Each suite stops measuring after REAL_SECONDS,
# FAMILIES_SECONDS, FAMILIES45_SECONDS, MORE_SECONDS (each further file's; default 180 each; the units left out are
# listed in its suite.json). A further file's results go to OUT/ITS_BASE_NAME.
set -u
kernel=$1 spmv=$2 matrices=$3 families45=$4
mkdir -p "$5" && out=$(cd "$5" && pwd)  # made, and absolute before the cd below
more=()
for file in "${@:6}"; do more+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"); done
cd "$(dirname "$0")/.."
common=(--backend cuda --kernels "$kernel" --precision f64,f32 --runs 20 --host-runs 0)
t0=$(date +%s)
measure() {  # NAME SECONDS SUITE-ARGUMENTS...
  local name=$1 seconds=$2
  shift 2
  timeout $((seconds + 10)) "$spmv" suite "$@" "${common[@]}" --time-limit "$seconds" --out "$out/$name" \
    > "$out/$name.log" 2>&1
  echo "$name exit $? at $(($(date +%s) - t0)) s" >> "$out/times.txt"
  tail -1 "$out/$name.log"
}
measure real "${REAL_SECONDS:-180}" "$matrices" --sets real,replicated
measure families "${FAMILIES_SECONDS:-180}" --families bench/families.txt
measure families45 "${FAMILIES45_SECONDS:-180}" --families "$families45"
for file in ${more[@]+"${more[@]}"}; do
  measure "$(basename "$file" .txt)" "${MORE_SECONDS:-180}" --families "$file"
done
