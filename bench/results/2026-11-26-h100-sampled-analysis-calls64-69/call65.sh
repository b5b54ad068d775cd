#!/usr/bin/env bash
# Device call 65 (one H100): the build with the row lengths sampled at plan time and the model retrained
# on features recomputed with it, and the HYB refusal check from one pass over row_ptr: the whole GPU
# suite (every 8th shared matrix); the default (auto, 10^6 expected products) with the build before
# (old: 2678972) and this one (new), interleaved, on the 56 shared real matrices as they are and
# replicated to 4x the L2, f64 and f32; bench/families.txt again with this build (the plan's cost).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results65; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab65.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$root/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_TEST_MATRIX_STRIDE=8 SPMV_CLI=/tmp/new/spmv timeout 260 /tmp/new/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
suite() {  # binary, name, expected products, then spmv suite arguments
  local bin=$1 name=$2 products=$3; shift 3
  local left=$(( t0 + 575 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name-$bin: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left /tmp/$bin/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --kernels auto --expected-products $products \
    --time-limit $(( left - 10 )) --out $R/$name-$bin > $R/$name-$bin.log 2>&1
  echo "$name-$bin exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name-$bin/results.jsonl > $R/$name-$bin.md 2>&1
}
for b in new old; do suite $b real 1e6 .device-data/data/matrices --sets real,replicated; done
suite new families-e1e6 1e6 --families bench/families.txt  # the plan's cost with this HYB check (old: call 64)
suite new families-e100 100 --families bench/families.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -4; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
