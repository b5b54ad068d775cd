#!/usr/bin/env bash
# Device call 181 (one H200): the measure mode building every candidate from one upload (new/) against one upload
# per candidate (old/, main's build), `spmv plan --measure` on two large generated matrices, two rounds each, a fresh
# plan cache every run: $O/measure-BUILD-TAG-PRECISION-ROUND.json; then the whole GPU suite on the new build.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c181.txz gzip
O=$OUT/r; mkdir -p $O
for round in 1 2; do
  for m in s27:stencil27:n=150:f64 uni:uniform:rows=4000000,cols=4000000,per_row=16:f32; do
    IFS=: read -r tag gen spec p <<< "$m"
    for build in old new; do
      timeout 60 /tmp/b/$build/spmv plan --gen $gen:$spec --precision $p --measure --expected-products 1e4 --json \
        --plan-cache $O/cache-$build-$tag-$p-$round.jsonl > $O/measure-$build-$tag-$p-$round.json \
        2> $O/measure-$build-$tag-$p-$round.err
      echo "measure $build $tag $p round $round exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
    done
  done
done
gpu_suite 320
tail -3 $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
pack_results 181
