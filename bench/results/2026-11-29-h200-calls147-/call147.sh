#!/usr/bin/env bash
# Device call 147 (one H200): csr-adaptive's block shape (block_size x items_per_thread) and entries per load
# (vector_width) per precision, 16-bit column offsets on; the csr-adaptive GPU tests first; each `spmv bench` also times cuSPARSE's algorithms. Generated families, then real matrices replicated.
set -u
root=$PWD
R=bench/results/2026-11-29-h200-calls147-
mkdir -p /tmp/b && xz -dc .device-build/c147.txz | tar xf - -C /tmp/b
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='*csr_adaptive*:*CsrAdaptive*' > $OUT/gpu-tests-adaptive.log 2>&1
echo "adaptive tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
bench() {  # NAME PREC SHAPE(BLOCK:ITEMS:WIDTH) ARGS...
  local name=$1 prec=$2 block items width
  IFS=: read -r block items width <<< "$3"; shift 3
  local tag=$name-$prec-${block}x${items}v$width
  timeout 60 $B/spmv bench "$@" --backend cuda --kernels csr-adaptive \
    --params block_size=$block,items_per_thread=$items,vector_width=$width --precision $prec \
    --runs 20 --json $OUT/ab-$tag.json > $OUT/ab-$tag.txt 2>&1
}
shapes="128:4:1 128:4:2 128:4:4 128:8:1 128:8:4 256:8:4"
for p in f32 f64; do
  for f in stencil27:n=150 stencil7:n=256 blockfem:n=80,block=4 uniform:rows=4000000,cols=4000000,per_row=16 \
           rmat:scale=22,edge_factor=16; do
    for s in $shapes; do bench "${f%%:*}" $p $s --gen $f; done
  done
done
echo "families done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
while read -r file copies rest; do
  for p in f32 f64; do for s in $shapes; do
    bench "$(basename $file .mtx.gz)" $p $s $file --copies $copies
  done; done
  [ $(( $(date +%s) - t0 )) -gt 520 ] && break
done < .device-data/ab/copies.txt
echo "replicated done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $OUT/gpu-tests-adaptive.log | head -12
python3 $R/summarise_shapes.py $OUT | tee $OUT/summary.txt
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call147-results.tgz
