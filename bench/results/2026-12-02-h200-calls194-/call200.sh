#!/usr/bin/env bash
# Device call 200 (one H200): A^T's plan in the measure mode (spmv plan --explicit-transpose --measure) on the
# units of call 196 where the model's choice for A^T missed: does timing its best candidates and cuSPARSE's best
# fix them, and with how many products? .device-build/c199.txz (call 199's build).
set -u
R=bench/results/2026-12-02-h200-calls194-
rm -rf /tmp/b && mkdir -p /tmp/b && xz -dc .device-build/c199.txz | tar xf - -C /tmp/b
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for unit in kdd_like:classification:rows=2000000,cols=127,per_row=12 a9a_like:classification:rows=1000000,cols=123,per_row=14 \
            news20_like:classification:rows=20000,cols=1300000,per_row=450 \
            huge_1m:fewhuge:rows=1000000,cols=1000000,per_row=4,huge_rows=4,huge_length=500000; do
  for p in f64 f32; do
    timeout 60 $B/spmv plan --gen "${unit#*:}" --precision $p --explicit-transpose --measure --expected-products 1000 \
      --plan-cache $O/plans.jsonl --json > $O/${unit%%:*}-$p.json 2> $O/${unit%%:*}-$p.log
    echo "${unit%%:*} $p exit $?" >> $OUT/times.txt
  done
done
python3 $R/measured_table.py $O/*-f??.json > $O/measured.md 2>&1
cat $OUT/gpu.txt $OUT/times.txt $O/measured.md
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call200-results.tgz
