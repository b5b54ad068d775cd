#!/usr/bin/env bash
# Device call 212 (one H200): the selector retrained on call 211's results, with dense-cublas modelled over the
# dense copy's bytes: every kernel and auto at 10^6 expected products on seventeen new unseen generated matrices
# (unseen17.txt) and on bench/families.txt, f64 and f32, cuSPARSE in the same run; then the GPU tests of the plan
# (GpuPlan, GpuSuite, GpuDeviceCsr), the real matrices gzip-compressed as the tests read them.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c212.txz gzip
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-12-02-h200-calls212-/unseen17.txt unseen17 110 150
all_kernels_suite bench/families.txt families 120 140
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 100 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuSuite.*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt $O/unseen17-all-auto.md $O/families-all-auto.md
pack_results 212
