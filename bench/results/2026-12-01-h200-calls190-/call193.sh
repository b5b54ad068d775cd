#!/usr/bin/env bash
# Device call 193 (one H200): the shipped SpMM model's own choice (auto) measured, beside every SpMM kernel and
# cuSPARSE's SpMM algorithms, on matrices no training used: spmm-real12.txt replicated to 4x the L2, k = 8, both
# layouts, f32, until its time limit; then spmm-unseen2.txt at k = 32, both layouts, f32. The build is the final
# code's spmv (.device-build/c193.txz: new/spmv and new/metis); .device-data/ holds the twelve real matrices.
set -u
R=bench/results/2026-12-01-h200-calls190-
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared/matrices
xz -dc .device-build/c193.txz | tar xf - -C /tmp/b
cp .device-data/*.mtx.gz /tmp/shared/matrices/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
common="--backend cuda --kernels all --precision f32 --layouts row,col --runs 10 --warmup 2 --host-runs 0 --expected-products 1e6"
timeout 80 $B/spmv suite $R/spmm-real12.txt --sets replicated --k 8 $common --time-limit 60 --out $O/real > $O/real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 45 $B/spmv suite --families $R/spmm-unseen2.txt --sets family --k 32 $common --time-limit 35 --out $O/unseen \
  > $O/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for d in real unseen; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 6 > $O/$d-auto.md 2>&1
  gzip -9 $O/$d/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt
for d in real unseen; do grep '^| [a-z]\|^- ' $O/$d-auto.md | grep -v '^| set'; done
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call193-results.tgz
