#!/usr/bin/env bash
# Device call 99 (one H100): the final build 606ac5f. Where a default plan()'s time goes (setup_parts.cpp,
# as in call 90, on the five large families), the GPU suite (small data set, every 8th real matrix), the
# builds table f32 (bench_format_builds).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results99; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab99.txz -C /tmp
B=/tmp/n99
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
timeout 40 $B/setup_parts99 $specs > $R/setup-parts.txt 2>&1
echo "setup_parts exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 190 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
left=$(( t0 + 290 - $(date +%s) ))
timeout $left $B/bench_format_builds f32 $specs > $R/builds-f32.txt 2> $R/builds-f32.jsonl
echo "builds f32 exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  grep -E "model load|device properties|small plan|default" $R/setup-parts.txt
  grep -E "^[a-z0-9]+:.*(f32|f64) \(|auto:|cusparse \(setup\)|first|^(dia|sell|bro-ell|bro-hyb|ellr-t|hyb|blocked) " $R/builds-f32.txt
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results99.tgz results99)
cat $OUT/summary.txt
