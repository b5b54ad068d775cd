#!/usr/bin/env bash
# Device call 174 (one H200): where call 173's new build lost 8-55 ms in make_plan's analysis (5 of its 20
# default plans, none of old's 20). bench_format_builds --default-only on the same five families, f32 and f64,
# two rounds interleaved: head (call 173's new), hif (head with the OpenMP `if` on the new host passes),
# eager (hif with the default SpMM's copy built in every plan again), old (a9bf3e9), and hif with
# OMP_WAIT_POLICY=passive (hif-passive).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c174.txz
O=$OUT/r; mkdir -p $O
export OMP_NUM_THREADS=16
for round in 1 2; do
  for v in head hif eager old hif-passive; do
    for p in f32 f64; do
      if [ $v = hif-passive ]; then
        export OMP_WAIT_POLICY=passive; default_builds $v $p $round hif
      else
        unset OMP_WAIT_POLICY; default_builds $v $p $round
      fi
    done
  done
done
cat $OUT/gpu.txt; tail -1 $OUT/times.txt
cd $O && for f in builds-*.txt; do
  echo "$f analysis: $(grep 'default: make_plan' $f | sed -E 's/.*analysis ([0-9.]+).*/\1/' | tr '\n' ' ')" \
    "build/prod: $(grep '^auto:' $f | awk '{printf "%s ", $5}')"
done
pack_results 174
