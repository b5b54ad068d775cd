#!/usr/bin/env bash
# Device call 167 (one H200): auto with the model shipped at 976fec4 (retrained on call 166's csr-adaptive),
# 10^6 expected products, beside csr-adaptive and cuSPARSE's algorithms: the real matrices as they are and
# replicated, bench/families.txt (fewhuge included), the twelve unseen matrices and the R-MATs of calls 160-166;
# then every kernel on the twelve unseen matrices (the ideal). Run from the repository root.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c167.txz gzip
O=$OUT/new; mkdir -p $O
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6"
timeout 100 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 80 --out $O/real \
  > $O/real.log 2>&1
timeout 80 $B/spmv suite --families bench/families.txt $common --time-limit 70 --out $O/families > $O/families.log 2>&1
timeout 50 $B/spmv suite --families .device-build/unseen12.txt $common --time-limit 40 --out $O/unseen \
  > $O/unseen.log 2>&1
timeout 40 $B/spmv suite --families bench/results/2026-11-29-h200-calls160-/rmat.txt $common --time-limit 30 \
  --out $O/rmat > $O/rmat.log 2>&1
echo "auto done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 80 $B/spmv suite --families .device-build/unseen12.txt --backend cuda --kernels all --precision f64,f32 \
  --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 70 --out $O/unseen-all > $O/unseen-all.log 2>&1
echo "unseen, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
for d in real families unseen rmat unseen-all; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 6 > $O/$d-auto.md 2>&1
  echo "== $d"; grep "^| [a-z]" $O/$d-auto.md | grep -v "^| set"
  gzip -9 $O/$d/results.jsonl
done
pack_results 167
