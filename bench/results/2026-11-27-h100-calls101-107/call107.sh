#!/usr/bin/env bash
# Device call 107 (one H100): the first plan of a process reads the selector model on another thread while it
# measures the device. The process's first plan with call 104's build (90c7bf5) and this one, alternated, six
# processes each (bench_format_builds --default-only on a small stencil); then the GPU suite on this build.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results107; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab104.txz -C /tmp; tar xJf .device-build/ab107.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for round in 1 2 3 4 5 6; do for b in n104 n107; do
  timeout 30 /tmp/$b/bench_format_builds f64 --default-only stencil5:nx=300,ny=300 > $R/first-$b-$round.txt 2>&1
done; done
echo "first plans done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
B=/tmp/n107
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 220 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for b in n104 n107; do echo "== $b"; grep -h "first plan" $R/first-$b-*.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results107.tgz results107)
cat $OUT/summary.txt
