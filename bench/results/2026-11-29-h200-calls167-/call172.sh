#!/usr/bin/env bash
# Device call 172 (one H200): the default SpMM built at the operator's first spmm() instead of in every plan that
# keeps the CSR. bench_format_builds' default plan (no kernel named, not spmv_only: plan() as a user calls it) on
# the five families of issue 12, before (old, a9bf3e9) and after (new), f32 and f64, two rounds interleaved;
# then the whole GPU suite on the new build.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c172.txz gzip
O=$OUT/r; mkdir -p $O
export OMP_NUM_THREADS=16
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16
rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for round in 1 2; do
  for v in new old; do
    for p in f32 f64; do
      timeout 60 /tmp/b/$v/bench_format_builds $p --default-only $specs > $O/builds-$v-$p-$round.txt \
        2> $O/builds-$v-$p-$round.jsonl
      echo "builds $v $p round $round exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
    done
  done
done
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 280 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
for f in $O/builds-*-1.txt $O/builds-*-2.txt; do echo "== $(basename $f .txt)"; grep -E "^auto:|^  \(plan\(\)" $f; done
pack_results 172
