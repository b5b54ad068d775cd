#!/usr/bin/env bash
# Device call 232: the default (auto, the shipped model) with csr-adaptive's stage-less launch, against cuSPARSE and
# the ideal (every kernel timed) at 10^6 expected products, f64 and f32, on matrices the model was not trained on:
# call 214's unseen8, call 216's longrows (13) and issue 18's six R-MATs.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c231.txz
O=$OUT/r; mkdir -p $O
all_kernels_suite bench/results/2026-12-03-h200-calls214-/unseen8.txt unseen8 110 130
all_kernels_suite bench/results/2026-12-03-h200-calls214-/longrows.txt longrows 110 130
all_kernels_suite bench/results/2026-12-02-h200-calls197-/rmats6.txt rmats 60 80
cat $OUT/gpu.txt $OUT/times.txt
for f in $O/*-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; done
pack_results 232
