#!/usr/bin/env bash
# Device call 185 (one H200): every kernel and auto on the eleven matrices of gaps11.txt (training data for the
# selector), 10^6 expected products, f64 and f32, cuSPARSE in the same run. The build is call 184's (main's
# kernels; its degree ordering is not used here).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c184.txz
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-11-30-h200-calls184-/gaps11.txt gaps11 400 470
cat $OUT/gpu.txt $OUT/times.txt $O/gaps11-all-auto.md
pack_results 185
