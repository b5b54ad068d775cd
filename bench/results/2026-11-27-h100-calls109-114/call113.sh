#!/usr/bin/env bash
# Device call 113 (one H100): build 7b4e065 (row blocks built on the device; the example plans from device arrays).
# The GPU suite (small data set, every 8th real matrix), the example, the Python module built there and its tests,
# and the default plan's row of
# bench_format_builds (with the plan from a device CSR) on the five families, f64 and f32.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results113; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab113.txz -C /tmp
B=/tmp/n113
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 250 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
$B/example_device_arrays_on_a_stream > $R/example.txt 2>&1; echo "exit $?" >> $R/example.txt
# The full builds table on uniform and R-MAT, this build and 75425ab (call 112's: row blocks on the host).
tar xJf .device-build/ab112.txz -C /tmp n112/bench_format_builds
for build in n113 n112; do
  timeout 100 /tmp/$build/bench_format_builds f64 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 \
    > $R/builds-all-f64-$build.txt 2> $R/builds-all-f64-$build.jsonl
  echo "full builds table $build exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
cp /tmp/metis/libmetis.so.* /tmp/py113/libs/ 2>/dev/null
bash python/build_extension.sh /tmp/py113/libs /tmp/py113/include /tmp/pymod > $R/py-build.log 2>&1
echo "py build exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 timeout 150 python3 -m pytest -q -p no:cacheprovider . \
  > $R/pytest.log 2>&1; echo "exit $?" >> $R/pytest.log)
echo "pytest done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for p in f64 f32; do
  timeout 75 $B/bench_format_builds $p --default-only $specs > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  tail -3 $R/pytest.log; cat $R/example.txt; for build in n113 n112; do echo "$build"; grep -E "^[a-z0-9]+:.*f64 \(|^(csr-adaptive|csr-hub|csr-vector) |cusparse \(setup\)" $R/builds-all-f64-$build.txt; done
  for p in f64 f32; do grep -E "first plan|^[a-z0-9]+:.*(f32|f64) \(|auto:|cusparse \(setup\)|default:|choosing|device CSR|once more" $R/builds-$p.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results113.tgz results113)
cat $OUT/summary.txt
