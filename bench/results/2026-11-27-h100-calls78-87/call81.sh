#!/usr/bin/env bash
# Device call 81 (one H100): the final build of this stop (7c1e48f: the split and the graph partition
# validate their matrix; the columns checked on the device after the upload; the default SpMM's decision
# on the device). The GPU suite (small data set, every 8th real matrix); beside it memcheck and initcheck
# of the multi-GPU tests (parts on one device) and racecheck of the CG test on the real SPD matrix
# (bcsstk16), the one racecheck had skipped for want of its data.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results81; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab81.txz -C /tmp
B=/tmp/n81
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=10 timeout 230 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
 echo "exit $?" >> $R/gpu-tests.log) &
for tool in memcheck initcheck; do
  (SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool $tool --error-exitcode 99 \
     $B/spmv_gpu_tests --gtest_filter='GpuDistributed.*' > $R/$tool-distributed.log 2>&1
   echo "exit $?" >> $R/$tool-distributed.log) &
done
(SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool racecheck --kernel-name-exclude kns=cusparse \
   --error-exitcode 99 $B/spmv_gpu_tests --gtest_filter='GpuCg.CudaMatchesCpuOnARealSpdMatrix' > $R/racecheck-cg.log 2>&1
 echo "exit $?" >> $R/racecheck-cg.log) &
wait
echo "done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for t in memcheck-distributed initcheck-distributed racecheck-cg; do
    echo "$t: $(grep -E 'SUMMARY|^\[  (PASSED|FAILED)|SKIPPED|^exit' $R/$t.log | tr '\n' ' ')"; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
