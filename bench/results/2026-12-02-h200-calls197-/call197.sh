#!/usr/bin/env bash
# Device call 197 (one H200): does a neighbourhood-keeping order (RCM, which the operators already offer) help where
# the x gathers bound every kernel? Issue 18's nine graph-like real matrices replicated to 4x the L2 (nine.txt, f32)
# and its six R-MATs (rmats6.txt, f64 and f32): `spmv bench` of csr-adaptive and csr-hub, with cuSPARSE's
# algorithms in the same run, on the matrix as it is and on the RCM order (x gathered and y scattered by the
# operator, timed with the product; cuSPARSE planned on the reordered matrix too). The first try of this call
# passed --reorder to `spmv suite`, which has no such option, and stopped at once.
# .device-build/c197.txz holds new/ (spmv, metis); .device-data/ the nine matrices.
set -u
R=bench/results/2026-12-02-h200-calls197-
rm -rf /tmp/b && mkdir -p /tmp/b
xz -dc .device-build/c197.txz | tar xf - -C /tmp/b
B=/tmp/b/new; O=$OUT/r; mkdir -p $O/none $O/rcm
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
common="--backend cuda --kernels csr-adaptive,csr-hub --runs 10 --warmup 2 --expected-products 1e6"
run() {  # NAME PRECISION INPUT...
  local name=$1 p=$2; shift 2
  for order in none rcm; do
    timeout 60 $B/spmv bench "$@" --precision $p --reorder $order $common --json $O/$order/$name-$p.json \
      > $O/$order/$name-$p.log 2>&1
    echo "$name $p $order exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  done
}
while read -r name copies; do
  case "$name" in ''|'#'*) continue ;; esac
  [ $(( $(date +%s) - t0 )) -gt 300 ] && break
  run $name f32 .device-data/$name.mtx.gz --copies $copies
done < $R/nine.txt
while read -r name spec; do
  case "$name" in ''|'#'*) continue ;; esac
  for p in f64 f32; do
    [ $(( $(date +%s) - t0 )) -gt 480 ] && break 2
    run $name $p --gen $spec
  done
done < $R/rmats6.txt
python3 $R/orders_table.py $O > $O/orders.md 2>&1
cat $OUT/gpu.txt $OUT/times.txt $O/orders.md
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call197-results.tgz
