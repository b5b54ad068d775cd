#!/usr/bin/env bash
# Device call 83 (one H100): Nsight Compute's kernel times of the f32 builds over 20 products (issue 12):
# SELL, DIA and BRO-ELL on the 27-point stencil 150^3, SELL, ELLR-T and BRO-HYB on block-FEM 80 (build of
# 7c1e48f; clocks left alone; the products after each build are profiled too and left out by the reader).
set -u
t0=$(date +%s); root=$PWD
R=/tmp/results83; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab81.txz -C /tmp
B=/tmp/n81
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
for spec in stencil27:n=150 blockfem:n=80,block=4; do
  k=sell,dia,bro-ell; [ "$spec" = stencil27:n=150 ] || k=sell,ellr-t,bro-hyb
  for kernel in ${k//,/ }; do
    timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      $B/spmv bench --gen $spec --precision f32 --kernels $kernel --runs 1 > $R/ncu-${spec%%:*}-$kernel.csv 2>&1
    echo "$spec $kernel exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  done
done
cat $R/timeline.txt > $OUT/summary.txt
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
