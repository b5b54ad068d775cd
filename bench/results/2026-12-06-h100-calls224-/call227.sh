#!/usr/bin/env bash
# Device call 227: call 226's replicated run in f64 (every kernel and auto beside cuSPARSE's algorithms, 10^6
# expected products), for issue 18's "f64 stays >= 1.23x".
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c224.txz
O=$OUT/r; mkdir -p $O
timeout 330 $B/spmv suite $M --sets replicated --backend cuda --kernels all --precision f64 --runs 20 --host-runs 0 \
  --expected-products 1e6 --time-limit 300 --out $O/replicated-f64-all > $O/replicated-f64-all.log 2>&1
echo "replicated f64, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
python3 bench/auto_vs_cusparse.py $O/replicated-f64-all/results.jsonl --worst 8 > $O/replicated-f64-all-auto.md 2>&1
gzip -9 $O/replicated-f64-all/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt; tail -n 1 $O/replicated-f64-all.log; grep "^| [a-z]" $O/replicated-f64-all-auto.md
pack_results 227
