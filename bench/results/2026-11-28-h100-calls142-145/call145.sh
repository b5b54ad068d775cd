#!/usr/bin/env bash
# Device call 145 (one H100): the default SpMM warmed up beside the chosen kernel during the upload (new2) against
# call 144's library (new, DIA's set) and the library before this stop (base): the default plan of the two stencils,
# three versions interleaved, two rounds, f32 and f64; then the GPU suite on new2.
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/c145.txz | tar xf - -C /tmp/b
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
F="stencil27:n=150 stencil5:nx=3000,ny=3000"
for r in 1 2; do for p in f32 f64; do for v in base new new2; do
  LD_LIBRARY_PATH=/tmp/b/$v/metis timeout 60 /tmp/b/$v/bench_format_builds $p --default-only $F \
    > $OUT/default-$p-$v-$r.txt 2>/dev/null
done; done; done
echo "benches done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
B=/tmp/b/new2
export LD_LIBRARY_PATH=$B/metis
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 220 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $OUT/gpu-tests.log | head -12
for f in $OUT/default-*.txt; do echo "$(basename $f .txt): $(grep -E '^auto' $f | awk '{printf "%s %s %s %s | ", $2, $4, $5, $7}')"; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call145-results.tgz
