#!/usr/bin/env bash
# Device call 130 (four GPUs): the final build (n130: edges on the exchange stream for parts receiving
# from one owner, the interior on the whole local block's backend and kernel) against 053d8f9 (o125). The
# GPU suite (small data set, every 8th real matrix) on four GPUs; then the 27-point stencil 150^3, f64, halo,
# by non-zeros, --gpus 4 (two rounds) and --gpus 2 (three rounds), interleaved.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results130; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab125.txz -C /tmp; tar xJf .device-build/ab130.txz -C /tmp
B=/tmp/n130
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -5; } > $R/gpu.txt 2>&1
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 280 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
b() {  # log name, build, GPUs
  timeout 60 /tmp/$2/spmv bench --gen stencil27:n=150 --gpus $3 --expected-products 1e6 --runs 20 \
    --json $R/json/$1.json > $R/$1.log 2>&1
  echo "$1 exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
}
for round in 1 2; do b g4-o125-$round o125 4; b g4-n130-$round n130 4; done
for round in 1 2 3; do b g2-o125-$round o125 2; b g2-n130-$round n130 2; done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/g*.log; do echo "== $(basename $f .log)"; grep -E '^[0-3] |one part|efficiency|beyond|exchange:' $f; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results130.tgz results130)
head -14 $OUT/summary.txt
for f in $R/g*.log; do
  echo "$(basename $f .log) $(grep -o 'exchange + products): [0-9.]* ms' $f | grep -o '[0-9.]* ms') \
$(grep -o 'one device: [0-9.]*' $f) $(grep -o 'smaller parts [0-9.]*' $f | head -1) $(grep -o 'not hidden [0-9.]*' $f) \
$(grep -o 'measured/model [0-9.]*' $f) $(grep -E '^[0-3] ' $f | awk '{print $(NF-1)}' | tr '\n' ' ') parts $(grep -E '^[0-3] ' $f | awk '{print $NF}' | tr '\n' ' ')"; done
grep -E "^\[  (PASSED|FAILED)|^exit" $R/gpu-tests.log
