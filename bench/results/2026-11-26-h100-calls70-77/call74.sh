#!/usr/bin/env bash
# Device call 74 (one H100): the build with DeviceBuffer::set_zero waited for (the race behind call 73's
# two distributed SpMM failures under racecheck). The GPU suite (small data set, every 8th real matrix);
# beside it racecheck of the two tests that failed in call 73, and of the seven that ran out of time there,
# with CUB's kernels left out as well as cuSPARSE's (library code; the device builds that call CUB are
# racechecked with it in their own tests), and a9a's two trainings (A9aCudaMatchesCpu's GPU side) as
# `spmv train --backend cuda` under racecheck.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results74; rm -rf $R; mkdir -p $R/rc
tar xJf .device-build/ab74.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
export SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/new/spmv
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(OMP_NUM_THREADS=4 timeout 300 /tmp/new/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log) &
race() {  # name, exclude flags..., --, command
  local name=$1; shift; local flags=()
  while [ "$1" != -- ]; do flags+=("$1"); shift; done; shift
  OMP_NUM_THREADS=1 timeout $(( t0 + 560 - $(date +%s) )) compute-sanitizer --tool racecheck "${flags[@]}" \
    --error-exitcode 99 "$@" > $R/rc/$name.log 2>&1
  echo "exit $? at $(( $(date +%s) - t0 )) s" >> $R/rc/$name.log
}
T=/tmp/new/spmv_gpu_tests
X1=(--kernel-name-exclude kns=cusparse)
X2=(--kernel-name-exclude kns=cusparse --kernel-name-exclude kns=cub)
race stencil-spmm "${X1[@]}" -- $T --gtest_filter=GpuDistributed.CusparsePartsAndAGeneratedStencil &
race long-rows-spmm "${X1[@]}" -- $T --gtest_filter='GpuDistributed/GpuDistributedZoo.PartsOnOneDevice/long_rows_700x5000' &
for t in GpuKernels/GpuKernelsEach.OnTheZoo/sell GpuKernels/GpuKernelsEach.OnTheZoo/bro_ell \
         GpuKernels/GpuKernelsEach.OnTheZoo/bro_hyb GpuSpmm/GpuSpmmEach.OnTheZoo/spmm_csr_vec \
         GpuSpmm/GpuSpmmEach.OnTheZoo/spmm_fastspmm GpuSpmm/GpuSpmmEach.OnTheZoo/spmm_setspmvs \
         GpuSpmm/GpuSpmmEach.OnGeneratedMatrices/spmm_setspmvs; do
  race $(echo $t | tr / -) "${X2[@]}" -- $T --gtest_filter=$t &
done
for loss in hinge logistic; do
  race a9a-$loss "${X1[@]}" -- /tmp/new/spmv train .device-data/mini/libsvm/a9a.gz --backend cuda --loss $loss \
    --lambda 1e-4 --epsilon 1e-4 &
done
wait
{ cat $R/gpu.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/rc/*.log; do
    printf '%-52s %s\n' "$(basename $f .log)" "$(grep -E 'RACECHECK SUMMARY|^exit|^\[  (PASSED|FAILED)|iterations|ERROR|rror:' $f | head -5 | tr '\n' ' ')"
  done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
