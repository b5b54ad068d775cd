#!/usr/bin/env bash
# Device call 104 (one H100): build 90c7bf5 (the selector model's kernels read in parallel). The process's
# first plan and the default rows of bench_format_builds f64 and f32 (make_plan + make_operator, what choosing
# adds to plan()) with this build and with call 103's, alternated; then the GPU suite on this build.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results104; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab104.txz -C /tmp; tar xJf .device-build/ab103.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for round in 1 2; do for b in n103 n104; do for p in f64 f32; do
  timeout 60 /tmp/$b/bench_format_builds $p --default-only $specs > $R/default-$b-$p-$round.txt 2>&1
  echo "default $b $p round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done; done; done
B=/tmp/n104
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 220 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/default-*.txt; do echo "== $(basename $f .txt)"; grep -E "first plan|^[a-z0-9]+:.*(f32|f64) \(|  \(" $f; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results104.tgz results104)
grep -E "PASSED|FAILED|^exit|first plan" $OUT/summary.txt
