#!/usr/bin/env bash
# Device call 17 (one GPU): compute-sanitizer memcheck (leak check) and initcheck over the 68
# parameterised GPU tests (one per kernel: GpuKernels/*, GpuSpmm/*) that call 15 could not run,
# and GpuStreams.TwoOperatorsFromTwoThreadsMatchSerialUse again; scripts/gpu-sanitize.sh as
# mended in b141041, 14 processes at once, the slowest first.
set -u
t0=$(date +%s)
tar xJf .device-build/sanitize.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
slow='GpuSpmm/GpuSpmmEach.OnTheZoo/*:GpuKernels/GpuKernelsEach.OnTheRealMatrices/*'
TESTS='GpuKernels/*:GpuSpmm/*:GpuStreams.TwoOperatorsFromTwoThreadsMatchSerialUse' \
DEADLINE=$(( t0 + 565 )) SANITIZE_TIMEOUT=540 JOBS=14 FIRST="$slow" LOG_DIR=/tmp/cs \
  bash scripts/gpu-sanitize.sh memcheck initcheck > $OUT/summary-full.txt 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >> $OUT/summary-full.txt
(cd /tmp && tar czf $OUT/logs.tgz cs)
{ cat $OUT/gpu.txt; tail -40 $OUT/summary-full.txt; } > $OUT/summary.txt
cat $OUT/summary.txt
