#!/usr/bin/env bash
# Device call 69 (one H100): the final build (d7d301f): the twelve unseen matrices with every kernel
# measured (so the ideal is of the same run) at 10^6 expected products, and the 56 real matrices as
# they are and replicated at the default of 100 expected products, f64 and f32.
set -u
t0=$(date +%s)
R=/tmp/results69; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab66.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
suite() {  # name, expected products, then spmv suite arguments
  local name=$1 products=$2; shift 2
  local left=$(( t0 + 280 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left /tmp/new/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --expected-products $products \
    --time-limit $(( left - 10 )) --out $R/$name > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name/results.jsonl > $R/$name.md 2>&1
}
suite unseen2-all-e1e6 1e6 --families .device-data/unseen2.txt --kernels all
suite real-e100 100 .device-data/data/matrices --sets real,replicated --kernels auto
{ cat $R/gpu.txt $R/timeline.txt
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -5; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
