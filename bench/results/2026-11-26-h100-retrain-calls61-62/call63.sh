#!/usr/bin/env bash
# Device call 63 (one H100): (1) analyse()'s parts timed on the device host's CPUs (stencil-like CSR,
# 16 / 4 / 1 threads); (2) the kernels of a half of the 27-point stencil 150^3 against the whole, f64
# (what a part of the two-GPU run pays); (3) the default (auto, 10^6 expected products) with the
# model before (old: 2c06e43) and after the retraining (new), interleaved, on bench/families.txt, the
# twelve unseen matrices and the real matrices as they are and replicated, f64 and f32.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results63; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab63.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$root/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for t in 16 4 1; do OMP_NUM_THREADS=$t .device-build/an/an > $R/analyse-$t.log 2>&1; done
echo "analyse done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for g in n=150 nx=150,ny=150,nz=75; do
  timeout 90 /tmp/new/spmv bench --gen stencil27:$g --backend cuda --kernels bro-hyb,bro-ell,dia,ellr-t --runs 20 \
    --json $R/json/half-$g.json > $R/half-$g.log 2>&1
done
echo "half stencil done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
suite() {  # binary, name, then spmv suite arguments
  local bin=$1 name=$2; shift 2
  local left=$(( t0 + 570 - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left /tmp/$bin/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --kernels auto --expected-products 1e6 \
    --time-limit $(( left - 10 )) --out $R/$name-$bin > $R/$name-$bin.log 2>&1
  echo "$name-$bin exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name-$bin/results.jsonl > $R/$name-$bin.md 2>&1
}
for b in old new; do suite $b families --families bench/families.txt; done
for b in new old; do suite $b unseen2 --families .device-data/unseen2.txt; done
for b in old new; do suite $b real .device-data/data/matrices --sets real,replicated; done
{ cat $R/gpu.txt $R/timeline.txt; for t in 16 4 1; do echo "== analyse, $t threads"; cat $R/analyse-$t.log; done
  for f in $R/half-*.log; do echo "== $(basename $f .log)"; grep -E '^(matrix|cusparse|cuda) ' $f | head -9; done
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -5; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
