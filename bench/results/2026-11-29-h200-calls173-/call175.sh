#!/usr/bin/env bash
# Device call 175 (one H200): the final library (d3ac3c8 and the OpenMP `if` of hif): every kernel's setup on
# issue 12's five families (bench_format_builds, all kernels, f64 and f32: device build in products of its
# format, plan() over the upload); the whole GPU suite.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c175.txz gzip
O=$OUT/r; mkdir -p $O
export OMP_NUM_THREADS=16
gpu_suite 240
for p in f64 f32; do
  timeout 150 $B/bench_format_builds $p $issue12_families > $O/builds-$p.txt 2> $O/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
for p in f64 f32; do
  echo "== $p: the most products of a named format's build; the default row; plan() over the upload"
  awk '/non-zeros\)$/{m=$1} /^[a-z]/ && $3 ~ /^[0-9.]+$/ && $1 !~ /^(csr-|cusparse|kernel|auto)/ && $4+0 > w[m]+0 {w[m]=$4; f[m]=$1}
       /^auto:/{d[m]=$2" "$5" prod, setup/up "$7}
       END {for (m in w) print m, "worst", f[m], w[m], "| default", d[m]}' $O/builds-$p.txt
  grep -E "^blocked" $O/builds-$p.txt | awk '{print "blocked", $2, $3, $4}'
done
pack_results 175
