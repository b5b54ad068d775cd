#!/usr/bin/env bash
# Device call 71 (one H100): bro-hyb's shape on the whole 27-point stencil 150^3 f64 and on half of it
# (nz=75, about a two-part local block): threads per row and slice height (issue 16: is the half's loss
# a tail of the last wave?).
set -u
t0=$(date +%s)
R=/tmp/results71; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab66.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for nz in 150 75 50; do
  for p in threads_per_row=1 threads_per_row=2 threads_per_row=4 slice_height=128 slice_height=512 \
           slice_height=64,threads_per_row=2 slice_height=128,threads_per_row=2; do
    timeout 60 /tmp/new/spmv bench --gen stencil27:n=150,nz=$nz --kernels bro-hyb --params $p --runs 30 \
      > $R/nz$nz-$p.log 2>&1
    echo "nz=$nz $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  done
done
{ cat $R/gpu.txt; tail -1 $R/timeline.txt
  for f in $R/nz*.log; do printf "%-50s " $(basename $f .log); grep -E '^cuda +bro-hyb' $f | awk '{print $4}'; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
