#!/usr/bin/env bash
# Device call 68 (two H100s): call 67's sanitizer runs again, narrowed to what is ours: initcheck with
# NCCL's kernels excluded (their reads of buffers the peer GPU writes are not seen as initialised), and
# memcheck without API errors (NCCL's own handled ones: peer access already enabled, no kernel image).
set -u
t0=$(date +%s)
R=/tmp/results68; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab67.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0 SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/new/spmv
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1
timeout 110 compute-sanitizer --tool initcheck --kernel-name-exclude kns=nccl \
  /tmp/new/spmv_gpu_tests --gtest_filter='GpuDistributed.*' > $R/initcheck.log 2>&1
echo "initcheck exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
timeout 90 compute-sanitizer --tool memcheck --report-api-errors no \
  /tmp/new/spmv_gpu_tests --gtest_filter='GpuDistributed.*' > $R/memcheck.log 2>&1
echo "memcheck exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt
  for tool in initcheck memcheck; do echo "== $tool"; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|ERROR SUMMARY|SKIPPED|rror: ' $R/$tool.log | head -8
    grep -E '^=========     at ' $R/$tool.log | sed 's/+0x[0-9a-f]*//' | sort | uniq -c | sort -rn | head -5; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
