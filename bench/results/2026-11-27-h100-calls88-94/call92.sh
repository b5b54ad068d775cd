#!/usr/bin/env bash
# Device call 92 (one H100): the final build b67c1a9 (ab91). The GPU suite natively (small data set, every
# 8th real matrix), then each compute-sanitizer tool over the tests that call 91 did not start before its
# deadline (call92-TOOL.filter), the four tools side by side, four processes each.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results92; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab91.txz -C /tmp
B=/tmp/n91
mkdir -p /tmp/b/tests && ln -sf $B/spmv /tmp/b/spmv && ln -sf $B/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=16 timeout 220 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for tool in memcheck initcheck synccheck racecheck; do
  BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=4 SANITIZE_TIMEOUT=380 DEADLINE=$(( t0 + 570 )) \
    TESTS="$(cat .device-build/call92-$tool.filter)" \
    bash scripts/gpu-sanitize.sh $tool > $R/sanitize-$tool.txt 2>&1 &
done
wait
echo "sanitize done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(cd /tmp && tar czf $R/cs-logs.tgz cs)
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for tool in memcheck initcheck synccheck racecheck; do grep -E "^  |^$tool " $R/sanitize-$tool.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results92.tgz results92)
cat $OUT/summary.txt
