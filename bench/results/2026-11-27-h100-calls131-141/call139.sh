#!/usr/bin/env bash
# Device call 139 (one H100): the chosen kernel warmed up on a helper thread during the upload (n6) against
# before (n4): the default plan of five families, f64 and f32, interleaved; then the GPU suite on n6.
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/n6.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis
F="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for r in 1 2; do for p in f32 f64; do for v in n4 n6; do
  timeout 60 /tmp/b/$v/bench_format_builds $p --default-only $F > $OUT/default-$p-$v-$r.txt 2>/dev/null
done; done; done
echo "benches done at $(( $(date +%s) - t0 )) s"
B=/tmp/b/n6
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 280 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1; echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/gpu-tests.log
cat $OUT/gpu.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests exit" $OUT/gpu-tests.log | head -12
for f in $OUT/default-*.txt; do echo "$(basename $f .txt): $(grep -E '^auto' $f | awk '{printf "%s %s %s %s | ", $2, $4, $5, $7}')"; done
