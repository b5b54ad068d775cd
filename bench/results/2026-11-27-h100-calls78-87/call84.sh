#!/usr/bin/env bash
# Device call 84 (one H100): ELL, ELLR-T (and HYB's ELL part, FastSpMM's copy) and SELL written by tiles of rows
# staged in shared memory (slot_tiles.cuh). The GPU suite (small data set, every 8th real matrix: the device
# builds against the host's, f32 and f64); beside it memcheck, initcheck and racecheck of the new kernel alone
# (kns=write_slot_tiles) in the device build tests. Then bench_format_builds on the five families, f32 and f64.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results84; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab84.txz -C /tmp
B=/tmp/n84
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=10 timeout 230 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
 echo "exit $?" >> $R/gpu-tests.log) &
for tool in memcheck initcheck racecheck; do
  (SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool $tool --kernel-name kns=write_slot_tiles \
     --error-exitcode 99 $B/spmv_gpu_tests --gtest_filter='GpuDeviceBuilds.Match*' > $R/$tool.log 2>&1
   echo "exit $?" >> $R/$tool.log) &
done
wait
echo "suite and sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
F="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for p in f32 f64; do
  timeout 150 $B/bench_format_builds $p $F > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for t in memcheck initcheck racecheck; do echo "$t: $(grep -E 'SUMMARY|^\[  (PASSED|FAILED)|^exit' $R/$t.log | tr '\n' ' ')"; done
  for p in f32 f64; do grep -E "^[a-z]| f(32|64) \(" $R/builds-$p.txt | grep -E "f(32|64) \(|^(auto|ell|ellr-t|hyb|sell) "; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
