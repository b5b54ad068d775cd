#!/usr/bin/env bash
# Device call 117 (one H100): build 0b5c4ec (the plan's analysis walks rows in chunks, counts as it marks, a thread
# per 2^16 entries). The GPU suite (small data set, every 8th real matrix); the default plan's row of
# bench_format_builds on the five families, f64 and f32, this build against 4f28524 (call 116's build, the analysis
# before) interleaved, two rounds; the analysis alone by thread count.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results117; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab117.txz -C /tmp
tar xJf .device-build/ab116.txz -C /tmp n116/bench_format_builds
B=/tmp/n117
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 250 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for round in 1 2; do
  for p in f64 f32; do
    for build in n116 n117; do
      timeout 75 /tmp/$build/bench_format_builds $p --default-only $specs > $R/builds-$p-$build-$round.txt \
        2> $R/builds-$p-$build-$round.jsonl
      echo "builds $p $build round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
    done
  done
done
timeout 90 $B/prof_new uniform:rows=4000000,cols=4000000,per_row=16 stencil5:nx=3000,ny=3000 > $R/prof.txt 2>&1
echo "prof exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for round in 1 2; do for p in f64 f32; do for build in n116 n117; do echo "== $p $build round $round"
    grep -E "^[a-z0-9]+:.*(f32|f64) \(|default:|choosing" $R/builds-$p-$build-$round.txt | sed 's/^  (//'; done; done; done
  grep "cold=0" $R/prof.txt | sed 's/  */ /g'
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results117.tgz results117)
cat $OUT/summary.txt
