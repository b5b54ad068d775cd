#!/usr/bin/env bash
# Device call 116 (one H100): build f47ed10 (the review's device_values/view_of mend applied again). The GPU
# tests of the code it touches, SPMV_REQUIRE_GPU=1; the default on the twelve unseen matrices; the plan's
# analysis and row-pointer check by phase and thread count on this host (profiling aid, not in the library).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results116; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab116.txz -C /tmp
B=/tmp/n116
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
nproc >> $R/gpu.txt; lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node\(s\)' >> $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=16 \
  timeout 150 $B/spmv_gpu_tests --gtest_filter='GpuDeviceCsr*:GpuColumnCheck*:GpuRowBlocks*:GpuPlan*:GpuDeviceBuilds*:GpuCsr*' \
  > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
OMP_NUM_THREADS=16 timeout 110 $B/spmv suite --families .device-data/unseen2.txt --kernels all --backend cuda --runs 10 \
  --host-runs 0 --expected-products 1e6 --time-limit 100 --out $R/unseen > $R/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
python3 bench/auto_vs_cusparse.py $R/unseen/results.jsonl > $R/unseen.md 2>&1
TPR=1 timeout 150 $B/prof uniform:rows=4000000,cols=4000000,per_row=16 stencil5:nx=3000,ny=3000 \
  stencil27:n=150 blockfem:n=80,block=4 > $R/prof.txt 2> $R/prof-phases.txt
echo "prof exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
# Per phase (the line the analysis marked after it), mean ms over each setting's 8 runs.
awk '{key=$1" "$2" "$3; for (i=4;i<=NF;i++){split($i,p,":"); s[key" "p[1]]+=p[2]; n[key" "p[1]]++}}
  END{for (k in s) if (s[k]/n[k] >= 0.05) printf "%s %.3f\n", k, s[k]/n[k]}' $R/prof-phases.txt | sort > $R/phases.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  grep -E '^\| (family|real|replicated|precision|f32|f64) ' $R/unseen.md; grep -E '^- ' $R/unseen.md | head -8
  cat $R/prof.txt; grep 't=16\|t=2 ' $R/phases.txt
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results116.tgz results116)
cat $OUT/summary.txt
