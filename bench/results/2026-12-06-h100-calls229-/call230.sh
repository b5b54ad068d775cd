#!/usr/bin/env bash
# Device call 230: the whole GPU test suite (SPMV_REQUIRE_GPU=1, every 8th real matrix, a9a carried) on main with
# csr-adaptive's launch without staging (cd07217): $OUT/gpu-tests.log.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c230.txz gzip
gpu_suite 500
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|FAILED" $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
