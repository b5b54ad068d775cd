#!/usr/bin/env bash
# Device call 205 (one H200), after call 204, whose GpuReorder tests failed: a cusparse CSR operator's SpMM of k = 1
# (cuSPARSE's default algorithm) after a planned SpMM of another k (ALG1 or ALG3, preprocessed) gave wrong products
# on the same matrix descriptor. The SpMM now makes its own descriptor for each shape. The GPU tests of reordering,
# SpMM, plans, determinism and the cusparse and csr-hub kernels; the Python module and its tests; then
# bench/spmm_of_spmv_plans.py again.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c205.txz
O=$OUT/r; mkdir -p $O
mv /tmp/b/py /tmp/py
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 150 $B/spmv_gpu_tests \
  --gtest_filter='GpuReorder*:GpuSpmm*:GpuPlan*:GpuDeterminism*:GpuKernels/GpuKernelsEach.*/cusparse*:GpuKernels/GpuKernelsEach.*/csr_hub:GpuKernels.*' \
  > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $O/py-build.log 2>&1
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared timeout 60 python3 -m pytest -q \
  -p no:cacheprovider . > $O/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -n 1 $O/pytest.log >> $OUT/times.txt
PYTHONPATH=/tmp/pymod timeout 140 python3 bench/spmm_of_spmv_plans.py --out $O > $O/spmm.txt 2>&1
echo "spmm of spmv plans exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt; cat $O/spmm.txt
pack_results 205
