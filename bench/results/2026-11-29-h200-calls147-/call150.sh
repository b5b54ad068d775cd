#!/usr/bin/env bash
# Device call 150 (one H200): the default choice (auto) with the model retrained on call 149's csr-adaptive, beside
# csr-adaptive itself and cuSPARSE's algorithms, at 10^6 expected products (the product alone decides): the real
# matrices as they are and replicated, bench/families.txt, and the twelve matrices of call 118 (unseen in training).
set -u
R=bench/results/2026-11-29-h200-calls147-
mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c150.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6"
timeout 200 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 180 --out $OUT/real \
  > $OUT/real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 150 $B/spmv suite --families bench/families.txt $common --time-limit 130 --out $OUT/families \
  > $OUT/families.log 2>&1
echo "families exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 150 $B/spmv suite --families .device-build/unseen12.txt $common --time-limit 130 --out $OUT/unseen \
  > $OUT/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
for d in real families unseen; do
  python3 bench/auto_vs_cusparse.py $OUT/$d/results.jsonl --worst 4 > $OUT/$d-auto.md 2>&1
  python3 $R/best_vs_cusparse.py $OUT/$d/results.jsonl > $OUT/$d-best.txt 2>&1
  head -12 $OUT/$d-auto.md; grep -v "^  " $OUT/$d-best.txt
  gzip -9 $OUT/$d/results.jsonl
done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call150-results.tgz
