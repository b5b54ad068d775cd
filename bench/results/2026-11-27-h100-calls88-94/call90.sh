#!/usr/bin/env bash
# Device call 90 (one H100): build ab1c3e7 (+ the setup_parts diagnosis harness). Where a default plan()'s
# time goes (setup_parts), the GPU suite (small data set, every 8th real matrix), the builds table f64 and
# f32 (bench_format_builds), Nsight Compute durations of the SELL build on the 5-point stencil f32, and the
# default against cuSPARSE and the ideal on the twelve unseen matrices (as in call 87).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results90; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab90.txz -C /tmp
B=/tmp/n90
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
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/spmv bench \
  --gen stencil5:nx=3000,ny=3000 --precision f32 --kernels sell --runs 1 > $R/ncu-sell.csv 2>&1
echo "ncu sell exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
left=$(( t0 + 560 - $(date +%s) ))
timeout $left $B/spmv suite --families .device-data/unseen2.txt --kernels all --backend cuda --runs 10 --host-runs 0 \
  --expected-products 1e6 --time-limit $(( left - 10 )) --out $R/unseen > $R/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
python3 bench/auto_vs_cusparse.py $R/unseen/results.jsonl > $R/unseen.md 2>&1
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  grep -E "model load|device properties|small plan|r1 " $R/setup-parts.txt
  for p in f64 f32; do grep -E "^[a-z0-9]+:.*(f32|f64) \(|auto:|cusparse \(setup\)|^(dia|sell|bro-ell|bro-hyb|ellr-t) " $R/builds-$p.txt; done
  grep -E '^\| (family|real|replicated) \|' $R/unseen.md; grep -E '^- ' $R/unseen.md | head -8
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results90.tgz results90)
cat $OUT/summary.txt
