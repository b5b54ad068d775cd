#!/usr/bin/env bash
# Device call 232: the default with csr-adaptive's stage-less launch against cuSPARSE and the ideal (every kernel
# timed) at 10^6 expected products, f64 and f32, on matrices the model was not trained on: call 214's unseen8, call
# 216's longrows (13) and issue 18's six R-MATs. With .device-build/candidate.json (a retrained model: the sm90.json
# scripts/train-selector.sh wrote), the same binary times the candidate's auto on the same matrices
# (SPMV_SELECTOR_MODEL), judged against its own run's cuSPARSE and the every-kernel run's ideal
# (bench/auto_vs_cusparse.py --auto-from).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c232.txz
O=$OUT/r; mkdir -p $O
candidate=$PWD/.device-build/candidate.json
judge() {  # FAMILIES_FILE NAME SECONDS TIMEOUT
  all_kernels_suite "$@"
  [ -f $candidate ] || return 0
  model_suite $candidate candidate $2 40 --families $1
  python3 bench/auto_vs_cusparse.py $O/$2-all/results.jsonl.gz --auto-from $O/$2-candidate/results.jsonl \
    --worst 8 > $O/$2-candidate-auto.md 2>&1
  gzip -9 $O/$2-candidate/results.jsonl
}
judge bench/results/2026-12-03-h200-calls214-/unseen8.txt unseen8 100 120
judge bench/results/2026-12-03-h200-calls214-/longrows.txt longrows 100 120
judge bench/results/2026-12-02-h200-calls197-/rmats6.txt rmats 50 70
cat $OUT/gpu.txt $OUT/times.txt
for f in $O/*-auto.md; do echo "== $(basename $f)"; grep "^| [a-z]" $f | grep -v "^| set"; done
pack_results 232
