#!/usr/bin/env bash
# Device call 114 (one H100): build cd1a363 (csr-hub's candidate hub columns found on the device). The GPU suite
# (small data set, every 8th real matrix), then the full builds table on uniform and R-MAT f64, this build beside
# 7b4e065 (call 113's), for csr-hub's setup before and after.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results114; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab114.txz -C /tmp
tar xJf .device-build/ab113.txz -C /tmp n113/bench_format_builds
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/n114/spmv \
  timeout 250 /tmp/n114/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for build in n114 n113; do
  timeout 100 /tmp/$build/bench_format_builds f64 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 \
    > $R/builds-all-f64-$build.txt 2> $R/builds-all-f64-$build.jsonl
  echo "full builds table $build exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for build in n114 n113; do echo "$build"; grep -E "^[a-z0-9]+:.*f64 \(|^(csr-adaptive|csr-hub|csr-vector) |cusparse \(setup\)" $R/builds-all-f64-$build.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results114.tgz results114)
cat $OUT/summary.txt
