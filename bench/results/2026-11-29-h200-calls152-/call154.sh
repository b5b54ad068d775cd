#!/usr/bin/env bash
# Device call 154 (one H200): the default choice (auto) of the library at the start of this stop (base = 90dd946:
# csr-adaptive's 1,024-entry f32 row blocks on every matrix, the model of calls 148-149) and of this stop's (new:
# row blocks of 256 or 512 entries where the matrix gives fewer than 8 per SM, the model retrained on call 153),
# one after the other, beside csr-adaptive and cuSPARSE's algorithms, at 10^6 expected products (the product alone
# decides): the real matrices as they are and replicated, bench/families.txt, and the twelve matrices of call 118
# (unseen in training). Then every kernel of the new library on the twelve unseen matrices (the ideal).
set -u
R=bench/results/2026-11-29-h200-calls152-
mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c154.txz | tar xf - -C /tmp/b
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
B=/tmp/b/new; export LD_LIBRARY_PATH=$B/metis
timeout 230 $B/spmv suite --families .device-build/unseen12.txt --backend cuda --kernels all --precision f64,f32 \
  --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 210 --out $OUT/new/unseen-all \
  > $OUT/new/unseen-all.log 2>&1
echo "unseen, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
python3 bench/auto_vs_cusparse.py $OUT/new/unseen-all/results.jsonl --worst 6 > $OUT/new/unseen-all-auto.md 2>&1
gzip -9 $OUT/new/unseen-all/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
sed -n 3,6p $OUT/new/unseen-all-auto.md
for v in base new; do for d in real families unseen; do
  python3 bench/auto_vs_cusparse.py $OUT/$v/$d/results.jsonl --worst 4 > $OUT/$v/$d-auto.md 2>&1
  echo "== $v $d"; sed -n 3,6p $OUT/$v/$d-auto.md | grep "^|"
  gzip -9 $OUT/$v/$d/results.jsonl
done; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call154-results.tgz
