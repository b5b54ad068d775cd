#!/usr/bin/env bash
# Device call 219 (one H200): csr-adaptive's cut rows completed in the product by their last chunk (no second
# launch), and rows longer than one round cut where the row blocks fit the GPU at once. old/ is main (7967f02's
# build, call 214), new/ this change. Each build's csr-adaptive beside cuSPARSE's algorithms (and auto) in its own
# `spmv suite` run at 10^6 expected products, f64 and f32: the 56 real matrices as they are and replicated, issue
# 18's six R-MATs, bench/families.txt; the real matrices as they are a second time (old, new: their products take
# microseconds). Then new/'s GPU tests of the kernels, row blocks, determinism and plans over every 8th real matrix.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c219.txz gzip
O=$OUT/r; mkdir -p $O
ab=bench/ab_kernel.py
for v in old new; do kernel_suite $v real 80 $M --sets real,replicated; done
for v in old new; do kernel_suite $v rmats 60 --families bench/results/2026-12-02-h200-calls197-/rmats6.txt; done
for v in old new; do kernel_suite $v families 50 --families bench/families.txt; done
for v in old new; do kernel_suite $v real2 40 $M --sets real; done
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='GpuKernels*:GpuRowBlocks.*:GpuDeterminism.*:GpuPlan.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for s in real rmats families real2; do
  python3 $ab csr-adaptive $O/$s-old/results.jsonl $O/$s-new/results.jsonl --changed-only 3 > $O/$s-ab.md 2>&1
done
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
for s in rmats families; do echo "== $s"; cat $O/$s-ab.md; done
for s in real real2; do echo "== $s"; head -70 $O/$s-ab.md; done
pack_results 219
