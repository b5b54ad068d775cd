#!/usr/bin/env bash
# Device call 124 (one H100): build 6d35122 (the review's mend: the analysis's scattered-diagonal branches, comments).
# The GPU suite (small data set, every 8th real matrix), then the default on the twelve unseen matrices.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results124; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab124.txz -C /tmp
B=/tmp/n124
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 250 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
timeout 110 $B/spmv suite --families .device-data/unseen2.txt --kernels all --backend cuda --runs 10 \
  --host-runs 0 --expected-products 1e6 --time-limit 100 --out $R/unseen > $R/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
python3 bench/auto_vs_cusparse.py $R/unseen/results.jsonl > $R/unseen.md 2>&1
$B/spmv --version > $R/version.txt 2>&1
{ cat $R/gpu.txt $R/version.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  grep -E '^\| (family|precision|f32|f64) ' $R/unseen.md; grep -E '^- ' $R/unseen.md | head -6
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results124.tgz results124)
cat $OUT/summary.txt
