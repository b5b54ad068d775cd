#!/usr/bin/env bash
# Device call 213 (one H200): main's final build of session 55 (the review commit): every kernel and auto at 10^6
# expected products, f64 and f32, cuSPARSE in the same run, on ten matrices written after the model was trained and
# never measured before (unseen10.txt) and on unseen17.txt (measured by call 212 with the previous build; its band
# matrices informed the band rule); then the GPU tests of the plan.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c213.txz gzip
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-12-02-h200-calls212-/unseen10.txt unseen10 80 110
all_kernels_suite bench/results/2026-12-02-h200-calls212-/unseen17.txt unseen17 110 150
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 100 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuSuite.*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt $O/unseen10-all-auto.md $O/unseen17-all-auto.md
pack_results 213
