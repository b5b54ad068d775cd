#!/usr/bin/env bash
# Device call 134: CUB caching allocator for build temporaries (n2) against HEAD (d1): GPU suite, BRO-ELL build steps, builds.
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/d1.txz | tar xf - -C /tmp/b && xz -dc .device-build/n2.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis
B=/tmp/b/n2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
t0=$(date +%s)
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 300 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1; echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" | tee -a $OUT/gpu-tests.log
for r in 1 2; do for v in d1 n2; do
  /tmp/b/$v/diag_bro_steps stencil27:n=150 > $OUT/steps-$v-$r.txt 2>&1
done; done
for v in d1 n2; do
  /tmp/b/$v/bench_format_builds f64 stencil27:n=150 blockfem:n=80,block=4 > $OUT/builds-f64-$v.txt 2> $OUT/builds-f64-$v.jsonl
  /tmp/b/$v/bench_format_builds f32 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 > $OUT/builds-f32-$v.txt 2> $OUT/builds-f32-$v.jsonl
done
echo "elapsed $(( $(date +%s) - t0 )) s"
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests exit" $OUT/gpu-tests.log | head -20
for f in $OUT/steps-*.txt; do echo "== $(basename $f)"; awk '/round/{r=$2" "$4} /freed/{printf "%s freed %s | ", r, $2} /plan\(/{printf "\n%s", $0}' $f; echo; done
for f in $OUT/builds-*-d1.txt $OUT/builds-*-n2.txt; do echo "== $(basename $f)"; grep -E "^[a-z]|^auto|make_plan" $f | grep -vE "^kernel|^csr-|^cusparse-|refused" | awk '{print $1, $2, $3, $4, $5}' ; done
