#!/usr/bin/env bash
# Device call 120 (one H100 host's CPUs): the plan's analysis and the row-pointer check right after an upload-like
# parallel copy (prof2.cpp, a profiling aid outside the library), 16 threads, f32: c9ff225's analysis (prof2_old)
# against the working tree's (length counts shared among threads, scattered diagonals handed to their slices'
# owners; prof2_new), alternated, two rounds; then the new one with timing marks after each step (prof2_new_i).
set -u
R=/tmp/results120; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab120.txz -C /tmp
specs="uniform:rows=4000000,cols=4000000,per_row=16 stencil5:nx=3000,ny=3000 stencil27:n=150 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
export OMP_NUM_THREADS=16
for round in 1 2; do
  for build in prof2_old prof2_new; do
    echo "== $build round $round" >> $R/prof2.txt
    timeout 100 /tmp/n120/$build $specs >> $R/prof2.txt 2>/dev/null
  done
done
TPR=1 timeout 100 /tmp/n120/prof2_new_i $specs > $R/prof2-new-i.txt 2> $R/phases-raw.txt
awk 'NF>2 {key=$1" "$2; for (i=3;i<=NF;i++){split($i,p,":"); s[key" "p[1]]+=p[2]; n[key" "p[1]]++}}
  END{for (k in s) if (s[k]/n[k] >= 0.03) printf "%s %.3f\n", k, s[k]/n[k]}' $R/phases-raw.txt | sort -k1,1 -k2,2 -k3n > $R/phases.txt
{ cat $R/prof2.txt; grep "pause=3 " $R/phases.txt; } > $OUT/summary.txt
(cd /tmp && tar czf $OUT/results120.tgz results120)
cat $OUT/summary.txt
