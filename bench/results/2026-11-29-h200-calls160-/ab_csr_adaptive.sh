#!/usr/bin/env bash
# Device calls 160-164 (one H200 each): csr-adaptive before (12a1af4, old/new/spmv in the archive) and after a
# change (new/spmv), beside cuSPARSE's algorithms: the csr-adaptive GPU tests of the new build, then csr-adaptive
# alone on the R-MATs and huge_3m (rmat.txt), the real matrices as they are and replicated; f64 and f32. Which
# rule each call's new build carried is in README.md.
#   bash ab_csr_adaptive.sh CALL [FIRST]   reads .device-build/cCALL.txz, writes $OUT/callCALL-results.tgz;
#   FIRST (old or new, default old) is the build timed first (call 164: new).
set -u
call=$1 first=${2:-old}
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c$call.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
R=bench/results/2026-11-29-h200-calls160-
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
export LD_LIBRARY_PATH=/tmp/b/new/metis
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 \
  SPMV_CLI=/tmp/b/new/spmv timeout 150 /tmp/b/new/spmv_gpu_tests \
  --gtest_filter='*csr_adaptive*:*CsrAdaptive*:GpuKernels.Described*:GpuRowBlocks*' > $OUT/gpu-tests-adaptive.log 2>&1
echo "adaptive tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0"
second=old; [ $first = old ] && second=new
for v in $first $second; do
  S=/tmp/b/new/spmv; [ $v = old ] && S=/tmp/b/old/new/spmv
  timeout 100 $S suite --families $R/rmat.txt $common --time-limit 85 --out $OUT/$v-rmat \
    > $OUT/$v-rmat.log 2>&1
  echo "$v rmat exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  timeout 110 $S suite /tmp/shared/matrices --sets real,replicated $common --time-limit 95 \
    --out $OUT/$v-real > $OUT/$v-real.log 2>&1
  echo "$v real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
done
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests-adaptive.log | head -12
for d in rmat real; do
  python3 $R/ab_kernel.py $OUT/old-$d/results.jsonl $OUT/new-$d/results.jsonl csr-adaptive
  gzip -9 $OUT/old-$d/results.jsonl $OUT/new-$d/results.jsonl
done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call$call-results.tgz
