#!/usr/bin/env bash
# Device call 76 (one H100): the build with BRO-HYB's head not copied where no row is longer than K and
# the row-slice gather by warps of adjacent slots (issue 12). The GPU suite (small data set, every 8th
# real matrix: the device builds against the host's); the setup of bro-hyb, hyb, coo and bro-coo by the
# build before (ab75) and this one on four families; then Nsight Compute's sections of the BRO-ELL pack
# kernel on the 27-point stencil 150^3 f64 (clocks left alone).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results76; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab75.txz -C /tmp; tar xJf .device-build/ab76.txz -C /tmp; tar xJf .device-build/ab74.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8
export OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/n76/spmv timeout 200 /tmp/n76/spmv_gpu_tests > $R/gpu-tests.log 2>&1
echo "exit $?" >> $R/gpu-tests.log
echo "suite done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for spec in stencil27:n=150 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4; do
  for b in n76 n75; do
    timeout 60 /tmp/$b/spmv bench --gen $spec --kernels bro-hyb,hyb,coo,bro-coo --runs 10 > $R/setup-$b-${spec%%:*}.log 2>&1
    echo "$spec $b exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  done
done
timeout 120 ncu --clock-control none --kernel-name regex:pack_bro_ell --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats \
  /tmp/n76/spmv bench --gen stencil27:n=150 --kernels bro-ell --runs 1 > $R/ncu-pack.txt 2>&1
echo "ncu exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for f in $R/setup-*.log; do echo "== $(basename $f .log)"; grep -E '^  cuda .*= .*products|^cuda .* ok|FAILED' $f | cut -c1-150; done
  grep -E 'Duration|Throughput|Stall|Warp Cycles|Achieved Occupancy|Issued Ipc|L1/TEX Hit|L2 Hit|Registers' $R/ncu-pack.txt | head -40
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
