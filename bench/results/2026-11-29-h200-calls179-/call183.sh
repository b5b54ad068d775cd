#!/usr/bin/env bash
# Device call 183 (one H200): the selector with open range ends (new/) on call 182's thirteen matrices, every
# kernel and auto, 10^6 expected products, f64 and f32, cuSPARSE in the same run; then the GPU tests of plans,
# matrices on the device and the suite.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c183.txz
O=$OUT/r; mkdir -p $O
R=bench/results/2026-11-29-h200-calls179-
all_kernels_suite $R/unseen13.txt unseen13 120 150
SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 120 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuDeviceCsr.*:GpuSuite.*' \
  > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
tail -3 $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt $O/unseen13-all-auto.md
pack_results 183
