#!/usr/bin/env bash
# Device call 56 (one GPU): the build with csr-adaptive's and csr-merge's fix-ups overlapping their
# main kernels: the whole GPU suite, then the three kernels' tests under memcheck, racecheck and
# synccheck.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g56.txz
R=$OUT; mkdir -p $R
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 240 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
F='GpuKernels/GpuKernelsEach.OnTheZoo/csr_adaptive*:GpuKernels/GpuKernelsEach.OnEnormousRows/csr_adaptive*:GpuKernels/GpuKernelsEach.OnTheZoo/csr_merge*:GpuKernels/GpuKernelsEach.OnEnormousRows/csr_merge*:GpuKernels/GpuKernelsEach.OnTheZoo/csr_hub:GpuKernels/GpuKernelsEach.OnEnormousRows/csr_hub'
for tool in memcheck racecheck synccheck; do
  SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 90 compute-sanitizer --tool $tool build/tests/spmv_gpu_tests --gtest_filter="$F" > $R/$tool.log 2>&1
  echo "$tool exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for tool in memcheck racecheck synccheck; do echo "$tool: $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tr '\n' ' ')"; done
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz *.log *.txt && rm -f *.log timeline.txt gpu.txt)
cat $R/summary.txt
