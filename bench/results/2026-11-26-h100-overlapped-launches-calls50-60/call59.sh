#!/usr/bin/env bash
# Device call 59 (one GPU): the default choice on the real matrices as they are and replicated
# (10^6 expected products, f64 and f32), the build of 7dd48f3 (the overlapped launches), against the
# best cuSPARSE algorithm of the same run.
set -u
t0=$(date +%s)
tar xJf .device-build/g58.txz
export OMP_NUM_THREADS=16
R=/tmp/results; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
suite() {  # name, then spmv suite arguments
  local name=$1; shift
  local left=$(( t0 + 560 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left build/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --time-limit $(( left - 10 )) --out $R/$name > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name/results.jsonl > $R/$name.md 2>&1
}
suite real-e1e6 .device-data/data/matrices --sets real,replicated --kernels auto --expected-products 1e6
{ cat $R/gpu.txt $R/timeline.txt
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -6; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
