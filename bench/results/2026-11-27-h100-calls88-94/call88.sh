#!/usr/bin/env bash
# Device call 88 (one H100): where a default plan()'s time goes (diagnosis harness, f2d56f1's library).
set -u
root=$PWD
xz -dc .device-build/setup_parts.xz > /tmp/setup_parts && chmod +x /tmp/setup_parts
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
which nsys ncu nvidia-smi perf 2>&1 | tee $OUT/tools.txt
nproc
/tmp/setup_parts stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4 > $OUT/setup-parts.txt 2>&1
echo "exit $?" >> $OUT/setup-parts.txt
cat $OUT/setup-parts.txt
