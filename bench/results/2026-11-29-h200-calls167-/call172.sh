#!/usr/bin/env bash
# Device call 172 (one H200): the default SpMM built at the operator's first spmm() instead of in every plan that
# keeps the CSR. bench_format_builds' default plan (no kernel named, not spmv_only: plan() as a user calls it) on
# the five families of issue 12, before (old, a9bf3e9) and after (new), f32 and f64, two rounds interleaved;
# then the whole GPU suite on the new build.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c172.txz gzip
O=$OUT/r; mkdir -p $O
export OMP_NUM_THREADS=16
for round in 1 2; do
  for v in new old; do
    for p in f32 f64; do default_builds $v $p $round; done
  done
done
gpu_suite 280
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
for f in $O/builds-*-1.txt $O/builds-*-2.txt; do echo "== $(basename $f .txt)"; grep -E "^auto:|^  \(plan\(\)" $f; done
pack_results 172
