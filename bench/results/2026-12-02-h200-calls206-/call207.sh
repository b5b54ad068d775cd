#!/usr/bin/env bash
# Device call 207 (one H200): the four GPU tests (Parts/GpuMicro.*) that call 206's 200 s limit cut off, same
# binary (c206.txz).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c206.txz
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='Parts/GpuMicro.*' > $OUT/gpu-micro.log 2>&1
echo "gpu micro tests exit $?" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-micro.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
