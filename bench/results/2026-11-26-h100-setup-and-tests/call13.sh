#!/usr/bin/env bash
# Device call 13 (one GPU): every SpMV kernel's setup on the families of the setup model
# (bench_format_builds, f64 and f32: the input of bench/refit_setup.py, now with cuSPARSE's COO
# rows expanded on the device), then the whole GPU test suite with SPMV_REQUIRE_GPU=1.
set -u
t0=$(date +%s)
tar xJf .device-build/multi.txz
export SPMV_SHARED_DATA=$PWD/.device-data/data OMP_NUM_THREADS=16
R=/tmp/results; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
LARGE="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
SMALL="stencil5:n=100 uniform:rows=20000,cols=20000,per_row=4 rmat:scale=12,edge_factor=8 stencil27:n=12"
for p in f64 f32; do
  timeout 200 build/bench/bench_format_builds $p $LARGE $SMALL > $R/setup-$p.txt 2> $R/setup-$p.jsonl
  echo "setup $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout $(( t0 + 580 - $(date +%s) )) build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "tests done after $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{
  cat $OUT/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  echo "gpu tests: $(grep -c '^\[       OK' $R/gpu-tests.log) ok, $(grep -c '^\[  FAILED  \] [A-Z]' $R/gpu-tests.log) failed lines, last: $(grep '^\[ RUN' $R/gpu-tests.log | tail -1)"
  for p in f64 f32; do echo "== setup $p: $(wc -l < $R/setup-$p.jsonl) lines"; grep -E "cusparse-coo|^stencil27:n=150|^rmat:scale=22" $R/setup-$p.txt | head -8; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
