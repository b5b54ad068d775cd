#!/usr/bin/env bash
# Device call 217 (one H200): csr-adaptive without CSR-stream's shared memory lost on dense_tall f64 in call 216
# (0.77x), where a launch without shared memory may leave fewer blocks resident. new/ asks for the carveout that
# still holds every block the SM can run (full_occupancy_carveout); nocarve/ is call 216's new build (the driver's
# carveout), old/ call 214's. Each build's csr-adaptive beside cuSPARSE's algorithms in its own `spmv suite` run at
# 10^6 expected products, f64 and f32, on longrows.txt; new/ also on bench/families.txt (against call 216's old/
# there). Then new/'s GPU tests of the kernels, row blocks, determinism and plans, over every 8th real matrix.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c217.txz
O=$OUT/r; mkdir -p $O
here=bench/results/2026-12-03-h200-calls214-
suite() {  # BUILD NAME FAMILIES
  timeout 100 /tmp/b/$1/spmv suite --families $3 --backend cuda --kernels csr-adaptive --precision f64,f32 \
    --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 80 --out $O/$2-$1 > $O/$2-$1.log 2>&1
  echo "$2 $1 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}
for v in old nocarve new; do suite $v longrows $here/longrows.txt; done
suite new families bench/families.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='GpuKernels*:GpuRowBlocks.*:GpuDeterminism.*:GpuPlan.*:GpuDeviceCsr.*' > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
python3 bench/ab_kernel.py csr-adaptive $O/longrows-old/results.jsonl $O/longrows-new/results.jsonl > $O/longrows-ab.md 2>&1
python3 bench/ab_kernel.py csr-adaptive $O/longrows-nocarve/results.jsonl $O/longrows-new/results.jsonl \
  > $O/longrows-carveout-ab.md 2>&1
gzip -9 $O/*/results.jsonl
cat $OUT/gpu.txt $OUT/times.txt $O/longrows-ab.md $O/longrows-carveout-ab.md
pack_results 217
