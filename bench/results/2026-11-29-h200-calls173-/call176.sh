#!/usr/bin/env bash
# Device call 176 (one H200): GpuStreams' tests after bf7793a (their graph capture in one helper).
set -u
rm -rf /tmp/b && mkdir -p /tmp/b && xz -dc .device-build/c176.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/new/metis
SPMV_REQUIRE_GPU=1 timeout 120 /tmp/b/new/spmv_gpu_tests --gtest_filter='GpuStreams.*' > $OUT/gpu-streams.log 2>&1
echo "exit $?"; grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED)" $OUT/gpu-streams.log
