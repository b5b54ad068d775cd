#!/usr/bin/env bash
# Device calls 187 and 188 (one H200): plans for SpMM (spmv plan --k K --measure): every SpMM kernel of ours and
# cuSPARSE's SpMM algorithms built and timed for K columns, f64 and f32, 10^3 expected products; then the whole GPU
# suite (every 8th real matrix).
#   bash spmm_calls.sh ARCHIVE CALL    (call 187: c187.txz 187, before the long rows' kernel; 188: c188.txz 188)
source bench/results/2026-11-29-h200-calls167-/device_setup.sh $1 gzip
call=$2
O=$OUT/r; mkdir -p $O
spmm_plan() {  # NAME SPEC K LAYOUT PRECISION
  timeout 60 $B/spmv plan --gen $2 --k $3 --layout $4 --precision $5 --measure --expected-products 1e3 \
    --plan-cache $O/plans.jsonl > $O/plan-$1-k$3-$4-$5.txt 2>&1
  echo "plan $1 k=$3 $4 $5 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}
for p in f64 f32; do
  spmm_plan s27 stencil27:n=100 4 row $p
  spmm_plan s27 stencil27:n=100 8 col $p
  spmm_plan s27 stencil27:n=100 32 row $p
  spmm_plan uni uniform:rows=2000000,cols=2000000,per_row=16 4 row $p
  spmm_plan uni uniform:rows=2000000,cols=2000000,per_row=16 32 row $p
  spmm_plan rmat rmat:scale=20,edge_factor=16 8 row $p
  spmm_plan cls classification:rows=1000000,cols=2000,per_row=30 16 col $p
  if [ $call -ge 188 ]; then  # graphs' hubs and a few huge rows, in both layouts
    spmm_plan rmat rmat:scale=20,edge_factor=16 16 col $p
    spmm_plan huge fewhuge:rows=2000000,cols=2000000,per_row=8,huge_rows=16,huge_length=500000 8 row $p
  fi
done
gpu_suite 330
tail -3 $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
python3 bench/results/2026-11-30-h200-calls184-/spmm_plans.py $O
pack_results $call
