#!/usr/bin/env bash
# Device call 228: calls 226-227 again on an H200 (the shipped build, call 224's new/): every kernel and auto
# beside cuSPARSE's algorithms at 10^6 expected products on the six R-MATs (f64, f32) and the 56 real matrices
# replicated (f64, f32).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c224.txz
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-12-02-h200-calls197-/rmats6.txt rmats 100 130
for p in f32 f64; do
  timeout 330 $B/spmv suite $M --sets replicated --backend cuda --kernels all --precision $p --runs 20 --host-runs 0 \
    --expected-products 1e6 --time-limit 300 --out $O/replicated-$p-all > $O/replicated-$p-all.log 2>&1
  echo "replicated $p, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  python3 bench/auto_vs_cusparse.py $O/replicated-$p-all/results.jsonl --worst 8 > $O/replicated-$p-all-auto.md 2>&1
  gzip -9 $O/replicated-$p-all/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt; for f in $O/*.log; do tail -n 1 $f; done
for f in $O/*-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; done
pack_results 228
