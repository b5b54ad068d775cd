#!/usr/bin/env bash
# Device call 49: csr-hub's shared memory limit, A = set to the device's most, B = raised to the
# operator's need and never lowered; R-MAT 22 (ef 16) and 20 alternately, and B's GPU tests.
set -u
root=$PWD
tar xJf .device-build/g49.txz
R=$OUT; mkdir -p $R
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 120 build/tests/spmv_gpu_tests --gtest_filter='*csr_hub*:*CsrHub*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
for m in 20:16 22:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/r-${m%%:*}-${m##*:}.spmv > /dev/null; done
for round in 1 2 3; do for v in A B; do bin=build/spmv; [ $v = A ] && bin=build/varA/spmv
  for m in 22-16 20-16; do for p in f32 f64; do
    echo "$round $v $m $p $($bin bench /tmp/r-$m.spmv --backend cuda --kernels csr-hub --precision $p --runs 20 2>&1 | grep -E '^cuda +csr-hub' | head -1 | tr -s ' ')" >> $R/ab.txt
  done; done
done; done
{ grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log; cat $R/ab.txt; } > $R/summary.txt
(cd $R && tar czf results.tgz *.log ab.txt && rm -f *.log ab.txt)
cat $R/summary.txt
