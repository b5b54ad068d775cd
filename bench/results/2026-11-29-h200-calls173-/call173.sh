#!/usr/bin/env bash
# Device call 173 (one H200): ELLR-T's refusal check made cheap (accepted from the analysis where T = 32, the
# widest padding, is within the limit; else one parallel pass for the model's warp steps) and the default SpMM's
# ELLPACK-R copy built at the first narrow spmm() outside a graph capture (new), against main at d27dafa (old:
# the build of a9bf3e9, identical sources): bench_format_builds' default plan on issue 12's five families, f32
# and f64, two rounds interleaved; the whole GPU suite on new; every kernel and auto on the twelve unseen.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c173.txz gzip
O=$OUT/r; mkdir -p $O
export OMP_NUM_THREADS=16
for round in 1 2; do
  for v in new old; do
    for p in f32 f64; do default_builds $v $p $round; done
  done
done
gpu_suite 240
timeout 90 $B/spmv suite --families .device-build/unseen12.txt --backend cuda --kernels all --precision f64,f32 \
  --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 80 --out $O/unseen-all > $O/unseen-all.log 2>&1
echo "unseen, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
python3 bench/auto_vs_cusparse.py $O/unseen-all/results.jsonl --worst 6 > $O/unseen-all-auto.md 2>&1
gzip -9 $O/unseen-all/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
grep "^| [a-z]" $O/unseen-all-auto.md | grep -v "^| set"
for f in $O/builds-*-1.txt; do echo "== $(basename $f .txt)"; grep -E "^auto:|^  \(plan\(\)" $f; done
pack_results 173
