#!/usr/bin/env bash
# Device call 119 (one H100 host's CPUs): the plan's analysis (c9ff225's code with timing marks after each step) and the
# row-pointer check, right after an upload-like parallel copy of 256 MiB on every thread, then a pause of 0, 3 or
# 30 ms; 16 threads, f32. A profiling aid outside the library (prof2.cpp).
set -u
R=/tmp/results119; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab119.txz -C /tmp
nproc > $R/host.txt
OMP_NUM_THREADS=16 TPR=1 timeout 200 /tmp/n119/prof2 uniform:rows=4000000,cols=4000000,per_row=16 \
  stencil5:nx=3000,ny=3000 stencil27:n=150 rmat:scale=22,edge_factor=16 > $R/prof2.txt 2> $R/phases-raw.txt
echo "exit $?" >> $R/prof2.txt
# Mean ms by step (the line of analyse_rows the mark followed) for each matrix and pause.
awk 'NF>2 {key=$1" "$2; for (i=3;i<=NF;i++){split($i,p,":"); s[key" "p[1]]+=p[2]; n[key" "p[1]]++}}
  END{for (k in s) if (s[k]/n[k] >= 0.03) printf "%s %.3f\n", k, s[k]/n[k]}' $R/phases-raw.txt | sort -k1,1 -k2,2 -k3n > $R/phases.txt
{ cat $R/host.txt $R/prof2.txt $R/phases.txt; } > $OUT/summary.txt
(cd /tmp && tar czf $OUT/results119.tgz results119)
cat $OUT/summary.txt
