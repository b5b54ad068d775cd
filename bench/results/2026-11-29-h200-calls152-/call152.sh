#!/usr/bin/env bash
# Device call 152 (one H200): csr-adaptive's items per thread on small matrices. Each `spmv bench` times
# csr-adaptive at one shape (block_size:items_per_thread:vector_width) beside cuSPARSE's algorithms: the 56 real
# matrices as they are and twelve generated matrices of 0.2-7 M entries (in the L2 to a few times it), f32 at
# 128x8v4 (the present default), 128x4v4, 128x2v2; f64 at 128x4v4 (the default), 128x2v2. The csr-adaptive GPU
# tests first (items 2, the size rule, offsets only where a block fits).
set -u
mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c152.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 120 \
  $B/spmv_gpu_tests --gtest_filter='*csr_adaptive*:*CsrAdaptive*:GpuKernels.Described*:GpuRowBlocks*' \
  > $OUT/gpu-tests-adaptive.log 2>&1
echo "adaptive tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
bench() {  # NAME PREC SHAPE(BLOCK:ITEMS:WIDTH) ARGS...
  local name=$1 prec=$2 block items width
  IFS=: read -r block items width <<< "$3"; shift 3
  local tag=$name-$prec-${block}x${items}v$width
  timeout 60 $B/spmv bench "$@" --backend cuda --kernels csr-adaptive \
    --params block_size=$block,items_per_thread=$items,vector_width=$width --precision $prec \
    --runs 20 --json $OUT/ab-$tag.json > $OUT/ab-$tag.txt 2>&1
}
gens="s5_300:stencil5:n=300 s7_32:stencil7:n=32 s7_64:stencil7:n=64 s27_32:stencil27:n=32 s27_64:stencil27:n=64
fem20_3:blockfem:n=20,block=3 rmat16:rmat:scale=16,edge_factor=8 uni_100k_4:uniform:rows=100000,cols=100000,per_row=4
uni_1m_4:uniform:rows=1000000,cols=1000000,per_row=4 random_5k:random:rows=5000,cols=5000,density=0.01
dense_2k:dense:rows=2000,cols=2000 rmat18:rmat:scale=18,edge_factor=16"
run_precision() {  # PREC SHAPES...
  local p=$1; shift
  for f in /tmp/shared/matrices/*.mtx.gz; do
    for s in "$@"; do bench "$(basename $f .mtx.gz)" $p $s $f; done
    [ $(( $(date +%s) - t0 )) -gt 530 ] && return
  done
  for g in $gens; do
    for s in "$@"; do bench "${g%%:*}" $p $s --gen "${g#*:}"; done
    [ $(( $(date +%s) - t0 )) -gt 530 ] && return
  done
}
run_precision f32 128:8:4 128:4:4 128:2:2
echo "f32 done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
run_precision f64 128:4:4 128:2:2
echo "f64 done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $OUT/gpu-tests-adaptive.log | head -12
python3 bench/results/2026-11-29-h200-calls147-/summarise_shapes.py $OUT > $OUT/summary.txt; tail -3 $OUT/summary.txt
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call152-results.tgz
