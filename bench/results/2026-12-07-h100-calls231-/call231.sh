#!/usr/bin/env bash
# Device call 231 (and its repeat on the other GPU): main's build with csr-adaptive's launch without staging
# (cd07217's kernel, built at d3a9049+) measures csr-adaptive again on the selector's training units of the GPU it
# runs on (scripts/remeasure-kernel.sh): the real matrices as they are and replicated, bench/families.txt, the 45
# selector-training families, and on an H200 also call 185's gaps11 and call 211's unseen15; f64 and f32.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c231.txz
more=()
if grep -q H200 $OUT/gpu.txt; then
  more=(bench/results/2026-11-30-h200-calls184-/gaps11.txt bench/results/2026-11-30-h200-calls184-/unseen15.txt)
fi
REAL_SECONDS=150 FAMILIES_SECONDS=60 FAMILIES45_SECONDS=150 MORE_SECONDS=60 \
  scripts/remeasure-kernel.sh csr-adaptive $B/spmv $M .device-build/families45.txt $OUT/r ${more[@]+"${more[@]}"}
gzip -9 $OUT/r/*/results.jsonl
cat $OUT/gpu.txt $OUT/r/times.txt
pack_results 231
