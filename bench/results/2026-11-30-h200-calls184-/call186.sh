#!/usr/bin/env bash
# Device call 186 (one H200): the selector retrained with gaps11.txt (new/). Every kernel and auto at 10^6
# expected products on the fifteen unseen matrices (unseen15.txt), on call 182's thirteen and call 118's twelve;
# then auto beside csr-adaptive and cuSPARSE on the real matrices as they are and replicated, bench/families.txt
# and the R-MATs of calls 160-166, as call 178; then the GPU tests of plans, matrices on the device and the suite.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c186.txz
O=$OUT/r; mkdir -p $O
R=bench/results/2026-11-30-h200-calls184-
all_kernels_suite $R/unseen15.txt unseen15 100 130
all_kernels_suite bench/results/2026-11-29-h200-calls179-/unseen13.txt unseen13 60 80
all_kernels_suite .device-build/unseen12.txt unseen12 60 80
auto_suite real 85 100 /tmp/shared/matrices --sets real,replicated
auto_suite families 50 60 --families bench/families.txt
auto_suite rmat 30 40 --families bench/results/2026-11-29-h200-calls160-/rmat.txt
SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 60 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuDeviceCsr.*:GpuSuite.*' \
  > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
tail -3 $OUT/gpu-tests.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
for d in real families rmat; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 6 > $O/$d-auto.md 2>&1
  gzip -9 $O/$d/results.jsonl
done
for f in $O/unseen15-all-auto.md $O/unseen13-all-auto.md $O/unseen12-all-auto.md $O/real-auto.md $O/families-auto.md \
         $O/rmat-auto.md; do
  echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; grep "^- " $f | head -4
done
pack_results 186
