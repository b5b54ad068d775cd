#!/usr/bin/env bash
# Device call 192 (one H200): SpMM training data on real matrices. Every SpMM kernel, cuSPARSE's SpMM algorithms
# and auto (the SpMM model of 36ed5bd, trained on generated matrices only) at 10^6 expected products on the 41
# real matrices of spmm-real41.txt replicated to 4x the L2, k = 8, B and C row- and column-major, f32, until the
# time limit. Call 191's twelve (spmm-real12.txt) stay out: they judge the retrained model. The build is
# call 191's spmv (.device-build/c192.txz: new/spmv and new/metis); .device-data/ holds the 41 matrices.
set -u
R=bench/results/2026-12-01-h200-calls190-
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared/matrices
xz -dc .device-build/c192.txz | tar xf - -C /tmp/b
cp .device-data/*.mtx.gz /tmp/shared/matrices/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 430 $B/spmv suite $R/spmm-real41.txt --sets replicated --backend cuda --kernels all --k 8 --layouts row,col \
  --precision f32 --runs 10 --warmup 2 --host-runs 0 --expected-products 1e6 --time-limit 400 --out $O/real41 \
  > $O/real41.log 2>&1
echo "real41 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
python3 bench/auto_vs_cusparse.py $O/real41/results.jsonl --worst 10 > $O/real41-auto.md 2>&1
gzip -9 $O/real41/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
grep '^| [a-z]' $O/real41-auto.md | grep -v '^| set'
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call192-results.tgz
