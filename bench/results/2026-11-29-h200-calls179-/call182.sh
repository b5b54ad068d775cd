#!/usr/bin/env bash
# Device call 182 (one H200): every kernel and auto, 10^6 expected products, on thirteen generated matrices no
# earlier run measured (unseen13.txt), f64 and f32, cuSPARSE in the same run; the library of call 181's new/.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c181.txz
O=$OUT/r; mkdir -p $O
R=bench/results/2026-11-29-h200-calls179-
timeout 300 $B/spmv suite --families $R/unseen13.txt --backend cuda --kernels all --precision f64,f32 \
  --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 250 --out $O/unseen13-all > $O/unseen13-all.log 2>&1
echo "unseen13, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
python3 bench/auto_vs_cusparse.py $O/unseen13-all/results.jsonl --worst 8 > $O/unseen13-all-auto.md 2>&1
gzip -9 $O/unseen13-all/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt $O/unseen13-all-auto.md
pack_results 182
