#!/usr/bin/env bash
# Device call 97 (one H100 machine, host only): where the plan's analysis goes on the 16 cores, by part
# (analysis_parts.cpp linked against e90beb1's library), 16 and 4 threads.
set -u
for t in 16 4; do
  echo "== OMP_NUM_THREADS=$t"
  OMP_NUM_THREADS=$t .device-build/an97/analysis_parts uniform:rows=4000000,cols=4000000,per_row=16 stencil27:n=150 blockfem:n=80,block=4
done 2>&1 | tee $OUT/summary.txt
