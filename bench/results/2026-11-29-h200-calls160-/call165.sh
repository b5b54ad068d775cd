#!/usr/bin/env bash
# Device call 165 (one H200), on the final build (csr-adaptive as in call 164: long rows left to warps in the
# row blocks marked at plan time): the whole GPU test suite (every 8th shared matrix; new: hub rows among short
# ones), then every kernel of ours and cuSPARSE's on the R-MATs and huge_3m (rmat.txt), f64 and f32: issue 18's
# table.
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c165.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
R=bench/results/2026-11-29-h200-calls160-
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 280 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 150 $B/spmv suite --families $R/rmat.txt --backend cuda --kernels all --precision f64,f32 --runs 20 \
  --host-runs 0 --time-limit 135 --out $OUT/rmat-all > $OUT/rmat-all.log 2>&1
echo "rmat all kernels exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
tail -1 $OUT/rmat-all.log
python3 bench/results/2026-11-29-h200-calls147-/best_vs_cusparse.py $OUT/rmat-all/results.jsonl
gzip -9 $OUT/rmat-all/results.jsonl
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call165-results.tgz
