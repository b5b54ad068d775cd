#!/usr/bin/env bash
# Device call 27 (2 GPUs): the distributed tests (NCCL transport, SpMM) on every GPU, then NCCL against
# CUDA copies (pull, push, queued) on the 150^3 stencil and R-MAT 22 on 2 GPUs.
set -u
t0=$(date +%s)
tar xJf .device-build/g27.txz
export OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$PWD/.device-data/data
R=/tmp/results; mkdir -p $R/json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; nvidia-smi topo -m >> $R/gpu.txt 2>&1
(SPMV_REQUIRE_GPU=1 timeout 200 build/tests/spmv_gpu_tests --gtest_filter='GpuDistributed.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
bench() { local name=$1; shift
  local left=$(( t0 + ${DEADLINE:-560} - $(date +%s) ))
  [ $left -lt 20 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left build/spmv bench "$@" --expected-products 1e6 --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
source .device-build/$CASES
{ cat $R/gpu.txt | head -5; cat $R/timeline.txt
  grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) |^exit' $R/gpu-tests.log | cut -c1-150
  for f in $R/*.log; do case $f in *gpu-tests*) continue;; esac; echo "== $(basename $f .log)"; grep -E '^steps|^capture|one part|efficiency|beyond|exchange:|FAILED' $f; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
