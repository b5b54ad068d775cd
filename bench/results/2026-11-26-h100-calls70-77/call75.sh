#!/usr/bin/env bash
# Device call 75 (one H100): the build of 9973315 (set_zero waited for; block density in chunks sized to
# the block rows). The GPU suite (small data set, every 8th real matrix); beside it racecheck of a9a's two
# trainings (A9aCudaMatchesCpu's GPU side). Then the plan's analysis on the device host's CPUs, the build
# before (ab74) and this one, on bench/families.txt; then the kernels of BRO-HYB's device build on the
# 27-point stencil 150^3 f64 under Nsight Compute (durations only, clocks left alone).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results75; rm -rf $R; mkdir -p $R/rc
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab75.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/n75/spmv OMP_NUM_THREADS=12 timeout 280 /tmp/n75/spmv_gpu_tests > $R/gpu-tests.log 2>&1
 echo "exit $?" >> $R/gpu-tests.log) &
for loss in hinge logistic; do
  (OMP_NUM_THREADS=1 timeout 280 compute-sanitizer --tool racecheck --kernel-name-exclude kns=cusparse --error-exitcode 99 \
     /tmp/n75/spmv train .device-data/mini/libsvm/a9a.gz --format libsvm --backend cuda --loss $loss --lambda 1e-4 \
     --epsilon 1e-4 > $R/rc/a9a-$loss.log 2>&1; echo "exit $?" >> $R/rc/a9a-$loss.log) &
done
wait
echo "suite and racecheck done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
grep -v '^#' bench/families.txt | while read name spec; do
  [ -z "$name" ] && continue
  for b in new old; do
    bin=/tmp/n75/spmv; [ $b = old ] && bin=/tmp/new/spmv
    echo "$name $b $($bin plan --gen $spec --expected-products 1e6 2>&1 | grep -E 'analysis' | tr -s ' ')" >> $R/plan-analysis.txt
  done
done
echo "plans done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $R/ncu-bro-hyb.csv \
  /tmp/n75/spmv bench --gen stencil27:n=150 --kernels bro-hyb --runs 1 > $R/ncu-bench.log 2>&1
echo "ncu exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/rc/*.log; do echo "$(basename $f .log): $(grep -E 'RACECHECK SUMMARY|^exit|iterations' $f | tr '\n' ' ')"; done
  cat $R/plan-analysis.txt; grep -E 'bro-hyb|setup' $R/ncu-bench.log | head -5; wc -l $R/ncu-bro-hyb.csv
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
