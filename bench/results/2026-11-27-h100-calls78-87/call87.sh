#!/usr/bin/env bash
# Device call 87 (one H100): the final build after the review (write_slot_tiles checks its launch; SELL's
# layout constants). The GPU suite (small data set, every 8th real matrix), then the default against cuSPARSE
# and the ideal: the twelve unseen matrices with every kernel measured at 10^6 expected products, f64 and f32,
# as in call 69.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results87; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab87.txz -C /tmp
B=/tmp/n87
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=16 \
  timeout 200 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
suite() {  # name, expected products, then spmv suite arguments
  local name=$1 products=$2; shift 2
  local left=$(( t0 + 330 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left $B/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --expected-products $products \
    --time-limit $(( left - 10 )) --out $R/$name > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name/results.jsonl > $R/$name.md 2>&1
}
suite unseen2-all-e1e6 1e6 --families .device-data/unseen2.txt --kernels all
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -5; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
