#!/usr/bin/env bash
# Device call 179 (one H200): csr-adaptive multiplying 1, 2 or 4 consecutive row blocks per thread block
# (row_blocks_in_turn), its default shape otherwise, on the 56 real matrices replicated (f32, then f64 while time
# lasts) and the R-MAT families, each `spmv bench` with cuSPARSE's algorithms in the same run.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c179.txz
O=$OUT/r; mkdir -p $O
turns() {  # PRECISION SOURCE-ARGS... ; TAG from the matrix name
  local p=$1 tag=$2; shift 2
  for t in 1 2 4; do
    timeout 40 $B/spmv bench "$@" --backend cuda --kernels csr-adaptive --params row_blocks_in_turn=$t \
      --precision $p --runs 20 --json $O/ab-$tag-$p-t$t.json > $O/ab-$tag-$p-t$t.txt 2>&1
  done
}
for g in rmat:scale=16,edge_factor=8 rmat:scale=18,edge_factor=16 rmat:scale=20,edge_factor=4 \
         rmat:scale=20,edge_factor=16 rmat:scale=22,edge_factor=8 rmat:scale=22,edge_factor=16; do
  for p in f32 f64; do turns $p $(echo $g | tr ':=,' '___') --gen $g; done
done
echo "rmat done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for p in f32 f64; do
  grep -v "^#" bench/results/2026-11-29-h200-calls167-/replicated-units.txt | while read -r name copies; do
    turns $p $name $M/$name.mtx --copies $copies
    [ $(( $(date +%s) - t0 )) -gt 500 ] && break
  done
  echo "$p done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
cat $OUT/gpu.txt $OUT/times.txt
pack_results 179
