#!/usr/bin/env bash
# Device call 126 (two GPUs): the edges of call 125 with the exchange streams at high priority (graphs
# instantiated with the nodes' priorities). The GPU suite (small data set, every 8th real matrix) with two
# GPUs; then the 27-point stencil 150^3, f64, halo, --gpus 2: HEAD before the change (o125), the edges
# alone (n125), the edges with priority (n126), interleaved, four rounds.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results126; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab125.txz -C /tmp; tar xJf .device-build/ab126.txz -C /tmp
B=/tmp/n126
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -3; } > $R/gpu.txt 2>&1
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 280 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for round in 1 2 3 4; do
  for build in o125 n125 n126; do
    timeout 60 /tmp/$build/spmv bench --gen stencil27:n=150 --gpus 2 --expected-products 1e6 --runs 20 \
      --json $R/json/g2-$build-$round.json > $R/g2-$build-$round.log 2>&1
    echo "$build round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  done
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for round in 1 2 3 4; do for build in o125 n125 n126; do echo "== $build round $round"
    grep -E '^[01] |one part|efficiency|beyond|exchange:' $R/g2-$build-$round.log; done; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results126.tgz results126)
head -12 $OUT/summary.txt
for round in 1 2 3 4; do for build in o125 n125 n126; do
  echo "$build $round $(grep -o 'run() (exchange + products): [0-9.]* ms' $R/g2-$build-$round.log | grep -o '[0-9.]* ms') \
$(grep -o 'one device: [0-9.]*' $R/g2-$build-$round.log) $(grep -o 'not hidden [0-9.]*' $R/g2-$build-$round.log) \
parts $(grep -E '^[01] ' $R/g2-$build-$round.log | awk '{print $NF}' | tr '\n' ' ')"; done; done
