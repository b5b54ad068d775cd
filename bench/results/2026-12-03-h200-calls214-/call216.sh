#!/usr/bin/env bash
# Device call 216 (one H200): csr-adaptive launched without CSR-stream's shared memory when every row block holds
# one row (new/, main at 7967f02 plus that change) against call 214's build (old/), each build's csr-adaptive
# beside cuSPARSE's algorithms in its own `spmv suite` run at 10^6 expected products, f64 and f32: on longrows.txt
# (every row longer than a row block; the kernel changes there) and on bench/families.txt (CSR-stream blocks
# everywhere; the kernel should not move). Then the whole GPU test binary of the new build, over every 8th real
# matrix (data.txz holds those seven, .mtx.gz).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c216.txz
O=$OUT/r; mkdir -p $O
here=bench/results/2026-12-03-h200-calls214-
for v in old new; do
  for set in longrows:$here/longrows.txt families:bench/families.txt; do
    name=${set%%:*}
    timeout 110 /tmp/b/$v/spmv suite --families ${set#*:} --backend cuda --kernels csr-adaptive --precision f64,f32 \
      --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 90 --out $O/$name-$v > $O/$name-$v.log 2>&1
    echo "$name $v exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  done
done
SPMV_SHARED_DATA=/tmp/shared SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 200 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/gpu-tests.log >> $OUT/times.txt
for name in longrows families; do
  python3 bench/ab_kernel.py csr-adaptive $O/$name-old/results.jsonl $O/$name-new/results.jsonl > $O/$name-ab.md 2>&1
  gzip -9 $O/$name-old/results.jsonl $O/$name-new/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt $O/longrows-ab.md $O/families-ab.md
pack_results 216
