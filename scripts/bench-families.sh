#!/usr/bin/env bash
# Benchmarks every cuda kernel and cuSPARSE on the generated families at sizes
# that fill the GPU (matrix data many times the L2), in the given precisions.
# Usage: scripts/bench-families.sh OUT_DIR [f64] [f32]   (BUILD_DIR, default build/)
# Writes OUT_DIR/<family>-<precision>.{json,log} and prints the summary table
# of bench/families_table.py last. Exits non-zero if any run failed.
set -uo pipefail

build=${BUILD_DIR:-build}
out_dir=${1:?usage: bench-families.sh OUT_DIR [precision...]}
shift
precisions=("${@:-f64}")
mkdir -p "$out_dir"

# family name -> generator spec (sizes chosen for an 80-140 GB GPU; each fp64
# matrix is 0.4-1.4 GB, 8-30 times the H100/H200 L2)
families=(
  "stencil27 stencil27:n=150"
  "stencil7 stencil7:n=256"
  "uniform uniform:rows=4000000,cols=4000000,per_row=16"
  "rmat rmat:scale=22,edge_factor=16"
  "blockfem blockfem:n=80,block=4"
  "widelp widelp:rows=2000,cols=4000000,per_row=20000"
  "fewhuge fewhuge:rows=4000000,cols=4000000,per_row=8,huge_rows=16,huge_length=1000000"
)

status=0
for precision in "${precisions[@]}"; do
  for entry in "${families[@]}"; do
    set -- $entry
    name="$1-$precision"
    echo "bench $name ($2)" >&2
    "$build/spmv" bench --gen "$2" --backend cuda --kernels "${KERNELS:-all}" --precision "$precision" \
      --runs 30 --json "$out_dir/$name.json" >"$out_dir/$name.log" 2>&1 || { status=1; echo "  FAILED: see $name.log" >&2; }
  done
done
python3 "$(dirname "$0")/../bench/families_table.py" "$out_dir"/*.json
exit $status
