#!/usr/bin/env bash
# Device call 23 (one GPU): the Python module with the `op @ x` short path (pytest, call cost,
# python_vs_peers at batch 10 and 50), then compute-sanitizer on the tests that never finished
# under synccheck/racecheck (real matrices every 8th: SPMV_TEST_MATRIX_STRIDE=8) and on every
# distributed test under the four tools.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g22.txz; tar xJf .device-build/py2.txz
R=$OUT; export SPMV_SHARED_DATA=$root/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
compute-sanitizer --version | tail -1 >> $R/gpu.txt
bash python/build_extension.sh .device-py/libs .device-py/include /tmp/pymod > $R/py-build.log 2>&1
export PYTHONPATH=/tmp/pymod
(cd tests/python && SPMV_REQUIRE_GPU=1 timeout 120 python3 -m pytest -q -p no:cacheprovider . > $R/pytest.log 2>&1; echo "exit $?" >> $R/pytest.log)
timeout 60 python3 .device-build/py_cost.py > $R/py-cost.log 2>&1
timeout 120 python3 bench/python_vs_peers.py --out $R/bench10 > $R/python-bench10.log 2>&1
timeout 60 python3 bench/python_vs_peers.py --batch 50 --families stencil5:n=300 rmat:scale=22,edge_factor=16 --out $R/bench50 > $R/python-bench50.log 2>&1
echo "python done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export DEADLINE=$(( t0 + 575 )) SPMV_TEST_MATRIX_STRIDE=8
slow='GpuBmrm.*:GpuMicro.*:GpuKernels.EveryKernelOnEnormousRows:GpuReorder.HostAndDeviceOperandsFloat:GpuBroBuilds.*'
TESTS="$(cat .device-build/race.filter)" FIRST="$slow" JOBS=7 LOG_DIR=$R/cs bash scripts/gpu-sanitize.sh racecheck > $R/sanitize-race.txt 2>&1 &
TESTS="$(cat .device-build/sync.filter)" FIRST="$slow" JOBS=4 LOG_DIR=$R/cs bash scripts/gpu-sanitize.sh synccheck > $R/sanitize-sync.txt 2>&1 &
TESTS='GpuDistributed.*' JOBS=4 LOG_DIR=$R/cs bash scripts/gpu-sanitize.sh > $R/sanitize-distributed.txt 2>&1 &
wait
echo "sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(cd $R && tar czf logs.tgz cs && rm -rf cs)
cat $R/gpu.txt $R/timeline.txt; tail -1 $R/py-build.log; tail -2 $R/pytest.log; cat $R/py-cost.log
tail -11 $R/python-bench10.log; tail -5 $R/python-bench50.log
cat $R/sanitize-race.txt $R/sanitize-sync.txt $R/sanitize-distributed.txt
