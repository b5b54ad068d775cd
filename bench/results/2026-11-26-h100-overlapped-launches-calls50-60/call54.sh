#!/usr/bin/env bash
# Device call 54 (one GPU): racecheck (cuSPARSE's kernels left out, as scripts/gpu-sanitize.sh does) of
# the two GPU tests that ran out of time under it before (420 s each in call 47, which also checked
# cuSPARSE's kernels), with 560 s each, side by side; the build of call 53.
set -u
t0=$(date +%s)
tar xJf .device-build/g53.txz
export SPMV_SHARED_DATA=$PWD/.device-data/mini
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
TESTS='GpuBmrm.CudaMatchesCpu:GpuMicro.EveryPartIsMeasured' SANITIZE_TIMEOUT=560 DEADLINE=$(( t0 + 580 )) JOBS=2 \
  LOG_DIR=/tmp/cs bash scripts/gpu-sanitize.sh racecheck > $OUT/sanitize.txt 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >> $OUT/sanitize.txt
for f in /tmp/cs/racecheck/*.log; do echo "$(basename $f .log): $(grep -E '^\[  (PASSED|FAILED)|RACECHECK SUMMARY|^exit' $f | tr '\n' ' ')"; done >> $OUT/sanitize.txt
(cd /tmp && tar czf $OUT/logs.tgz cs)
cat $OUT/gpu.txt $OUT/sanitize.txt
