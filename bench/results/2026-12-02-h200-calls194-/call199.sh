#!/usr/bin/env bash
# Device call 199 (one H200): the plan, device-CSR and BMRM GPU tests again after their helper for the transposed
# product was factored out (tests only; the library is call 198's code plus the plan JSON reader's integer checks).
# .device-build/c199.txz holds new/ (spmv, spmv_gpu_tests, metis); .device-data/ LIBSVM's a9a.
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared/libsvm
xz -dc .device-build/c199.txz | tar xf - -C /tmp/b
cp .device-data/a9a.gz /tmp/shared/libsvm/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 200 $B/spmv_gpu_tests \
  --gtest_filter='GpuPlan.*:GpuDeviceCsr.*:*Bmrm*' > $O/gpu-tests.log 2>&1
echo "gpu tests exit $?" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call199-results.tgz
