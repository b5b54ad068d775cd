#!/usr/bin/env bash
# Device call 206 (one H200): csr-adaptive's row blocks taken by multiprocessor (sm_ranges=1) against by block
# index (sm_ranges=0, the default) on real matrices replicated (f32: 7 where cuSPARSE was faster in call 157 and
# 5 where we were; f64: 5 of them) and four generated ones, cuSPARSE in each run; then the whole GPU test binary
# (the code of stop 52's review and this change) and the Python module's tests.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c206.txz
O=$OUT/r; mkdir -p $O
mv /tmp/b/py /tmp/py
ab() {  # NAME PRECISION SOURCE...  (spmv bench's matrix arguments)
  local name=$1 precision=$2; shift 2
  for ranges in 0 1; do
    timeout 30 $B/spmv bench "$@" --backend cuda --kernels csr-adaptive --params sm_ranges=$ranges \
      --precision $precision --runs 20 --json $O/ab-${name}_$precision-sm$ranges.json > $O/ab-${name}_$precision-sm$ranges.txt 2>&1
  done
}
f32_units="lp_dfl001:658 wiki_Vote:271 PGPgiantcompo:487
rajat01:588 mbeacxc:621 NSR8K:580 bcspwr10:1056 4elt:274 mhd4800b:907 sherman3:1143 bcsstk16:106
hangGlider_2:1827"
f64_units="wiki_Vote:271 PGPgiantcompo:487 lp_dfl001:658 4elt:274 bcsstk16:106"
for u in $f32_units; do ab ${u%%:*} f32 $M/${u%%:*}.mtx.gz --copies ${u##*:}; done
echo "f32 replicated at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
for u in $f64_units; do ab ${u%%:*} f64 $M/${u%%:*}.mtx.gz --copies ${u##*:}; done
for p in f32 f64; do
  ab rmat20e4 $p --gen rmat:scale=20,edge_factor=4
  ab rmat22e8 $p --gen rmat:scale=22,edge_factor=8
  ab stencil5 $p --gen stencil5:nx=3000,ny=3000
  ab uniform $p --gen uniform:rows=4000000,cols=4000000,per_row=16
done
echo "a/b done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_CLI=$B/spmv timeout 200 $B/spmv_gpu_tests \
  > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $O/gpu-tests.log >> $OUT/times.txt
bash python/build_extension.sh /tmp/py/libs /tmp/py/include /tmp/pymod > $O/py-build.log 2>&1
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared timeout 60 python3 -m pytest -q \
  -p no:cacheprovider . > $O/pytest.log 2>&1; echo "pytest exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt)
tail -n 1 $O/pytest.log >> $OUT/times.txt
(cd $OUT && tar czf /tmp/r.tgz r); python3 bench/results/2026-11-29-h200-calls167-/shapes.py /tmp/r.tgz > $OUT/ab.md 2>&1
cat $OUT/gpu.txt $OUT/times.txt $OUT/ab.md
pack_results 206
