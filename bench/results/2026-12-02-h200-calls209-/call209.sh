#!/usr/bin/env bash
# Device call 209 (one H200): csr-adaptive's shared memory against L1. "main" is main's build (06b95c1); the new
# build keeps the rows' starts of CSR-stream in 16 bits (r0: the driver's split of shared memory and L1) and
# sets the split for 8 resident blocks per SM (r8, resident_blocks); b256i12 has row blocks of 256 x 12 entries
# (main's default 128 x 8 in f32, 128 x 4 in f64: more reuse of x within a block); "cg" is the new build with
# csr-adaptive's matrix loads (values, columns, row pointers) through L2 only (ld.global.cg, not L1). Units as in call 206, cuSPARSE in
# each run; then csr-adaptive's GPU tests on the new build.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c209.txz
O=$OUT/r; mkdir -p $O
ab() {  # NAME PRECISION SOURCE...  (spmv bench's matrix arguments)
  local name=$1 precision=$2; shift 2
  local common="--backend cuda --kernels csr-adaptive --precision $precision --runs 20"
  timeout 30 /tmp/b/old/spmv bench "$@" $common --json $O/ab-${name}_$precision-main.json > $O/ab-${name}_$precision-main.txt 2>&1
  timeout 30 /tmp/b/cg/spmv bench "$@" $common --json $O/ab-${name}_$precision-cg.json > $O/ab-${name}_$precision-cg.txt 2>&1
  for variant in r0:resident_blocks=0 r8:resident_blocks=8 b256i12:block_size=256,items_per_thread=12; do
    local tag=${variant%%:*}
    timeout 30 $B/spmv bench "$@" $common --params ${variant#*:} \
      --json $O/ab-${name}_$precision-$tag.json > $O/ab-${name}_$precision-$tag.txt 2>&1
  done
}
f32_units="lp_dfl001:658 wiki_Vote:271 PGPgiantcompo:487
rajat01:588 mbeacxc:621 NSR8K:580 bcspwr10:1056 4elt:274 mhd4800b:907 sherman3:1143 bcsstk16:106
hangGlider_2:1827"
f64_units="wiki_Vote:271 PGPgiantcompo:487 lp_dfl001:658 4elt:274 bcsstk16:106"
for u in $f32_units; do ab ${u%%:*} f32 $M/${u%%:*}.mtx --copies ${u##*:}; done
echo "f32 replicated at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for u in $f64_units; do ab ${u%%:*} f64 $M/${u%%:*}.mtx --copies ${u##*:}; done
for p in f32 f64; do
  ab rmat20e4 $p --gen rmat:scale=20,edge_factor=4
  ab rmat22e8 $p --gen rmat:scale=22,edge_factor=8
  ab stencil5 $p --gen stencil5:nx=3000,ny=3000
  ab uniform $p --gen uniform:rows=4000000,cols=4000000,per_row=16
done
echo "a/b done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='*Adaptive*:*adaptive*:GpuDeterminism.*:GpuRowBlocks.*' > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
(cd $OUT && tar czf /tmp/r.tgz r); python3 bench/results/2026-11-29-h200-calls167-/shapes.py /tmp/r.tgz > $OUT/ab.md 2>&1
cat $OUT/gpu.txt $OUT/times.txt $OUT/ab.md
pack_results 209
