#!/usr/bin/env bash
# Device call 170 (one H200): the whole GPU test suite on the build of call 167 (the model shipped at 976fec4);
# then csr-adaptive's counters again (call 169 caught only the warm-up launches on the first rows): every launch
# of the kernel in `spmv bench`, on wiki_Vote x 271 at 128 x 8 and 256 x 8 and on ct2010 x 72 at 128 x 8, f32.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c170.txz
R=bench/results/2026-11-29-h200-calls167-
O=$OUT/r; mkdir -p $O
m=$(grep -o "^m=.*" $R/call168.sh | cut -c3-)
for ms in wiki_Vote:271:128:8 wiki_Vote:271:256:8 ct2010:72:128:8; do
  IFS=: read -r name copies bs it <<< "$ms"
  timeout 60 ncu --clock-control none --kernel-name regex:spmv_csr_adaptive --launch-count 8 --metrics $m --csv \
    $B/spmv bench $M/$name.mtx --copies $copies --backend cuda --kernels csr-adaptive --precision f32 \
    --params block_size=$bs,items_per_thread=$it --runs 2 --warmup 1 > $O/ncu-$name-${bs}x$it.csv 2> $O/ncu-$name-${bs}x$it.err
  echo "ncu $ms exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
gpu_suite 300
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
pack_results 170
