#!/usr/bin/env bash
# Device call 47 (four GPUs): compute-sanitizer on the tests it had not passed (issue 17): racecheck of
# GpuBmrm.CudaMatchesCpu and GpuMicro.EveryPartIsMeasured, initcheck of GpuMicro (its copy source now
# zeroed) and of the NCCL test, each alone on a GPU (the NCCL test sees them all), 420 s each.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g44.txz
R=$OUT; mkdir -p $R
export SPMV_SHARED_DATA=$root/.device-data/mini SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv NCCL_NVLS_ENABLE=0
run() { local name=$1 gpus=$2 tool=$3 filter=$4
  (CUDA_VISIBLE_DEVICES=$gpus timeout 420 compute-sanitizer --tool $tool build/tests/spmv_gpu_tests --gtest_filter="$filter" > $R/$name.log 2>&1
   echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt) & }
run racecheck-bmrm 0 racecheck 'GpuBmrm.CudaMatchesCpu'
run racecheck-micro 1 racecheck 'GpuMicro.EveryPartIsMeasured'
run initcheck-micro 2 initcheck 'GpuMicro.*'
run initcheck-nccl 3,0,1,2 initcheck 'GpuDistributed.NcclSendsTheEntriesBetweenOnePartPerDevice'
wait
{ cat $R/timeline.txt; for f in $R/*.log; do echo "$(basename $f .log): $(grep -E '^\[  (PASSED|FAILED)' $f | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tr '\n' ' ')"; done; } > $R/summary.txt
(cd $R && tar czf results.tgz *.log timeline.txt && rm -f *.log timeline.txt)
cat $R/summary.txt
