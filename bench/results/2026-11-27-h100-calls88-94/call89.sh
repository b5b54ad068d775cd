#!/usr/bin/env bash
# Device call 89 (one H100): build 236b995 (+ the setup_parts diagnosis harness). The GPU suite (small data
# set, every 8th real matrix), where a default plan()'s time goes (setup_parts), the builds table f64 and f32
# (bench_format_builds), and Nsight Compute durations of the SELL, BRO-ELL and BRO-HYB builds on the
# 5-point stencil in f32.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results89; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab89.txz -C /tmp
B=/tmp/n89
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
$B/setup_parts stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 \
  rmat:scale=22,edge_factor=16 blockfem:n=80,block=4 > $R/setup-parts.txt 2>&1
echo "setup_parts exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 220 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for p in f64 f32; do
  timeout 120 $B/bench_format_builds $p $specs > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
for k in sell bro-ell bro-hyb; do
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/spmv bench \
    --gen stencil5:nx=3000,ny=3000 --precision f32 --kernels $k --runs 1 > $R/ncu-$k.csv 2>&1
  echo "ncu $k exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
cp $R/* $OUT/ 2>/dev/null
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  grep -E "model load|device properties|small plan|r1 " $R/setup-parts.txt
  for p in f64 f32; do grep -E "^[a-z]+.*(f32|f64) \(|auto:|cusparse \(setup\)|^(dia|sell|bro-ell|bro-hyb|ellr-t) " $R/builds-$p.txt; done
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
