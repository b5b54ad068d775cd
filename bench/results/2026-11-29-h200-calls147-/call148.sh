#!/usr/bin/env bash
# Device call 148 (one H200): csr-adaptive with loads of 4 entries by default (128 x 8 in f32, 128 x 4 in f64):
# the whole GPU suite (every 8th shared matrix), then `spmv suite` on the 56 real matrices replicated, f32, with the
# kernels that win somewhere and cuSPARSE's algorithms; the best of ours and auto against cuSPARSE.
set -u
root=$PWD
R=bench/results/2026-11-29-h200-calls147-
mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c148.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 230 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 330 $B/spmv suite /tmp/shared/matrices --sets replicated --precision f32 --runs 20 --host-runs 0 \
  --expected-products 1000000 --time-limit 300 --out $OUT/suite-f32 \
  --kernels csr-adaptive,csr-merge,csr-vector-tuned,csr-hub,bro-ell,bro-hyb,dia,ellr-t,sell > $OUT/suite-f32.log 2>&1
echo "suite exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
python3 $R/best_vs_cusparse.py $OUT/suite-f32/results.jsonl | tee $OUT/summary.txt
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call148-results.tgz
