#!/usr/bin/env bash
# Device call 214 (one H200): main at the plan-cost commit (7967f02, the model of 9e82cfd): auto at 10^6
# expected products beside csr-adaptive and cuSPARSE's algorithms on the 56 real matrices as they are and
# replicated and on bench/families.txt; every kernel and auto on unseen8.txt (written this session, never
# measured; in no training); then the GPU tests of the plan. data.txz holds the real matrices as .mtx, gzip-compressed
# on the machine as the tests read them.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c214.txz gzip
O=$OUT/r; mkdir -p $O
auto_suite real 150 170 /tmp/shared/matrices --sets real,replicated
auto_suite families 60 75 --families bench/families.txt
all_kernels_suite bench/results/2026-12-03-h200-calls214-/unseen8.txt unseen8 75 100
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 90 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuSuite.*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for d in real families; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 8 > $O/$d-auto.md 2>&1
  gzip -9 $O/$d/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt
for d in real families unseen8-all; do echo "== $d"; grep "^| [a-z]" $O/$d-auto.md | grep -v "^| set"; done
pack_results 214
