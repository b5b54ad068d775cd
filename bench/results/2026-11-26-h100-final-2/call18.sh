#!/usr/bin/env bash
# Device call 18 (one GPU): the whole GPU suite with SPMV_REQUIRE_GPU=1 on the final build (44eacde),
# then compute-sanitizer synccheck and racecheck over the suite (scripts/gpu-sanitize.sh, 14 at once)
# until the call's deadline; what did not start is listed.
set -u
t0=$(date +%s)
tar xJf .device-build/final.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv OMP_NUM_THREADS=16 timeout 300 build/tests/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "exit $?" >> $OUT/gpu-tests.log
DEADLINE=$(( t0 + 565 )) SANITIZE_TIMEOUT=400 JOBS=14 LOG_DIR=/tmp/cs \
  FIRST='GpuSpmm/GpuSpmmEach.OnTheZoo/*:GpuKernels/GpuKernelsEach.OnTheRealMatrices/*:GpuBroBuilds.*:GpuBuildDiaSellBlocked.*' \
  bash scripts/gpu-sanitize.sh synccheck racecheck > $OUT/sanitize-full.txt 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >> $OUT/sanitize-full.txt
(cd /tmp && tar czf $OUT/logs.tgz cs)
{ cat $OUT/gpu.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit|tests from .* ran' $OUT/gpu-tests.log;
  grep -E 'tests passed|^exit' $OUT/sanitize-full.txt; echo "not started or failed lines: $(grep -c '^  ' $OUT/sanitize-full.txt)";
  grep '^  ' $OUT/sanitize-full.txt | grep -v 'not started' | head -20; } > $OUT/summary.txt
cat $OUT/summary.txt
