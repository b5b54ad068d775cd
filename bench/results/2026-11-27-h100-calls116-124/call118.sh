#!/usr/bin/env bash
# Device call 118 (one H100): build c9ff225 (the plan's analysis: rows walked in chunks, values counted without rows,
# block shapes of one height in one pass, diagonals counted as set; every thread as before). The GPU suite (small data
# set, every 8th real matrix); the example; the Python module built there and its tests; the default plan's row of
# bench_format_builds on the five families, f64 and f32, against 4f28524 (call 116's build, the analysis before),
# interleaved, two rounds; the default on the twelve unseen matrices.
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results118; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab118.txz -C /tmp
tar xJf .device-build/ab116.txz -C /tmp n116/bench_format_builds
B=/tmp/n118
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 250 $B/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
$B/example_device_arrays_on_a_stream > $R/example.txt 2>&1; echo "exit $?" >> $R/example.txt
cp /tmp/metis/libmetis.so.* /tmp/py118/libs/ 2>/dev/null
bash python/build_extension.sh /tmp/py118/libs /tmp/py118/include /tmp/pymod > $R/py-build.log 2>&1
echo "py build exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(cd tests/python && PYTHONPATH=/tmp/pymod SPMV_REQUIRE_GPU=1 timeout 150 python3 -m pytest -q -p no:cacheprovider . \
  > $R/pytest.log 2>&1; echo "exit $?" >> $R/pytest.log)
echo "pytest done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for round in 1 2; do
  for p in f64 f32; do
    for build in n116 n118; do
      timeout 75 /tmp/$build/bench_format_builds $p --default-only $specs > $R/builds-$p-$build-$round.txt \
        2> $R/builds-$p-$build-$round.jsonl
      echo "builds $p $build round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
    done
  done
done
timeout 110 $B/spmv suite --families .device-data/unseen2.txt --kernels all --backend cuda --runs 10 \
  --host-runs 0 --expected-products 1e6 --time-limit 100 --out $R/unseen > $R/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
python3 bench/auto_vs_cusparse.py $R/unseen/results.jsonl > $R/unseen.md 2>&1
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  tail -3 $R/pytest.log; cat $R/example.txt
  grep -E '^\| (family|real|replicated|precision|f32|f64) ' $R/unseen.md; grep -E '^- ' $R/unseen.md | head -8
  for round in 1 2; do for p in f64 f32; do for build in n116 n118; do echo "== $p $build round $round"
    grep -E "^[a-z0-9]+:.*(f32|f64) \(|default:|choosing|first plan" $R/builds-$p-$build-$round.txt | sed 's/^  (//'; done; done; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results118.tgz results118)
cat $OUT/summary.txt | head -60
