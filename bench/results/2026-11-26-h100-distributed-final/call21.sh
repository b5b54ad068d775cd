#!/usr/bin/env bash
# Device call 21 (one GPU): the final build's distributed, device and stream GPU tests, then the
# distributed tests under compute-sanitizer memcheck, initcheck and racecheck (cuSPARSE excluded from racecheck).
set -u
t0=$(date +%s)
tar xJf .device-build/g21.txz
R=/tmp/results; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 timeout 60 build/tests/spmv_gpu_tests --gtest_filter='GpuDistributed.*:GpuStreams.*:GpuDevice.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
F='GpuDistributed.PartsOnEveryDevice:GpuDistributed.RepeatedRunsReplayACapturedGraph:GpuDistributed.CusparsePartsAndAGeneratedStencil'
for tool in memcheck initcheck racecheck; do
  extra=""; [ $tool = racecheck ] && extra="--kernel-name-exclude kns=cusparse"; [ $tool = memcheck ] && extra="--leak-check full"
  SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout ${SAN_LIMIT:-110} compute-sanitizer --tool $tool $extra --print-limit 5 build/tests/spmv_gpu_tests \
    --gtest_filter="$F" > $R/sanitize-$tool.log 2>&1 &
done
wait
echo "sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for t in memcheck initcheck racecheck; do echo "$t: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|  PASSED|  FAILED' $R/sanitize-$t.log | tr '\n' ' ')"; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
