#!/usr/bin/env bash
# Device call 73 (one H100): racecheck (cuSPARSE's kernels left out) over the whole GPU suite of 724f9a4
# (ab67: the tests and spmv of d7d301f; later commits are docs), fifteen tests at a time, the small data
# set, every 8th real matrix; the two tests call 72 covered in pieces are left out. Then the resources of
# micro's row-read kernels (racecheck checks shared memory only).
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/ab67.txz -C /tmp
mkdir -p /tmp/b/tests && ln -sf /tmp/new/spmv /tmp/b/spmv && ln -sf /tmp/new/spmv_gpu_tests /tmp/b/tests/spmv_gpu_tests
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
BUILD_DIR=/tmp/b LOG_DIR=/tmp/cs JOBS=15 SANITIZE_TIMEOUT=560 DEADLINE=$(( t0 + 560 )) \
  TESTS='*-GpuBmrm.CudaMatchesCpu:GpuMicro.EveryPartIsMeasured' \
  FIRST='*RealMatrices*:*Enormous*:GpuDistributed.*:*Build*:*Bmrm*:*Cg*' \
  bash scripts/gpu-sanitize.sh racecheck > $OUT/sanitize.txt 2>&1
echo "exit $? after $(( $(date +%s) - t0 )) s" >> $OUT/sanitize.txt
cuobjdump -res-usage /tmp/new/spmv 2>/dev/null | grep -A1 -E 'Function .*read_rows' > $OUT/read-rows-resources.txt
(cd /tmp && tar czf $OUT/logs.tgz cs)
cat $OUT/gpu.txt; tail -25 $OUT/sanitize.txt; cat $OUT/read-rows-resources.txt | cut -c1-200
