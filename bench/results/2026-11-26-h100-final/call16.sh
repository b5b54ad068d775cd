#!/usr/bin/env bash
# Device call 16 (one GPU): the final build: the whole GPU suite with SPMV_REQUIRE_GPU=1, then the
# default choice on the real matrices (100 and 10^6 products), bench/families.txt and the unseen
# families with every kernel at 100 products.
set -u
t0=$(date +%s)
tar xJf .device-build/multi.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data OMP_NUM_THREADS=16
R=/tmp/results; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 300 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "tests done after $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
suite() {  # name, then spmv suite arguments
  local name=$1; shift
  local left=$(( t0 + 570 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left build/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --time-limit $(( left - 10 )) --out $R/$name > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name/results.jsonl > $R/$name.md 2>&1
}
M=.device-data/data/matrices
suite real-e100 $M --sets real --kernels auto --expected-products 100
suite real-e1e6 $M --sets real --kernels auto --expected-products 1e6
suite families-e100 --families bench/families.txt --kernels auto --expected-products 100
suite unseen-all-e100 --families .device-build/unseen-families.txt --kernels all --expected-products 100
{
  cat $OUT/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -3; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
