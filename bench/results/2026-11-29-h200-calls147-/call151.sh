#!/usr/bin/env bash
# Device call 151 (one H200): the default choice (auto) of the library before this stop (base = 5450b48: csr-adaptive
# with one entry per load, the model before) and of this stop's (new: wide loads, the model retrained on calls
# 148-149 with units lacking csr-adaptive's present time left out of the judgement), one after the other, beside
# csr-adaptive and cuSPARSE's algorithms, at 10^6 expected products (the product alone decides): the real matrices
# as they are and replicated, bench/families.txt, and the twelve matrices of call 118 (unseen in training).
set -u
R=bench/results/2026-11-29-h200-calls147-
mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c151.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6"
for v in base new; do
  B=/tmp/b/$v; O=$OUT/$v; mkdir -p $O
  export LD_LIBRARY_PATH=$B/metis
  timeout 150 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 130 --out $O/real \
    > $O/real.log 2>&1
  timeout 60 $B/spmv suite --families bench/families.txt $common --time-limit 50 --out $O/families > $O/families.log 2>&1
  timeout 60 $B/spmv suite --families .device-build/unseen12.txt $common --time-limit 50 --out $O/unseen \
    > $O/unseen.log 2>&1
  echo "$v done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
cat $OUT/gpu.txt $OUT/times.txt
for v in base new; do for d in real families unseen; do
  python3 bench/auto_vs_cusparse.py $OUT/$v/$d/results.jsonl --worst 4 > $OUT/$v/$d-auto.md 2>&1
  echo "== $v $d"; sed -n 3,6p $OUT/$v/$d-auto.md | grep "^|"
  gzip -9 $OUT/$v/$d/results.jsonl
done; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call151-results.tgz
