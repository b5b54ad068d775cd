#!/usr/bin/env bash
# Device call 224: the selector retrained with calls 220-223 (new/) against main's model (old/, the same build
# otherwise): each build's auto beside csr-adaptive and cuSPARSE's algorithms in its own `spmv suite` run at 10^6
# expected products, f64 and f32, on the 56 real matrices as they are and replicated, bench/families.txt, call 214's
# unseen8 and issue 18's six R-MATs; then new/'s GPU tests of the plan, the suite and BMRM (a9a carried).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c224.txz gzip
O=$OUT/r; mkdir -p $O
ab=bench/ab_kernel.py
for v in old new; do kernel_suite $v real 80 $M --sets real,replicated; done
for v in old new; do kernel_suite $v families 50 --families bench/families.txt; done
for v in old new; do kernel_suite $v unseen8 30 --families bench/results/2026-12-03-h200-calls214-/unseen8.txt; done
for v in old new; do kernel_suite $v rmats 30 --families bench/results/2026-12-02-h200-calls197-/rmats6.txt; done
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='GpuPlan.*:GpuSuite.*:GpuBmrm*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for s in real families unseen8 rmats; do
  python3 $ab auto $O/$s-old/results.jsonl $O/$s-new/results.jsonl --changed-only 3 > $O/$s-ab.md 2>&1
  for v in old new; do python3 bench/auto_vs_cusparse.py $O/$s-$v/results.jsonl --worst 6 > $O/$s-$v-auto.md 2>&1; done
done
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
for s in real families unseen8 rmats; do echo "== $s auto new/old"; grep geomean $O/$s-ab.md; done
for f in $O/*-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; done
echo "== real changed"; grep -v geomean $O/real-ab.md | head -40
pack_results 224
