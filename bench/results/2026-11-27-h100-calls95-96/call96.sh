#!/usr/bin/env bash
# Device call 96 (one H100): build b67c1a9 (ab91, the build of calls 91-95). racecheck, the libraries' kernels
# left out, over the six tests call 95 stopped at its deadline (call96-racecheck.filter), six processes.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results96; rm -rf $R /tmp/cs/racecheck; mkdir -p $R
[ -x /tmp/n91/spmv ] || { tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab91.txz -C /tmp; }
mkdir -p /tmp/b/tests && ln -sf /tmp/n91/spmv /tmp/b/spmv && ln -sf /tmp/n91/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; compute-sanitizer --version | tail -1
  compute-sanitizer --help | grep -A12 -- '--kernel-name '; } > $R/gpu.txt 2>&1
BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=6 SANITIZE_TIMEOUT=575 DEADLINE=$(( t0 + 580 )) FIRST="*SpmmOnTheZoo/bro_ell" \
  TESTS="$(cat .device-build/call96-racecheck.filter)" \
  bash scripts/gpu-sanitize.sh racecheck > $R/sanitize-racecheck.txt 2>&1
for f in /tmp/cs/racecheck/*.log; do
  printf '%s %s %s\n' "$(grep '^seconds' $f | awk '{print $2}')" "$(tail -1 $f)" "$(basename $f .log)"
done | sort -n > $R/seconds.txt
(cd /tmp && tar czf $R/cs-logs.tgz cs/racecheck)
{ cat $R/gpu.txt; cat $R/seconds.txt; grep -E "^  |^racecheck " $R/sanitize-racecheck.txt; } > $OUT/summary.txt
(cd /tmp && tar czf $OUT/results96.tgz results96)
cat $OUT/summary.txt
