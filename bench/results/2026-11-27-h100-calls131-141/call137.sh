#!/usr/bin/env bash
# Device call 137 (one H100): is the default plan's first build slow for CUDA's lazy loading? The default row
# (the process's first operator) under CUDA_MODULE_LOADING=LAZY and EAGER, interleaved, n4's library.
set -u
mkdir -p /tmp/b && xz -dc .device-build/n4.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis
B=/tmp/b/n4
for r in 1 2 3; do for m in LAZY EAGER; do
  s=$(date +%s%N)
  CUDA_MODULE_LOADING=$m $B/bench_format_builds f32 --default-only stencil5:nx=3000,ny=3000 stencil27:n=150 > $OUT/default-$m-$r.txt 2>/dev/null
  e=$(date +%s%N)
  echo "== $m $r (process $(( (e - s) / 1000000 )) ms)"; grep -E "first plan|^auto|default:" $OUT/default-$m-$r.txt | cut -c1-150
done; done
