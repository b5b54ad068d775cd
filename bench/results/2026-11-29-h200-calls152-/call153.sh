#!/usr/bin/env bash
# Device call 153 (one H200): csr-adaptive (row blocks sized to the matrix: fewer items per thread below 8 blocks
# per SM) measured again on every unit the selector trains on for this device, beside cuSPARSE's algorithms (and
# auto, which the suite always measures), after the whole GPU test suite (every 8th shared matrix):
# families45 (../shared/data/selector-training), bench/families.txt, the real matrices as they are and replicated;
# f64 and f32. The results retrain the model (scripts/train-selector.sh).
set -u
mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c153.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 200 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0"
timeout 170 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 150 --out $OUT/real \
  > $OUT/real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 100 $B/spmv suite --families bench/families.txt $common --time-limit 80 --out $OUT/families \
  > $OUT/families.log 2>&1
echo "families exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 110 $B/spmv suite --families .device-build/families45.txt $common --time-limit 90 --out $OUT/families45 \
  > $OUT/families45.log 2>&1
echo "families45 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
for d in real families families45; do tail -1 $OUT/$d.log; gzip -9 $OUT/$d/results.jsonl; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call153-results.tgz
