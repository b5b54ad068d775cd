#!/usr/bin/env bash
# Device call 95 (one H100): build b67c1a9 (ab91, the build of calls 91-94). racecheck, the libraries'
# kernels left out (scripts/gpu-sanitize.sh: cuSPARSE, cuBLAS, CUB's device-wide kernels), over the 41 tests
# it had not passed in calls 91-94 (call95-racecheck.filter), eight processes.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results95; rm -rf $R /tmp/cs/racecheck; mkdir -p $R
[ -x /tmp/n91/spmv ] || { tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab91.txz -C /tmp; }
mkdir -p /tmp/b/tests && ln -sf /tmp/n91/spmv /tmp/b/spmv && ln -sf /tmp/n91/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; compute-sanitizer --version | tail -1
  compute-sanitizer --help | grep -A12 -- '--kernel-name '; } > $R/gpu.txt 2>&1
BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=8 SANITIZE_TIMEOUT=540 DEADLINE=$(( t0 + 555 )) \
  FIRST='*A9a*:*GpuBmrmEach*:*Builds*:*SpmmOnTheZoo*:*OnTheZoo*' \
  TESTS="$(cat .device-build/call95-racecheck.filter)" \
  bash scripts/gpu-sanitize.sh racecheck > $R/sanitize-racecheck.txt 2>&1
for f in /tmp/cs/racecheck/*.log; do
  printf '%s %s %s\n' "$(grep '^seconds' $f | awk '{print $2}')" "$(tail -1 $f)" "$(basename $f .log)"
done | sort -n > $R/seconds.txt
(cd /tmp && tar czf $R/cs-logs.tgz cs/racecheck)
{ cat $R/gpu.txt; cat $R/seconds.txt; grep -E "^  |^racecheck " $R/sanitize-racecheck.txt; } > $OUT/summary.txt
(cd /tmp && tar czf $OUT/results95.tgz results95)
cat $OUT/summary.txt
