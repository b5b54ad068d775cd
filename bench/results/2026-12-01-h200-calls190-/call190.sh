#!/usr/bin/env bash
# Device call 190 (one H200): training data. Every kernel and auto at 10^6 expected products on fewrows14.txt
# (f64, f32: the SpMV selector's held-out worst shapes), then every SpMM kernel and cuSPARSE's SpMM algorithms on
# spmm30.txt for k = 4 and 16, B and C row- and column-major, f64 and f32 (10 timed runs each), until the time
# limit. The build (main with `spmv suite --layouts`) is .device-build/c190.txz: new/spmv and new/metis.
set -u
R=bench/results/2026-12-01-h200-calls190-
rm -rf /tmp/b && mkdir -p /tmp/b && xz -dc .device-build/c190.txz | tar xf - -C /tmp/b
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 100 $B/spmv suite --families $R/fewrows14.txt --sets family --backend cuda --kernels all \
  --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 85 --out $O/fewrows > $O/fewrows.log 2>&1
echo "fewrows exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 440 $B/spmv suite --families $R/spmm30.txt --sets family --backend cuda --kernels all --k 4,16 \
  --layouts row,col --precision f64,f32 --runs 10 --warmup 2 --host-runs 0 --time-limit 400 --out $O/spmm \
  > $O/spmm.log 2>&1
echo "spmm exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for d in fewrows spmm; do
  tail -c 600 $O/$d.log; echo
  grep -c '"status": "ok"\|"status":"ok"' $O/$d/results.jsonl
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 8 > $O/$d-auto.md 2>&1
  gzip -9 $O/$d/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call190-results.tgz
