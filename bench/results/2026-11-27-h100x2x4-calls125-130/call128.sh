#!/usr/bin/env bash
# Device call 128 (four GPUs): the interior takes the whole local block's kernel (n128) against 053d8f9
# (o125); fe4be4b (n126) once. The distributed GPU tests with four GPUs; then the 27-point stencil 150^3,
# f64, halo, by non-zeros, --gpus 4 and --gpus 2, both builds interleaved, three rounds each.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results128; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab125.txz -C /tmp; tar xJf .device-build/ab126.txz -C /tmp; tar xJf .device-build/ab128.txz -C /tmp
B=/tmp/n128
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -5; } > $R/gpu.txt 2>&1
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 150 $B/spmv_gpu_tests --gtest_filter='GpuDistributed*' > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
b() {  # log name, build, GPUs
  timeout 60 /tmp/$2/spmv bench --gen stencil27:n=150 --gpus $3 --expected-products 1e6 --runs 20 \
    --json $R/json/$1.json > $R/$1.log 2>&1
  echo "$1 exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
}
b g4-n126-1 n126 4
for round in 1 2 3; do b g4-o125-$round o125 4; b g4-n128-$round n128 4; done
for round in 1 2 3; do b g2-o125-$round o125 2; b g2-n128-$round n128 2; done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/g*.log; do echo "== $(basename $f .log)"; grep -E '^[0-3] |one part|efficiency|beyond|exchange:' $f; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results128.tgz results128)
head -14 $OUT/summary.txt
for f in $R/g*.log; do
  echo "$(basename $f .log) $(grep -o 'exchange + products): [0-9.]* ms' $f | grep -o '[0-9.]* ms') \
$(grep -o 'one device: [0-9.]*' $f) $(grep -o 'smaller parts [0-9.]*' $f | head -1) $(grep -o 'not hidden [0-9.]*' $f) \
$(grep -o 'measured/model [0-9.]*' $f) $(grep -E '^[0-3] ' $f | awk '{print $(NF-1)}' | tr '\n' ' ') parts $(grep -E '^[0-3] ' $f | awk '{print $NF}' | tr '\n' ' ')"; done
