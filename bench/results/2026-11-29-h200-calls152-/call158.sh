#!/usr/bin/env bash
# Device call 158 (one H200): this stop's final build (csr-adaptive's row blocks sized to the matrix, the model
# retrained on calls 153 and 155-157): the whole GPU test suite (every 8th shared matrix); then auto at 10^6
# expected products beside csr-adaptive and cuSPARSE's algorithms on the real matrices as they are and replicated,
# bench/families.txt and the twelve unseen matrices; then every kernel on the twelve unseen (the ideal).
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c158.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new; O=$OUT/new; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 200 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6"
timeout 100 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 80 --out $O/real \
  > $O/real.log 2>&1
timeout 50 $B/spmv suite --families bench/families.txt $common --time-limit 40 --out $O/families > $O/families.log 2>&1
timeout 50 $B/spmv suite --families .device-build/unseen12.txt $common --time-limit 40 --out $O/unseen \
  > $O/unseen.log 2>&1
echo "auto done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 80 $B/spmv suite --families .device-build/unseen12.txt --backend cuda --kernels all --precision f64,f32 \
  --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 70 --out $O/unseen-all > $O/unseen-all.log 2>&1
echo "unseen, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" $OUT/gpu-tests.log | head -12
for d in real families unseen unseen-all; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 6 > $O/$d-auto.md 2>&1
  echo "== $d"; grep "^| [a-z]" $O/$d-auto.md | grep -v "^| set"
  gzip -9 $O/$d/results.jsonl
done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call158-results.tgz
