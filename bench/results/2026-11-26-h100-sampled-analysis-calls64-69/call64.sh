#!/usr/bin/env bash
# Device call 64 (one H100): the build with the row lengths sampled at plan time and the model retrained
# on features recomputed with it: the whole GPU suite; analyse() timed alone (the harness of call 63,
# with the row pass exact and sampled); then the default (auto) with the build before
# (old: 2678972) and this one (new), interleaved, on bench/families.txt at 10^6 and 100 expected
# products and on the twelve unseen matrices at 10^6, f64 and f32.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results64; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab64.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$root/.device-data/mini
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/new/spmv timeout 260 /tmp/new/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for v in exact sampled; do .device-build/an/an-$v > $R/analyse-$v.log 2>&1; done  # analyse() alone, 16 threads
suite() {  # binary, name, expected products, then spmv suite arguments
  local bin=$1 name=$2 products=$3; shift 3
  local left=$(( t0 + 575 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name-$bin: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left /tmp/$bin/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --kernels auto --expected-products $products \
    --time-limit $(( left - 10 )) --out $R/$name-$bin > $R/$name-$bin.log 2>&1
  echo "$name-$bin exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name-$bin/results.jsonl > $R/$name-$bin.md 2>&1
}
for b in new old; do suite $b families-e1e6 1e6 --families bench/families.txt; done
for b in old new; do suite $b families-e100 100 --families bench/families.txt; done
for b in new old; do suite $b unseen2 1e6 --families .device-data/unseen2.txt; done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for v in exact sampled; do echo "== analyse, row pass $v"; cat $R/analyse-$v.log; done
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -4; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
