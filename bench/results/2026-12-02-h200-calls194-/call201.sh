#!/usr/bin/env bash
# Device call 201 (one H200): an operator planned for the SpMV now plans its SpMM at the first spmm() of each k and
# layout. The GPU tests that multiply by SpMM (every suite but those of named out-of-core, build-only, micro and
# CG tests), SPMV_REQUIRE_GPU=1, a9a and the twenty smallest real matrices as the shared data; then the Python
# module built there and its tests, the GPU ones required. .device-build/c201.txz holds new/ (spmv,
# spmv_gpu_tests, metis) and py/ (libspmv.a, SuiteSparse's AMD, pybind11's headers).
set -u
rm -rf /tmp/b /tmp/py /tmp/pymod /tmp/shared && mkdir -p /tmp/b /tmp/shared/libsvm
xz -dc .device-build/c201.txz | tar xf - -C /tmp/b && mv /tmp/b/py /tmp/py
cp -r .device-data/matrices /tmp/shared/ && cp .device-data/a9a.gz /tmp/shared/libsvm/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 200 $B/spmv_gpu_tests \
  --gtest_filter='-GpuMicro*:*GpuOutOfCore*:GpuBroBuilds*:GpuBuildDiaSellBlocked*:GpuDeviceBuilds*:GpuColumnCheck*:GpuScratchMemory*:GpuCg*:GpuSuite*:GpuRowBlocks*' \
  > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $O/py-build.log 2>&1
echo "py build exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared timeout 60 python3 -m pytest -q \
  -p no:cacheprovider . > $O/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -n 2 $O/pytest.log >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call201-results.tgz
