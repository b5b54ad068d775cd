#!/usr/bin/env bash
# Device call 222: the whole GPU test suite (SPMV_REQUIRE_GPU=1, every 8th real matrix) on the final build of this
# stop (csr-adaptive's cut rows by regime, the split rows' table filled by std::fill_n): $OUT/gpu-tests.log.
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c222.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared
ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
export LD_LIBRARY_PATH=/tmp/b/metis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/b/a/spmv \
  timeout 500 /tmp/b/a/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $?"
grep -E "cuSPARSE|CUDA|^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|FAILED" $OUT/gpu-tests.log | head -30
