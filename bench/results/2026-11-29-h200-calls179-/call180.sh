#!/usr/bin/env bash
# Device call 180 (one H200): as call 179, but the kernel capped at 32 registers (__launch_bounds__(block, 2048 /
# block); call 179's loop had raised f32 128 x 8 from 32 to 56 registers, f64 128 x 4 to 40) and against main's
# build (old/) in the same call: R-MAT families, then the 56 real matrices replicated, f32, then f64 while time
# lasts; old, then new at 1, 2 and 3 row blocks in turn, each `spmv bench` with cuSPARSE's algorithms in the same run.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c180.txz
O=$OUT/r; mkdir -p $O
turns() {  # PRECISION TAG SOURCE-ARGS...
  local p=$1 tag=$2; shift 2
  timeout 40 /tmp/b/old/spmv bench "$@" --backend cuda --kernels csr-adaptive --precision $p --runs 20 \
    --json $O/ab-$tag-$p-old.json > $O/ab-$tag-$p-old.txt 2>&1
  for t in 1 2 3; do
    timeout 40 $B/spmv bench "$@" --backend cuda --kernels csr-adaptive --params row_blocks_in_turn=$t \
      --precision $p --runs 20 --json $O/ab-$tag-$p-t$t.json > $O/ab-$tag-$p-t$t.txt 2>&1
  done
}
for g in rmat:scale=16,edge_factor=8 rmat:scale=18,edge_factor=16 rmat:scale=20,edge_factor=4 \
         rmat:scale=20,edge_factor=16 rmat:scale=22,edge_factor=8 rmat:scale=22,edge_factor=16; do
  turns f32 $(echo $g | tr ':=,' '___') --gen $g
done
echo "rmat done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for p in f32 f64; do
  grep -v "^#" bench/results/2026-11-29-h200-calls167-/replicated-units.txt | while read -r name copies; do
    turns $p $name $M/$name.mtx --copies $copies
    [ $(( $(date +%s) - t0 )) -gt 480 ] && break
  done
  echo "$p done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
cat $OUT/gpu.txt $OUT/times.txt
pack_results 180
