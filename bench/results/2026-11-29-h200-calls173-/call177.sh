#!/usr/bin/env bash
# Device call 177 (one H200): the Python module built there from the final library (bf7793a's libspmv.a) and
# its tests, the GPU ones required (their SpMM through CuPy now builds the default SpMM's copy at the first
# narrow product).
set -u
rm -rf /tmp/py /tmp/pymod && xz -dc .device-build/c177.txz | tar xf - -C /tmp
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $OUT/py-build.log 2>&1
echo "py build exit $?"
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 timeout 200 python3 -m pytest -q -p no:cacheprovider . \
  > $OUT/pytest.log 2>&1; echo "pytest exit $?")
tail -5 $OUT/py-build.log; tail -15 $OUT/pytest.log
