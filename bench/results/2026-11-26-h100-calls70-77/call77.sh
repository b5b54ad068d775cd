#!/usr/bin/env bash
# Device call 77 (one H100): the build with the BRO-ELL pack kernel staging a tile of columns in shared
# memory (and the OOM test's cap for plan() without BRO-HYB's head copy). The GPU suite (small data set,
# every 8th real matrix); beside it racecheck and synccheck of the pack kernel alone (kns=pack_bro_ell)
# in the BRO build tests; then the setup of bro-hyb and bro-ell on the 27-point stencil 150^3 and R-MAT 22.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results77; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab77.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/n77/spmv OMP_NUM_THREADS=12 timeout 200 /tmp/n77/spmv_gpu_tests > $R/gpu-tests.log 2>&1
 echo "exit $?" >> $R/gpu-tests.log) &
for tool in racecheck synccheck; do
  (SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=2 timeout 170 compute-sanitizer --tool $tool --kernel-name kns=pack_bro_ell \
     --error-exitcode 99 /tmp/n77/spmv_gpu_tests --gtest_filter='GpuBroBuilds.*' > $R/$tool.log 2>&1
   echo "exit $?" >> $R/$tool.log) &
done
wait
echo "suite and sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
for spec in stencil27:n=150 rmat:scale=22,edge_factor=16; do
  timeout 40 /tmp/n77/spmv bench --gen $spec --kernels bro-hyb,bro-ell --runs 10 > $R/setup-${spec%%:*}.log 2>&1
  echo "$spec exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for t in racecheck synccheck; do echo "$t: $(grep -E 'SUMMARY|^\[  (PASSED|FAILED)|^exit' $R/$t.log | tr '\n' ' ')"; done
  for f in $R/setup-*.log; do echo "== $(basename $f .log)"; grep -E '^  cuda .*= .*products|^cuda .* ok|FAILED' $f | cut -c1-150; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
