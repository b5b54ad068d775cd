#!/usr/bin/env bash
# Device call 178 (one H200): auto with the final library (d506ff5; the model of 976fec4) at 10^6 expected
# products beside csr-adaptive and cuSPARSE's algorithms, as call 167: the real matrices as they are and
# replicated, bench/families.txt, the R-MATs of calls 160-166.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c178.txz gzip
O=$OUT/new; mkdir -p $O
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6"
timeout 110 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 90 --out $O/real \
  > $O/real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 90 $B/spmv suite --families bench/families.txt $common --time-limit 80 --out $O/families > $O/families.log 2>&1
echo "families exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 50 $B/spmv suite --families bench/results/2026-11-29-h200-calls160-/rmat.txt $common --time-limit 40 \
  --out $O/rmat > $O/rmat.log 2>&1
echo "rmat exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
for d in real families rmat; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 6 > $O/$d-auto.md 2>&1
  echo "== $d"; grep "^| [a-z]" $O/$d-auto.md | grep -v "^| set"; grep "^- " $O/$d-auto.md | head -4
  gzip -9 $O/$d/results.jsonl
done
pack_results 178
