#!/usr/bin/env bash
# Device call 82 (two GPUs): the final build of this stop (7c1e48f). The multi-GPU tests (GpuDistributed.*,
# NCCL among them) on two GPUs, then under memcheck (API errors left out: NCCL's own probes inside
# ncclCommInitAll); then the 27-point stencil 150^3, f64, halo exchange, on one and two GPUs, three
# rounds (issue 16's efficiency).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results82; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab81.txz -C /tmp
B=/tmp/n81
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -3; } > $R/gpu.txt 2>&1
SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 100 $B/spmv_gpu_tests --gtest_filter='GpuDistributed*' > $R/distributed.log 2>&1
echo "tests exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 100 compute-sanitizer --tool memcheck --report-api-errors no \
  $B/spmv_gpu_tests --gtest_filter='GpuDistributed.*' > $R/memcheck.log 2>&1
echo "memcheck exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for round in 1 2 3; do
  timeout 60 $B/spmv bench --gen stencil27:n=150 --gpus 2 --expected-products 1e6 --runs 20 \
    --json $R/json/g2-f64-$round.json > $R/g2-f64-$round.log 2>&1
  echo "round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|SKIPPED \]' $R/distributed.log
  echo "== memcheck"; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|ERROR SUMMARY' $R/memcheck.log
  for f in $R/g2-*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:|FAILED|^[0-9] ' $f; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
