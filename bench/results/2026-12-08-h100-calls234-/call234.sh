#!/usr/bin/env bash
# Device call 234: main's build (800b295) with the selector model files of b68887b: the whole GPU test binary
# (SPMV_REQUIRE_GPU=1, every 8th real matrix, a9a carried) and the Python module's tests, built on the device for its
# Python from the carried libspmv.a (python/build_extension.sh).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c234.txz gzip
mv /tmp/b/py /tmp/py
gpu_suite 300
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|FAILED" $OUT/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $OUT/py-build.log 2>&1
echo "python build exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared timeout 120 python3 -m pytest -q \
  -p no:cacheprovider . > $OUT/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -n 3 $OUT/pytest.log >> $OUT/times.txt
grep -E "FAILED|Error" $OUT/pytest.log | head -20 >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
gzip -9 $OUT/gpu-tests.log
