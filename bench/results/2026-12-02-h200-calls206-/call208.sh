#!/usr/bin/env bash
# Device call 208 (one H200): main's build (fdfb413): every kernel and auto at 10^6 expected products on the fifteen
# generated matrices no training used (unseen15.txt of calls 184-), f64 and f32, cuSPARSE in the same run.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c208.txz
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-11-30-h200-calls184-/unseen15.txt unseen15 330 400
cat $OUT/gpu.txt $OUT/times.txt $O/unseen15-all-auto.md
pack_results 208
