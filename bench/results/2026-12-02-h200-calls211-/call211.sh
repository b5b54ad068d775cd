#!/usr/bin/env bash
# Device call 211 (one H200): main's final build of 2026-12-02 (the selector's nearness guard, csr-adaptive's 16-bit
# row starts): every kernel and auto at 10^6 expected products on the fifteen unseen generated matrices
# (unseen15.txt of calls 184-) and on bench/families.txt, f64 and f32, cuSPARSE in the same run.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c211.txz
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-11-30-h200-calls184-/unseen15.txt unseen15 90 110
all_kernels_suite bench/families.txt families 120 140
cat $OUT/gpu.txt $OUT/times.txt $O/unseen15-all-auto.md $O/families-all-auto.md
pack_results 211
