#!/usr/bin/env bash
# Device call 138 (one H100): the GPU suite on csr-merge planned on the device (n5).
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/n5.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis
B=/tmp/b/n5
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 300 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1; echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/gpu-tests.log
$B/spmv bench --gen rmat:scale=18,edge_factor=16 --backend cuda --kernels csr-merge --runs 20 > $OUT/bench-merge.txt 2>&1
cat $OUT/gpu.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests exit" $OUT/gpu-tests.log | head -12
tail -8 $OUT/bench-merge.txt
