#!/usr/bin/env bash
# Device call 91 (four GPUs): the final build b67c1a9. The 27-point stencil 150^3 f64 with halo exchange on
# one and two GPUs (three rounds) and on four; then the GPU suite natively and all four compute-sanitizer
# tools over the whole GPU suite at once (scripts/gpu-sanitize.sh: every (tool, test) pair a process, the
# processes spread over the four GPUs), small data set, every 8th real matrix.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results91; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab91.txz -C /tmp
B=/tmp/n91
mkdir -p /tmp/b/tests && ln -sf $B/spmv /tmp/b/spmv && ln -sf $B/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -5
  compute-sanitizer --version | tail -1; nproc; } > $R/gpu.txt 2>&1
for round in 1 2 3; do
  OMP_NUM_THREADS=16 timeout 40 $B/spmv bench --gen stencil27:n=150 --gpus 2 --expected-products 1e6 --runs 20 \
    --json $R/json/g2-f64-$round.json > $R/g2-f64-$round.log 2>&1
  echo "g2 round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
OMP_NUM_THREADS=16 timeout 40 $B/spmv bench --gen stencil27:n=150 --gpus 4 --expected-products 1e6 --runs 20 \
  --json $R/json/g4-f64.json > $R/g4-f64.log 2>&1
echo "g4 exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
( SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=4 timeout 300 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
  echo "exit $?" >> $R/gpu-tests.log ) &
BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=56 SANITIZE_TIMEOUT=520 DEADLINE=$(( t0 + 565 )) \
  FIRST='*A9a*:*GpuBmrmEach*:Parts/GpuMicro.*:*RealMatrices*:*Enormous*:GpuSpmm/*:*SpmmOnTheZoo*:*OnTheZoo*:GpuDistributed*:*Build*:*Cg*' \
  bash scripts/gpu-sanitize.sh memcheck initcheck synccheck racecheck > $R/sanitize.txt 2>&1
echo "sanitize exit $? after $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
wait
(cd /tmp && tar czf $R/cs-logs.tgz cs)
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/g2-*.log $R/g4-*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:' $f; done
  tail -40 $R/sanitize.txt
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results91.tgz results91)
cat $OUT/summary.txt
