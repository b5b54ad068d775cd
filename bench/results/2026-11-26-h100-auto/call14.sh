#!/usr/bin/env bash
# Device call 14 (one GPU): the default choice judged again after the sampled analysis, the retrained
# model and the setup refit of cusparse-coo (rows expanded on the device). Unseen families with
# every kernel (the ideal in the same run) at 10^6 and 100 products; bench/families.txt, the real
# and the replicated sets with auto at 10^6 and 100 products.
set -u
t0=$(date +%s)
tar xJf .device-build/multi.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data OMP_NUM_THREADS=16
R=/tmp/results; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
suite() {  # name, binary, then spmv suite arguments
  local name=$1 bin=$2; shift 2
  local left=$(( t0 + 570 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left $bin suite "$@" --backend cuda --runs 10 --host-runs 0 --time-limit $(( left - 10 )) --out $R/$name > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name/results.jsonl > $R/$name.md 2>&1
}
M=.device-data/data/matrices
suite unseen-all-e1e6 build/spmv --families .device-build/unseen-families.txt --kernels all --expected-products 1e6
suite unseen-all-e100 build/spmv --families .device-build/unseen-families.txt --kernels all --expected-products 100
suite real-e100 build/spmv $M --sets real --kernels auto --expected-products 100
suite real-e1e6 build/spmv $M --sets real --kernels auto --expected-products 1e6
suite families-e100 build/spmv --families bench/families.txt --kernels auto --expected-products 100
suite families-e1e6 build/spmv --families bench/families.txt --kernels auto --expected-products 1e6
suite replicated-e1e6 build/spmv $M --sets replicated --kernels auto --expected-products 1e6
suite replicated-e100 build/spmv $M --sets replicated --kernels auto --expected-products 100
{
  cat $OUT/gpu.txt $R/timeline.txt
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -4; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
