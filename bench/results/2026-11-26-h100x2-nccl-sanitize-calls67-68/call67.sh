#!/usr/bin/env bash
# Device call 67 (two H100s): the build of d7d301f: the multi-GPU tests (GpuDistributed.*, NCCL among
# them) under compute-sanitizer initcheck and memcheck with two GPUs; then the 27-point stencil 150^3,
# f64, halo exchange, on one and two GPUs, three rounds (issue 16's efficiency, with the retrained model
# planning the parts).
set -u
t0=$(date +%s)
R=/tmp/results67; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab67.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -3; } > $R/gpu.txt 2>&1
for tool in initcheck memcheck; do
  SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/new/spmv timeout 100 compute-sanitizer --tool $tool \
    /tmp/new/spmv_gpu_tests --gtest_filter='GpuDistributed.*' > $R/$tool.log 2>&1
  echo "$tool exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
for round in 1 2 3; do
  timeout 60 /tmp/new/spmv bench --gen stencil27:n=150 --gpus 2 --expected-products 1e6 --runs 20 \
    --json $R/json/g2-f64-$round.json > $R/g2-f64-$round.log 2>&1
  echo "round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt
  for tool in initcheck memcheck; do echo "== $tool"; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|ERROR SUMMARY|SKIPPED' $R/$tool.log; done
  for f in $R/g2-*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:|FAILED|^[0-9] ' $f; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
