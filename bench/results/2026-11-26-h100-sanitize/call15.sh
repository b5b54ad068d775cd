#!/usr/bin/env bash
# Device call 15 (one GPU): compute-sanitizer memcheck (leak check) and initcheck over the whole
# GPU suite (scripts/gpu-sanitize.sh, one process per tool and test, 14 at once), the slowest
# tests first; what has not started by the deadline is listed as not started.
set -u
t0=$(date +%s)
tar xJf .device-build/sanitize.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
slow='GpuSpmm/GpuSpmmEach.OnTheZoo/*:GpuKernels/GpuKernelsEach.OnTheRealMatrices/*:GpuBroBuilds.*:GpuBuildDiaSellBlocked.*:GpuKernels/GpuKernelsEach.OnTheZoo/*:GpuKernels.EveryKernelOnEnormousRows:GpuSpmm/GpuSpmmEach.OnGeneratedMatrices/*:GpuBmrm.*:GpuDistributed.*'
DEADLINE=$(( t0 + 560 )) SANITIZE_TIMEOUT=540 JOBS=14 FIRST="$slow" LOG_DIR=/tmp/cs \
  bash scripts/gpu-sanitize.sh memcheck initcheck > $OUT/summary-full.txt 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >> $OUT/summary-full.txt
(cd /tmp && tar czf $OUT/logs.tgz cs)
{ cat $OUT/gpu.txt; grep -vE 'not started' $OUT/summary-full.txt | tail -40; echo "not started: $(grep -c 'not started' $OUT/summary-full.txt)"; } > $OUT/summary.txt
cat $OUT/summary.txt
