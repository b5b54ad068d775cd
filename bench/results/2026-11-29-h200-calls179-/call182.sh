#!/usr/bin/env bash
# Device call 182 (one H200): every kernel and auto, 10^6 expected products, on thirteen generated matrices no
# earlier run measured (unseen13.txt), f64 and f32, cuSPARSE in the same run; the library of call 181's new/.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c181.txz
O=$OUT/r; mkdir -p $O
R=bench/results/2026-11-29-h200-calls179-
all_kernels_suite $R/unseen13.txt unseen13 250 300
cat $OUT/gpu.txt $OUT/times.txt $O/unseen13-all-auto.md
pack_results 182
