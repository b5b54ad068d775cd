#!/usr/bin/env bash
# Device call 102 (one H100): plan() uploads beside the analysis, on half the host threads each, above 64 MiB
# of CSR. The plan tests and the column check (GPU), then the default rows of bench_format_builds f64 and f32
# (make_plan + make_operator, and what choosing adds to plan()) on the five large families and two smaller ones.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results102; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab102.txz -C /tmp
B=/tmp/n102
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 100 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuColumnCheck.*:GpuDeviceBuilds.OutOfMemory*' \
  > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4 stencil5:nx=300,ny=300 stencil27:n=60"
for p in f64 f32; do
  timeout 120 $B/bench_format_builds $p --default-only $specs > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for p in f64 f32; do grep -E "first plan|^[a-z0-9]+:.*(f32|f64) \(|auto:|  \(|cusparse \(setup\)|^(dia|sell|bro-ell|bro-hyb|ellr-t|hyb|blocked) " $R/builds-$p.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results102.tgz results102)
cat $OUT/summary.txt
