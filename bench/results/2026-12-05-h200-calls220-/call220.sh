#!/usr/bin/env bash
# Device call 220: call 219's cut rows kept only where csr-adaptive's row blocks all fit the GPU at once (there
# rows longer than one round of a block are cut and their last chunk completes them in the product); a matrix of
# several waves of blocks keeps main's four-round chunks and second-pass fix-up (call 219: completing in the
# product cost 2-4% there). old/ is main (bdd66a3), a/ this change, b/ the same cutting rows longer than two
# rounds where they fit at once. Each build's csr-adaptive beside cuSPARSE's algorithms (and auto) in its own
# `spmv suite` run at 10^6 expected products, f64 and f32: the 56 real matrices as they are and replicated,
# bench/families.txt and issue 18's six R-MATs (old, a); the real matrices as they are twice more (old, a, b,
# old, a, b: their products take microseconds). Then a/'s GPU tests of the kernels, row blocks, determinism and plans.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c220.txz gzip
B=/tmp/b/a; export LD_LIBRARY_PATH=/tmp/b/metis
O=$OUT/r; mkdir -p $O
ab=bench/ab_kernel.py
for v in old a; do kernel_suite $v real 80 $M --sets real,replicated; done
for v in old a; do kernel_suite $v families 50 --families bench/families.txt; done
for v in old a; do kernel_suite $v rmats 30 --families bench/results/2026-12-02-h200-calls197-/rmats6.txt; done
for round in 2 3; do for v in old a b; do kernel_suite $v real$round 20 $M --sets real; done; done
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='GpuKernels*:GpuRowBlocks.*:GpuDeterminism.*:GpuPlan.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for s in real families rmats real2 real3; do
  python3 $ab csr-adaptive $O/$s-old/results.jsonl $O/$s-a/results.jsonl --changed-only 3 > $O/$s-ab.md 2>&1
done
for s in real2 real3; do
  python3 $ab csr-adaptive $O/$s-old/results.jsonl $O/$s-b/results.jsonl --changed-only 3 > $O/$s-ob.md 2>&1
done
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
for f in $O/*-ab.md $O/*-ob.md; do echo "== $(basename $f)"; grep geomean $f; done
for s in real2 real3; do echo "== $s old->a, changed"; grep -v geomean $O/$s-ab.md | head -30; done
echo "== real old->a, changed"; grep -v geomean $O/real-ab.md | head -50
pack_results 220
