#!/usr/bin/env bash
# Device call 19 (one GPU): compute-sanitizer synccheck and racecheck over the GPU tests that call 18
# did not reach (every test but the slowest groups it started with), the build of 44eacde.
set -u
t0=$(date +%s)
tar xJf .device-build/final.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
TESTS='*-GpuSpmm/GpuSpmmEach.OnTheZoo/*:GpuKernels/GpuKernelsEach.OnTheRealMatrices/*:GpuBroBuilds.*:GpuBuildDiaSellBlocked.*' \
DEADLINE=$(( t0 + 570 )) SANITIZE_TIMEOUT=420 JOBS=14 LOG_DIR=/tmp/cs \
  FIRST='GpuKernels/GpuKernelsEach.OnTheZoo/*:GpuSpmm/GpuSpmmEach.OnGeneratedMatrices/*:GpuKernels.EveryKernelOnEnormousRows:GpuBmrm.*:GpuDistributed.*' \
  bash scripts/gpu-sanitize.sh synccheck racecheck > $OUT/sanitize-full.txt 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >> $OUT/sanitize-full.txt
(cd /tmp && tar czf $OUT/logs.tgz cs)
{ cat $OUT/gpu.txt; grep -E 'tests passed|^exit' $OUT/sanitize-full.txt;
  for t in synccheck racecheck; do echo "$t: timed out $(grep -c "^  $t .*timed out" $OUT/sanitize-full.txt), not started $(grep -c "^  $t .*not started" $OUT/sanitize-full.txt)"; done;
  grep '^  ' $OUT/sanitize-full.txt | grep -v 'not started\|timed out' | head -20; } > $OUT/summary.txt
cat $OUT/summary.txt
