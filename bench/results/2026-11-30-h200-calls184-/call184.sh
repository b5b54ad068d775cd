#!/usr/bin/env bash
# Device call 184 (one H200): the degree ordering (columns by decreasing entries, rows by decreasing length;
# SPMV_EXP_DEGREE_ROWS=0 keeps the rows) on issue 18's R-MATs and graph-like real matrices replicated, against
# the same kernels and cuSPARSE on the matrix as it is, in the same call, f64 and f32.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c184.txz
O=$OUT/r; mkdir -p $O
kernels=csr-adaptive,csr-hub,csr-merge
bench_orders() {  # NAME PRECISION SOURCE...
  local name=$1 p=$2; shift 2
  for order in none degree cols; do
    local reorder=$order rows=1
    if [ $order = cols ]; then reorder=degree; rows=0; fi
    SPMV_EXP_DEGREE_ROWS=$rows timeout 60 $B/spmv bench "$@" --backend cuda --kernels $kernels --precision $p \
      --runs 20 --reorder $reorder --json $O/$name-$p-$order.json > $O/$name-$p-$order.txt 2>&1
  done
}
for p in f64 f32; do
  for spec in scale=16,edge_factor=8 scale=18,edge_factor=16 scale=20,edge_factor=4 scale=20,edge_factor=16 \
              scale=22,edge_factor=8 scale=22,edge_factor=16; do
    bench_orders rmat-$(echo $spec | tr -d 'a-z_=' | tr ',' '-') $p --gen rmat:$spec
  done
  echo "rmat $p at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
for unit in wiki_Vote:271 ct2010:72 PGPgiantcompo:487 email_Enron:75 lp_dfl001:658; do
  bench_orders ${unit%%:*} f32 $M/${unit%%:*}.mtx --copies ${unit##*:}
done
echo "real at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
python3 bench/results/2026-11-30-h200-calls184-/orders.py $O
pack_results 184
