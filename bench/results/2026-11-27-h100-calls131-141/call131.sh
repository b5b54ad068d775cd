#!/usr/bin/env bash
# Device call 131: where BRO-ELL's device build spends its time (diagnosis harness with step marks).
set -u
mkdir -p /tmp/b && xz -dc .device-build/d1.txz | tar xf - -C /tmp/b
B=/tmp/b/d1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
nproc
$B/diag_bro_steps stencil27:n=150 stencil5:nx=3000,ny=3000 blockfem:n=80,block=4 > $OUT/steps.txt 2>&1; echo "exit $?" >> $OUT/steps.txt
$B/bench_format_builds f64 stencil27:n=150 > $OUT/builds-f64.txt 2> $OUT/builds-f64.jsonl; echo "exit $?" >> $OUT/builds-f64.txt
awk '/round [012]:/{f=0} /round 3:/{f=1} /plan\(|cudaMalloc|exit/{f=0; print} f' $OUT/steps.txt
grep -E "bro|upload|exit" $OUT/builds-f64.txt
