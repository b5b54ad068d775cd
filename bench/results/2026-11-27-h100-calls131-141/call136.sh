#!/usr/bin/env bash
# Device call 136 (one H100): the GPU suite on the final build (n4); every format's device build on the five
# families, f64 and f32.
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/n4.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis
B=/tmp/b/n4
t0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $OUT/gpu.txt 2>&1
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 230 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1; echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/gpu-tests.log
for p in f64 f32; do
  timeout 170 $B/bench_format_builds $p stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 \
    rmat:scale=22,edge_factor=16 blockfem:n=80,block=4 > $OUT/builds-$p.txt 2> $OUT/builds-$p.jsonl
  echo "exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/builds-$p.txt
done
cat $OUT/gpu.txt | head -2
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests exit" $OUT/gpu-tests.log | head -12
for p in f64 f32; do echo "== builds $p"; grep -E "^[a-z]|^auto|x [0-9]+, [0-9]+ non|exit" $OUT/builds-$p.txt | grep -vE "^kernel|^csr-|^cusparse-|refused" | awk '{print $1, $2, $3, $4, $5, $6}'; done
