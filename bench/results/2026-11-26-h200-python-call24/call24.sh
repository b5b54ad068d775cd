#!/usr/bin/env bash
# Device call 24 (one GPU): the Python module (op @ x short path), its GPU tests, and
# bench/python_vs_peers.py as committed (batch 50, interleaved batches, paired overhead).
set -u
t0=$(date +%s)
tar xJf .device-build/py2.txz
R=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
bash python/build_extension.sh .device-py/libs .device-py/include /tmp/pymod > $R/py-build.log 2>&1
export PYTHONPATH=/tmp/pymod
(cd tests/python && SPMV_REQUIRE_GPU=1 timeout 120 python3 -m pytest -q -p no:cacheprovider . > $R/pytest.log 2>&1; echo "exit $?" >> $R/pytest.log)
timeout 60 python3 .device-build/py_cost.py > $R/py-cost.log 2>&1
timeout 300 python3 bench/python_vs_peers.py --out $R/bench > $R/python-bench.log 2>&1
echo "done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
cat $R/gpu.txt $R/timeline.txt; tail -2 $R/pytest.log; grep -E "op @ x|native" $R/py-cost.log; tail -11 $R/python-bench.log
