#!/usr/bin/env bash
# Device call 29 (one GPU): the whole GPU suite on the final build, with the real matrices.
set -u
t0=$(date +%s)
tar xJf .device-build/g29.txz
R=$OUT; export SPMV_SHARED_DATA=$PWD/.device-data/data OMP_NUM_THREADS=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 400 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
cat $R/gpu.txt $R/timeline.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|tests ran|^exit' $R/gpu-tests.log
