#!/usr/bin/env bash
# Benchmarks every cuda kernel and cuSPARSE on the generated families of
# bench/families.txt (sizes that fill the GPU), in the given precisions, with
# `spmv suite`, and prints the summary table of bench/report.py --summary.
# Usage: scripts/bench-families.sh OUT_DIR [f64] [f32]   (BUILD_DIR, default build/;
# KERNELS, default all). OUT_DIR holds results.jsonl: a rerun resumes.
# Exits non-zero if any run failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-build}
out_dir=${1:?usage: bench-families.sh OUT_DIR [precision...]}
shift
precisions=("${@:-f64}")

"$build/spmv" suite --families "$root/bench/families.txt" --sets family --backend cuda \
  --kernels "${KERNELS:-all}" --precision "$(IFS=,; echo "${precisions[*]}")" --runs 30 \
  --out "$out_dir"
status=$?
python3 "$root/bench/report.py" --summary "$out_dir" || status=1
exit $status
