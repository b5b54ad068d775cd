#!/usr/bin/env bash
# Device call 22 (one GPU): the e46e416 build's distributed/stream/device GPU tests on the real matrices;
# the Python module built here (Python 3.12), its GPU tests, the call-cost diagnostic and python_vs_peers.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g22.txz; tar xJf .device-build/py2.txz
R=$OUT; export SPMV_SHARED_DATA=$root/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(bash python/build_extension.sh .device-py/libs .device-py/include /tmp/pymod > $R/py-build.log 2>&1; echo "exit $?" >> $R/py-build.log) &
(SPMV_REQUIRE_GPU=1 timeout 150 build/tests/spmv_gpu_tests --gtest_filter='GpuDistributed.*:GpuStreams.*:GpuDevice.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
wait
echo "tests and build done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export PYTHONPATH=/tmp/pymod
(cd tests/python && SPMV_REQUIRE_GPU=1 timeout 120 python3 -m pytest -q -p no:cacheprovider . > $R/pytest.log 2>&1; echo "exit $?" >> $R/pytest.log)
timeout 60 python3 .device-build/py_cost.py > $R/py-cost.log 2>&1
echo "pytest and cost done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
timeout $(( t0 + 560 - $(date +%s) )) python3 bench/python_vs_peers.py --out $R/bench > $R/python-bench.log 2>&1
echo "bench exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
cat $R/gpu.txt $R/timeline.txt; tail -1 $R/py-build.log
grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^\[  SKIPPED|^exit' $R/gpu-tests.log
tail -3 $R/pytest.log; cat $R/py-cost.log; tail -12 $R/python-bench.log
