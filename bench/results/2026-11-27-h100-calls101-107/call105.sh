#!/usr/bin/env bash
# Device call 105 (four GPUs): the final build 90c7bf5. The 27-point stencil 150^3 f64 with halo exchange on
# two GPUs (three rounds) and on four; then the GPU suite with every GPU visible (the distributed tests spread
# their parts over them), small data set, every 8th real matrix.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results105; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab104.txz -C /tmp
B=/tmp/n104
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -5; nproc; } > $R/gpu.txt 2>&1
for round in 1 2 3; do
  OMP_NUM_THREADS=16 timeout 40 $B/spmv bench --gen stencil27:n=150 --gpus 2 --expected-products 1e6 --runs 20 \
    --json $R/json/g2-f64-$round.json > $R/g2-f64-$round.log 2>&1
  echo "g2 round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
OMP_NUM_THREADS=16 timeout 40 $B/spmv bench --gen stencil27:n=150 --gpus 4 --expected-products 1e6 --runs 20 \
  --json $R/json/g4-f64.json > $R/g4-f64.log 2>&1
echo "g4 exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  OMP_NUM_THREADS=16 timeout 300 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/g2-*.log $R/g4-*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:' $f; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results105.tgz results105)
cat $OUT/summary.txt
