#!/usr/bin/env bash
# Device call 174 (one H200): where call 173's new build lost 8-55 ms in make_plan's analysis (5 of its 20
# default plans, none of old's 20). bench_format_builds --default-only on the same five families, f32 and f64,
# two rounds interleaved: head (call 173's new), hif (head with the OpenMP `if` on the new host passes),
# eager (hif with the default SpMM's copy built in every plan again), old (a9bf3e9), and hif with
# OMP_WAIT_POLICY=passive (hif-passive).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c174.txz
O=$OUT/r; mkdir -p $O
export OMP_NUM_THREADS=16
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16
rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for round in 1 2; do
  for v in head hif eager old hif-passive; do
    for p in f32 f64; do
      if [ $v = hif-passive ]; then bin=/tmp/b/hif; export OMP_WAIT_POLICY=passive; else bin=/tmp/b/$v; unset OMP_WAIT_POLICY; fi
      timeout 60 $bin/bench_format_builds $p --default-only $specs > $O/builds-$v-$p-$round.txt \
        2> $O/builds-$v-$p-$round.jsonl
      echo "builds $v $p round $round exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
    done
  done
done
cat $OUT/gpu.txt; tail -1 $OUT/times.txt
cd $O && for f in builds-*.txt; do
  echo "$f analysis: $(grep 'default: make_plan' $f | sed -E 's/.*analysis ([0-9.]+).*/\1/' | tr '\n' ' ')" \
    "build/prod: $(grep '^auto:' $f | awk '{printf "%s ", $5}')"
done
pack_results 174
