#!/usr/bin/env bash
# Device call 98 (one H100): the working tree on 1d43638 (the scattered diagonal count by slices of the
# threads' own, ELL's and HYB's refusals judged from the plan's analysis). The analysis by part with the
# library before (e90beb1) and after, 16 threads; the default plan()'s parts (setup_parts.cpp) on uniform,
# R-MAT and the 27-point stencil; then the GPU suite (small data set, every 8th real matrix).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results98; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab98.txz -C /tmp
B=/tmp/n98
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
specs="uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16"
for v in old new; do OMP_NUM_THREADS=16 timeout 60 $B/analysis_parts_$v $specs > $R/analysis-$v.txt 2>&1; done
echo "analysis done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
OMP_NUM_THREADS=16 timeout 120 $B/setup_parts98 $specs stencil27:n=150 > $R/setup-parts.txt 2>&1
echo "setup_parts exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=16 \
  timeout 300 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; echo "== analysis, old"; cat $R/analysis-old.txt; echo "== analysis, new"; cat $R/analysis-new.txt
  echo "== setup parts"; grep -E "default|alone|model|properties" $R/setup-parts.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log; } > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results98.tgz results98)
cat $OUT/summary.txt
