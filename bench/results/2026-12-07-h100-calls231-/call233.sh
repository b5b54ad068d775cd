#!/usr/bin/env bash
# Device call 233: a retrained model (.device-build/candidate.json) against the built-in one with the same binary:
# each model's auto beside cuSPARSE's algorithms in its own `spmv suite` run at 10^6 expected products, f64 and f32,
# on the 56 real matrices as they are and replicated and bench/families.txt (issue 11's bars); then the GPU tests of
# the plan, the suite and the CSR on the device.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c232.txz gzip
O=$OUT/r; mkdir -p $O
candidate=$PWD/.device-build/candidate.json
for m in built-in $candidate; do
  tag=$([ $m = built-in ] && echo old || echo new)
  model_suite $m $tag real 90 $M --sets real,replicated
  model_suite $m $tag families 50 --families bench/families.txt
done
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 120 $B/spmv_gpu_tests \
  --gtest_filter='GpuPlan.*:GpuSuite.*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for s in real families; do
  python3 bench/ab_kernel.py auto $O/$s-old/results.jsonl $O/$s-new/results.jsonl --changed-only 3 > $O/$s-ab.md 2>&1
  for v in old new; do python3 bench/auto_vs_cusparse.py $O/$s-$v/results.jsonl --worst 6 > $O/$s-$v-auto.md 2>&1; done
done
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
for s in real families; do echo "== $s auto new/old"; grep geomean $O/$s-ab.md; done
for f in $O/*-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; done
echo "== real changed"; grep -v geomean $O/real-ab.md | head -40
pack_results 233
