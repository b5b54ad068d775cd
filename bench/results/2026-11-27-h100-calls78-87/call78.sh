#!/usr/bin/env bash
# Device call 78 (one H100): the final build of last stop (1c4f1d0) and its unverified commits.
# The GPU suite (small data set, every 8th real matrix, bcsstk16 added for the CG test); beside it
# memcheck and initcheck of the BRO build tests (cuSPARSE and CUB left out) and racecheck of a9a's
# hinge training (lambda 1e-2: fewer iterations, the same kernels). Then every format's build on the
# five families of issue 12 (bench_format_builds, f64 and f32) and Nsight Compute's kernel times of
# bro-hyb's build of the 27-point stencil.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results78; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab78.txz -C /tmp
B=/tmp/n78
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv OMP_NUM_THREADS=10 timeout 230 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
 echo "exit $?" >> $R/gpu-tests.log) &
for tool in memcheck initcheck; do
  (SPMV_REQUIRE_GPU=1 OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool $tool --kernel-name-exclude kns=cusparse \
     --kernel-name-exclude kns=cub --error-exitcode 99 $B/spmv_gpu_tests --gtest_filter='GpuBroBuilds.*:GpuDeviceBuilds.Match*' \
     > $R/$tool.log 2>&1; echo "exit $?" >> $R/$tool.log) &
done
(OMP_NUM_THREADS=2 timeout 230 compute-sanitizer --tool racecheck --kernel-name-exclude kns=cusparse --kernel-name-exclude kns=cub \
   --error-exitcode 99 $B/spmv train .device-data/mini/libsvm/a9a.gz --format libsvm --backend cuda --loss hinge --lambda 1e-2 \
   > $R/racecheck-hinge.log 2>&1; echo "exit $?" >> $R/racecheck-hinge.log) &
wait
echo "suite and sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
F="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for p in f64 f32; do
  timeout 150 $B/bench_format_builds $p $F > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  $B/spmv bench --gen stencil27:n=150 --kernels bro-hyb --runs 1 > $R/ncu-brohyb.csv 2>&1
echo "ncu exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for t in memcheck initcheck racecheck-hinge; do echo "$t: $(grep -E 'SUMMARY|^\[  (PASSED|FAILED)|^exit|iterations' $R/$t.log | tr '\n' ' ')"; done
  for p in f64 f32; do cat $R/builds-$p.txt; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
