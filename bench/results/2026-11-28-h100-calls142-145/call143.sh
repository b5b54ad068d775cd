#!/usr/bin/env bash
# Device call 143 (one H100): DIA's diagonals collected in a set (new) against the flags per possible diagonal
# (base), the second try (each block gathers its diagonals in shared memory first): the diagnosis harness (the host
# check of the row pointers, DIA's device build first and later, its refusal of R-MAT 20, the default SpMM's build),
# GPU tests, the default plan of the two stencils interleaved (two rounds, f32 and f64), the GPU suite on new.
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/c143.txz | tar xf - -C /tmp/b
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for v in base new; do
  LD_LIBRARY_PATH=/tmp/b/$v/metis timeout 90 /tmp/b/$v/diag_setup f32 stencil5:nx=3000,ny=3000 stencil27:n=150 rmat:scale=20,edge_factor=16 \
    > $OUT/diag-$v.txt 2>&1
done
LD_LIBRARY_PATH=/tmp/b/new/metis timeout 60 /tmp/b/new/diag_setup f32 premalloc stencil5:nx=3000,ny=3000 \
  > $OUT/diag-premalloc-new.txt 2>&1
echo "diag done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
export LD_LIBRARY_PATH=/tmp/b/new/metis
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/b/new/spmv timeout 150 \
  /tmp/b/new/spmv_gpu_tests --gtest_filter='GpuBuildDiaSellBlocked*:GpuDeviceBuilds*' > $OUT/gpu-tests-dia.log 2>&1
echo "dia tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
F="stencil27:n=150 stencil5:nx=3000,ny=3000"
for r in 1 2; do for p in f32 f64; do for v in base new; do
  LD_LIBRARY_PATH=/tmp/b/$v/metis timeout 60 /tmp/b/$v/bench_format_builds $p --default-only $F \
    > $OUT/default-$p-$v-$r.txt 2>/dev/null
done; done; done
echo "benches done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
B=/tmp/b/new
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 200 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $OUT/gpu-tests-dia.log $OUT/gpu-tests.log | head -12
grep -hE "validate_row_pointers 0|dia build|dia refusal|SpMM|f32:" $OUT/diag-*.txt | head -60
for f in $OUT/default-*.txt; do echo "$(basename $f .txt): $(grep -E '^auto' $f | awk '{printf "%s %s %s %s | ", $2, $4, $5, $7}')"; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call143-results.tgz
