#!/usr/bin/env bash
# Device call 146 (one H200): csr-adaptive reading 16-bit column offsets where a row block's columns span fewer
# than 2^16 (the new default) against 32-bit columns; each `spmv bench` also times cuSPARSE's algorithms. The
# csr-adaptive GPU tests first; generated families f32 and f64, then real matrices replicated block-diagonally.
set -u
root=$PWD
R=bench/results/2026-11-28-h200-calls146-
mkdir -p /tmp/b && xz -dc .device-build/c146.txz | tar xf - -C /tmp/b
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='*csr_adaptive*:*CsrAdaptive*' > $OUT/gpu-tests-adaptive.log 2>&1
echo "adaptive tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
bench() {  # NAME PREC BITS ARGS...
  local name=$1 prec=$2 bits=$3; shift 3
  timeout 60 $B/spmv bench "$@" --backend cuda --kernels csr-adaptive --params column_bits=$bits --precision $prec \
    --runs 20 --json $OUT/ab-$name-$prec-$bits.json > $OUT/ab-$name-$prec-$bits.txt 2>&1
}
for p in f32 f64; do
  for f in stencil27:n=150 stencil7:n=256 blockfem:n=80,block=4 uniform:rows=4000000,cols=4000000,per_row=16 \
           rmat:scale=22,edge_factor=16; do
    for bits in 16 32; do bench "${f%%:*}" $p $bits --gen $f; done
  done
done
echo "families done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
while read -r file copies rest; do
  for p in f32 f64; do for bits in 16 32; do
    bench "$(basename $file .mtx.gz)" $p $bits $file --copies $copies
  done; done
  [ $(( $(date +%s) - t0 )) -gt 500 ] && break
done < .device-data/ab/copies.txt
echo "replicated done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $OUT/gpu-tests-adaptive.log | head -12
python3 $R/summarise_ab.py $OUT | tee $OUT/summary.txt
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call146-results.tgz
