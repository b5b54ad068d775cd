#!/usr/bin/env bash
# Device call 229: csr-adaptive launched without CSR-stream's staging where every row block holds one row and the
# matrix is less than a quarter dense (new/), against main (old/, 2026-12-06, e7550df): each build's csr-adaptive
# beside cuSPARSE's algorithms (and auto) in its own `spmv suite` run at 10^6 expected products, f64 and f32, on
# call 216's longrows.txt (13 matrices of rows longer than a row block), bench/families.txt and the 56 real
# matrices as they are and replicated; then new/'s GPU tests of the kernels.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c229.txz gzip
O=$OUT/r; mkdir -p $O
ab=bench/ab_kernel.py
for v in old new; do kernel_suite $v longrows 40 --families bench/results/2026-12-03-h200-calls214-/longrows.txt; done
for v in old new; do kernel_suite $v families 40 --families bench/families.txt; done
for v in old new; do kernel_suite $v real 80 $M --sets real,replicated; done
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='GpuKernels*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for s in longrows families real; do
  python3 $ab csr-adaptive $O/$s-old/results.jsonl $O/$s-new/results.jsonl > $O/$s-ab.md 2>&1
done
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
for s in longrows families real; do echo "== $s csr-adaptive new/old"; grep geomean $O/$s-ab.md; done
echo "== longrows"; grep -v geomean $O/longrows-ab.md
echo "== real, changed by more than 3%"; python3 $ab csr-adaptive $O/real-old/results.jsonl.gz $O/real-new/results.jsonl.gz --changed-only 3 | grep -v geomean
pack_results 229
