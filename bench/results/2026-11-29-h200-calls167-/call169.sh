#!/usr/bin/env bash
# Device call 169 (one H200): csr-adaptive's counters (ncu, call 168's metrics) at 128 x 8 and 256 x 8 on wiki_Vote
# x 271 and ct2010 x 72, f32; then the 56 real matrices replicated (replicated-units.txt), f32, at 128x8v4 (the
# default), 256x8v4 and 256x12v4, each `spmv bench` with cuSPARSE's algorithms in the same run.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c167.txz
R=bench/results/2026-11-29-h200-calls167-
O=$OUT/r; mkdir -p $O
m=$(grep -o "^m=.*" $R/call168.sh | cut -c3-)
for mc in wiki_Vote:271 ct2010:72; do
  for s in 128:8 256:8; do
    timeout 60 ncu --clock-control none --kernel-name regex:csr_adaptive --launch-count 2 --metrics $m --csv \
      $B/spmv bench $M/${mc%%:*}.mtx --copies ${mc##*:} --backend cuda --kernels csr-adaptive --precision f32 \
      --params block_size=${s%%:*},items_per_thread=${s##*:} --runs 2 --warmup 1 \
      > $O/ncu-${mc%%:*}-${s/:/x}.csv 2> $O/ncu-${mc%%:*}-${s/:/x}.err
    echo "ncu ${mc%%:*} $s exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  done
done
grep -v "^#" $R/replicated-units.txt | while read -r name copies; do
  for s in 128:8:4 256:8:4 256:12:4; do
    IFS=: read -r bs it vw <<< "$s"
    time_shape $name $copies ${bs}x${it}v$vw block_size=$bs,items_per_thread=$it,vector_width=$vw
  done
  [ $(( $(date +%s) - t0 )) -gt 420 ] && break
done
echo "shapes done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
pack_results 169
