#!/usr/bin/env bash
# Device call 210 (one H200): the whole GPU test binary of call 209's new build (csr-adaptive's rows' starts in 16
# bits, resident_blocks), with the real matrices gzip-compressed as the tests read them.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c209.txz gzip
gpu_suite 270
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
pack_results 210
