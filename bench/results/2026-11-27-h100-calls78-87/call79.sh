#!/usr/bin/env bash
# Device call 79 (one H100): the columns of a CSR checked on the device after the upload, the host checking
# only the row pointers (issue 12: plan() from host data against the upload), row_profile in parallel. The GPU
# suite (small data set, every 8th real matrix); beside it initcheck of the BRO build tests with nothing left
# out (CUB's writes must be seen) and memcheck + initcheck of the column-check tests. Then every format's
# setup by the wall clock on the five families of issue 12 (bench_format_builds, f64 and f32).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results79; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab79.txz -C /tmp
B=/tmp/n79
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=10 timeout 230 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
 echo "exit $?" >> $R/gpu-tests.log) &
(SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool initcheck --error-exitcode 99 \
   $B/spmv_gpu_tests --gtest_filter='GpuBroBuilds.*' > $R/initcheck-bro.log 2>&1; echo "exit $?" >> $R/initcheck-bro.log) &
for tool in memcheck initcheck; do
  (SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool $tool --error-exitcode 99 \
     $B/spmv_gpu_tests --gtest_filter='GpuColumnCheck.*' > $R/$tool-columns.log 2>&1; echo "exit $?" >> $R/$tool-columns.log) &
done
wait
echo "suite and sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
F="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for p in f64 f32; do
  timeout 150 $B/bench_format_builds $p $F > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for t in initcheck-bro memcheck-columns initcheck-columns; do
    echo "$t: $(grep -E 'SUMMARY|^\[  (PASSED|FAILED)|^exit' $R/$t.log | tr '\n' ' ')"; done
  for p in f64 f32; do cat $R/builds-$p.txt; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
