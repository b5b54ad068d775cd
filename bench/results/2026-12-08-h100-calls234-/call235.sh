#!/usr/bin/env bash
# Device call 235: the plan's cost against the upload, main at 3363b39 (old: call 234's build) against e4454b6 (new:
# the selector's trees packed, the block densities counted in span bitmaps; every plan the same on the host): each
# build's auto beside cuSPARSE's algorithms in its own `spmv suite` run at 10^6 expected products, f64 and f32, on
# the 56 real matrices as they are and replicated and on bench/families.txt, old and new in turn; then the GPU
# tests of the plan and the suite on the new build.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c235.txz gzip
mkdir -p /tmp/o && xz -dc .device-build/c234.txz | tar xf - -C /tmp/o new && mv /tmp/o/new /tmp/b/old
O=$OUT/r; mkdir -p $O
for build in old new; do
  B=/tmp/b/$build
  model_suite built-in $build real 70 $M --sets real,replicated
  model_suite built-in $build families 35 --families bench/families.txt
done
B=/tmp/b/new
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 120 $B/spmv_gpu_tests \
  --gtest_filter='GpuPlan.*:GpuSuite.*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for s in real families; do
  for v in old new; do python3 bench/auto_vs_cusparse.py $O/$s-$v/results.jsonl --worst 4 > $O/$s-$v-auto.md 2>&1; done
done
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt
for f in $O/*-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; done
pack_results 235
