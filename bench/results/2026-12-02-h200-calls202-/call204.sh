#!/usr/bin/env bash
# Device call 204 (one H200), after call 203: csr-hub below hub_min_share hands the matrix to csr-adaptive (call 203 refused it, and the plan's next candidate, ELLR-T, gave widelp f32 0.90x); the cusparse CSR kernels plan their SpMM with the cuda backend's candidates (call 203 planned with the cusparse backend: nothing to rank) and for k >= 2 only; operators describe their planned SpMMs. Otherwise as call 203: the cusparse backend's CSR SpMV kernels plan their SpMM among
# cuSPARSE's algorithms (call 202 found ALG_DEFAULT 1.4-2.6x slower where the selector gives the SpMV to cuSPARSE),
# and GpuPlan's csr-hub test names the cuda backend. The whole GPU test binary; the Python module and its tests;
# bench/spmm_of_spmv_plans.py again; then csr-hub's refusal: auto beside csr-hub, csr-adaptive and cuSPARSE at 10^6
# expected products on hubcheck.txt and on bench/families.txt (its widelp family gets csr-hub from the model).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c204.txz
O=$OUT/r; mkdir -p $O
R=bench/results/2026-12-02-h200-calls202-
mv /tmp/b/py /tmp/py
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 240 $B/spmv_gpu_tests > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $O/py-build.log 2>&1
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared timeout 60 python3 -m pytest -q \
  -p no:cacheprovider . > $O/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -n 1 $O/pytest.log >> $OUT/times.txt
PYTHONPATH=/tmp/pymod timeout 150 python3 bench/spmm_of_spmv_plans.py --out $O > $O/spmm.txt 2>&1
echo "spmm of spmv plans exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 110 $B/spmv suite --families $R/hubcheck.txt --backend cuda --kernels csr-hub,csr-adaptive --precision f64,f32 \
  --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 90 --out $O/hub > $O/hub.log 2>&1
echo "hubcheck exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
python3 bench/auto_vs_cusparse.py $O/hub/results.jsonl --worst 16 > $O/hub-auto.md 2>&1
auto_suite families 40 50 --families bench/families.txt
python3 bench/auto_vs_cusparse.py $O/families/results.jsonl --worst 6 > $O/families-auto.md 2>&1
cat $OUT/gpu.txt $OUT/times.txt; tail -1 $O/spmm.txt
for f in $O/hub-auto.md $O/families-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; grep "^- " $f | head -16; done
pack_results 204
