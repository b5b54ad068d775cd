#!/usr/bin/env bash
# Device call 191 (one H200): the SpMM model (36ed5bd) judged where it was not trained. Its GPU tests and the
# plans' and SpMM's; the Python module built there and its tests, the GPU ones required; then every SpMM kernel,
# cuSPARSE's SpMM algorithms and auto (the SpMM plan's model choice) at 10^6 expected products on
# spmm-unseen14.txt for k = 8 and 32 (trained: 4 and 16), both layouts, f64 and f32, and on twelve real matrices
# replicated to 4x the L2 for k = 8, f32. .device-build/c191.txz holds new/ (spmv, spmv_gpu_tests, metis) and
# py/ (libspmv.a, SuiteSparse's AMD, pybind11's headers); .device-data/ the twelve real matrices.
set -u
R=bench/results/2026-12-01-h200-calls190-
rm -rf /tmp/b /tmp/py /tmp/pymod /tmp/shared && mkdir -p /tmp/b /tmp/shared/matrices
xz -dc .device-build/c191.txz | tar xf - -C /tmp/b && mv /tmp/b/py /tmp/py
cp .device-data/*.mtx.gz /tmp/shared/matrices/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv timeout 120 $B/spmv_gpu_tests --gtest_filter='GpuPlan.*:GpuSpmm.*:GpuSuite.*' \
  > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
tail -3 $O/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $O/py-build.log 2>&1
echo "py build exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 timeout 150 python3 -m pytest -q -p no:cacheprovider . \
  > $O/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -2 $O/pytest.log >> $OUT/times.txt
timeout 300 $B/spmv suite --families $R/spmm-unseen14.txt --sets family --backend cuda --kernels all --k 8,32 \
  --layouts row,col --precision f64,f32 --runs 10 --warmup 2 --host-runs 0 --expected-products 1e6 \
  --time-limit 260 --out $O/unseen > $O/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 100 $B/spmv suite $R/spmm-real12.txt --sets replicated --backend cuda --kernels all --k 8 \
  --layouts row,col --precision f32 --runs 10 --warmup 2 --host-runs 0 --expected-products 1e6 \
  --time-limit 80 --out $O/real > $O/real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for d in unseen real; do
  python3 bench/auto_vs_cusparse.py $O/$d/results.jsonl --worst 10 > $O/$d-auto.md 2>&1
  gzip -9 $O/$d/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt
for d in unseen real; do grep '^| [a-z]' $O/$d-auto.md | grep -v '^| set'; done
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call191-results.tgz
