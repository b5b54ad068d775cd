#!/usr/bin/env bash
# Device call 66 (one H100): the plan's cost with the diagonals of a banded sample counted per thread
# (d7d301f): analyse() alone (the harness of calls 63-64 built with the row pass exact, sampled, and
# sampled with this diagonal count), then the default (auto) on bench/families.txt at 10^6 and 100
# expected products, f64 and f32.
set -u
t0=$(date +%s)
R=/tmp/results66; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab66.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for v in exact sampled banded; do .device-build/an/an-$v > $R/analyse-$v.log 2>&1; done
for p in 1e6 100; do
  timeout 200 /tmp/new/spmv suite --families bench/families.txt --backend cuda --runs 10 --host-runs 0 --kernels auto \
    --expected-products $p --time-limit 190 --out $R/families-e$p > $R/families-e$p.log 2>&1
  echo "families-e$p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/families-e$p/results.jsonl > $R/families-e$p.md 2>&1
done
{ cat $R/gpu.txt $R/timeline.txt
  for v in exact sampled banded; do echo "== analyse, $v"; grep full $R/analyse-$v.log; done
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| family \|' $f; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
