#!/usr/bin/env bash
# Device call 202 (one H200): csr-hub refused by the selector where its hubs would hold under 20% of the entries
# (the model's hub_min_share), on the final code. The whole GPU test binary (SPMV_REQUIRE_GPU=1, a9a, bcsstk16 and
# the twenty smallest real matrices as the shared data); the Python module built there and its tests, the GPU ones
# required; then the SpMM of operators planned for the SpMV against cuSPARSE's SpMM algorithms
# (bench/spmm_of_spmv_plans.py) on seven generated matrices no training used. .device-build/c202.txz holds new/
# (spmv, spmv_gpu_tests, metis) and py/ (libspmv.a, SuiteSparse's AMD, pybind11's headers).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c202.txz
O=$OUT/r; mkdir -p $O
mv /tmp/b/py /tmp/py
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 300 $B/spmv_gpu_tests > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $O/py-build.log 2>&1
echo "py build exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared timeout 90 python3 -m pytest -q \
  -p no:cacheprovider . > $O/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -n 2 $O/pytest.log >> $OUT/times.txt
PYTHONPATH=/tmp/pymod timeout 200 python3 bench/spmm_of_spmv_plans.py --out $O > $O/spmm.txt 2>&1
echo "spmm of spmv plans exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt $O/spmm.txt | tail -60
pack_results 202
