#!/usr/bin/env bash
# Device call 159 (one H200, the machine of call 158 still warm, its /tmp/b kept): the one GPU test that call 158's
# 200-second limit cut off (the suite's last; the other 239 had passed).
export LD_LIBRARY_PATH=/tmp/b/new/metis; SPMV_SHARED_DATA=/tmp/shared SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/b/new/spmv timeout 40 /tmp/b/new/spmv_gpu_tests --gtest_filter='*ThePartIsMeasured/crossover' 2>&1 | tail -n 4; md5sum /tmp/b/new/spmv_gpu_tests
