#!/usr/bin/env bash
# Device call 93 (one H100): build b67c1a9 (ab91). memcheck, initcheck and synccheck over the tests that
# ran out of their time or were not started in calls 91-92 (call93-TOOL.filter), the three tools side by
# side, three processes each, on one GPU.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results93; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab91.txz -C /tmp
B=/tmp/n91
mkdir -p /tmp/b/tests && ln -sf $B/spmv /tmp/b/spmv && ln -sf $B/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for tool in memcheck initcheck synccheck; do
  BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=3 SANITIZE_TIMEOUT=380 DEADLINE=$(( t0 + 390 )) \
    TESTS="$(cat .device-build/call93-$tool.filter)" \
    bash scripts/gpu-sanitize.sh $tool > $R/sanitize-$tool.txt 2>&1 &
done
wait
echo "sanitize done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(cd /tmp && tar czf $R/cs-logs.tgz cs)
{ cat $R/gpu.txt $R/timeline.txt
  for tool in memcheck initcheck synccheck; do grep -E "^  |^$tool " $R/sanitize-$tool.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results93.tgz results93)
cat $OUT/summary.txt
