#!/usr/bin/env bash
# Device call 94 (one H100, warm): build b67c1a9 (ab91, already unpacked by call 93). racecheck over the tests
# that ran out of their time or were not started in calls 91-92 (call94-racecheck.filter), twelve processes.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results94; rm -rf $R /tmp/cs/racecheck; mkdir -p $R
[ -x /tmp/n91/spmv ] || { tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab91.txz -C /tmp; }
mkdir -p /tmp/b/tests && ln -sf /tmp/n91/spmv /tmp/b/spmv && ln -sf /tmp/n91/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=12 SANITIZE_TIMEOUT=190 DEADLINE=$(( t0 + 195 )) \
  TESTS="$(cat .device-build/call94-racecheck.filter)" \
  bash scripts/gpu-sanitize.sh racecheck > $R/sanitize-racecheck.txt 2>&1
(cd /tmp && tar czf $R/cs-logs.tgz cs/racecheck)
grep -E "^  |^racecheck " $R/sanitize-racecheck.txt > $OUT/summary.txt
(cd /tmp && tar czf $OUT/results94.tgz results94)
cat $OUT/summary.txt
