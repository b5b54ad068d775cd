#!/usr/bin/env bash
# Device call 103 (one H100): build 1d896e9+ (HYB and BRO-HYB skip the tail's pass where no row is longer than K).
# The GPU suite (small data set, every 8th real matrix); bench_format_builds f64 and f32 on the five large
# families with this build, and f32 with call 101's build (before the change) for the same run's comparison.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results103; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab103.txz -C /tmp; tar xJf .device-build/ab101.txz -C /tmp
B=/tmp/n103
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 220 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for run in new-f32 old-f32 new-f64; do
  b=$B; [ ${run%-*} = old ] && b=/tmp/n101
  timeout 100 $b/bench_format_builds ${run#*-} $specs > $R/builds-$run.txt 2> $R/builds-$run.jsonl
  echo "builds $run exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for run in new-f32 old-f32 new-f64; do echo "== $run"
    grep -E "^[a-z0-9]+:.*(f32|f64) \(|^auto|^(dia|sell|bro-ell|bro-hyb|ellr-t|hyb|blocked|coo|ell|segmented-scan|bro-coo) " $R/builds-$run.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results103.tgz results103)
cat $OUT/summary.txt
