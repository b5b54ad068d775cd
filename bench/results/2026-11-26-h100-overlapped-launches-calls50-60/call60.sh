#!/usr/bin/env bash
# Device call 60 (one GPU): the review commit (SplitRowFixup decides its overlapped launch itself): the
# whole GPU suite, then csr-hub, csr-adaptive and csr-merge on R-MAT 20 ef 16 and two small real
# matrices beside cuSPARSE (the same speed as calls 53 and 55 expected).
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g60.txz
R=$OUT; mkdir -p $R
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 260 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
build/spmv gen rmat:scale=20,edge_factor=16 -o /tmp/rmat20.spmv > /dev/null
for m in /tmp/rmat20.spmv .device-data/mini/matrices/lp_dfl001.mtx.gz .device-data/mini/matrices/sherman3.mtx.gz; do
  timeout 60 build/spmv bench $m --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision f64 --runs 20 > $R/bench-$(basename $m | cut -d. -f1).log 2>&1
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/bench-*.log; do echo "== $(basename $f .log)"; grep -E '^(cuda|cusparse) ' $f; done; } > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz *.log *.txt && rm -f *.log timeline.txt gpu.txt)
cat $R/summary.txt
