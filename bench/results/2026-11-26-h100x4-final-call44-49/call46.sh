#!/usr/bin/env bash
# Device call 46 (four GPUs): compute-sanitizer's four tools on csr-hub's GPU tests (the zoo with its
# parameter variants, enormous rows), one tool per GPU, side by side.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g44.txz
R=$OUT; mkdir -p $R
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv
i=0
for tool in memcheck racecheck initcheck synccheck; do
  extra=""; [ $tool = memcheck ] && extra="--leak-check full"
  (CUDA_VISIBLE_DEVICES=$i timeout 400 compute-sanitizer --tool $tool $extra build/tests/spmv_gpu_tests \
     --gtest_filter='GpuKernels/GpuKernelsEach.OnTheZoo/csr_hub:GpuKernels/GpuKernelsEach.OnEnormousRows/csr_hub' > $R/$tool.log 2>&1
   echo "$tool exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt) &
  i=$((i + 1))
done
wait
{ cat $R/timeline.txt; for tool in memcheck racecheck initcheck synccheck; do echo "$tool: $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' $R/$tool.log | tr '\n' ' ')"; done; } > $R/summary.txt
(cd $R && tar czf results.tgz *.log timeline.txt && rm -f *.log timeline.txt)
cat $R/summary.txt
