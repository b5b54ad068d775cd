#!/usr/bin/env bash
# Device call 178 (one H200): auto with the final library (d506ff5; the model of 976fec4) at 10^6 expected
# products beside csr-adaptive and cuSPARSE's algorithms, as call 167: the real matrices as they are and
# replicated, bench/families.txt, the R-MATs of calls 160-166.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c178.txz gzip
O=$OUT/new; mkdir -p $O
auto_suite real 90 110 /tmp/shared/matrices --sets real,replicated
auto_suite families 80 90 --families bench/families.txt
auto_suite rmat 40 50 --families bench/results/2026-11-29-h200-calls160-/rmat.txt
cat $OUT/gpu.txt $OUT/times.txt
for d in real families rmat; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 6 > $O/$d-auto.md 2>&1
  echo "== $d"; grep "^| [a-z]" $O/$d-auto.md | grep -v "^| set"; grep "^- " $O/$d-auto.md | head -4
  gzip -9 $O/$d/results.jsonl
done
pack_results 178
