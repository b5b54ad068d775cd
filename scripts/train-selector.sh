#!/usr/bin/env bash
# Retrains the kernel selector's models from the `spmv suite` results that
# define them: the SpMV's (src/select/models/sm90.json, held-out judgement in
# docs/selector-judgement.md) and the SpMM's (sm90-spmm.json, from the SpMM
# units of k > 1 in both layouts; docs/selector-spmm-judgement.md); a later file's measurement of a kernel on a unit replaces an
# earlier one, and a kernel listed in bench/selector/kernel-changes.txt keeps only its results
# from after its change. Features come from the built tool (BUILD_DIR/spmv), so
# build first; on a machine with few cores the feature cache
# (bench/selector/features.jsonl) saves recomputing them: delete it when the
# features change. The setup model is then refitted from the device-build
# measurements (bench/refit_setup.py; the suite results predate the builds
# on the GPU). Then rebuild: the model is compiled into the library.
#   scripts/train-selector.sh [MORE_RESULTS.jsonl ...]   (SpMV results; SpMM ones in spmm_results below)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
shared=${SPMV_SHARED_DATA:-../shared/data}
results=("$shared/selector-training/h100-2026-11-23-families45.jsonl.gz"
         "$shared/selector-training/h200-2026-11-23-families45.jsonl.gz"
         bench/results/2026-11-22-h100/results.jsonl.gz
         bench/results/2026-11-26-csr-hub-suite/h100-families.jsonl.gz
         bench/results/2026-11-26-csr-hub-suite/h200-families.jsonl.gz
         bench/results/2026-11-26-csr-hub-suite/h100-real.jsonl.gz
         bench/results/2026-11-26-h100-retrain-calls61-62/h100-families.jsonl.gz
         bench/results/2026-11-26-h100-retrain-calls61-62/h100-real.jsonl.gz
         bench/results/2026-11-26-h100-retrain-calls61-62/h100-families-round2.jsonl.gz
         bench/results/2026-11-29-h200-calls147-/call148/suite-f32-replicated.jsonl.gz
         bench/results/2026-11-29-h200-calls147-/call149/real/results.jsonl.gz
         bench/results/2026-11-29-h200-calls147-/call149/families/results.jsonl.gz
         bench/results/2026-11-29-h200-calls147-/call149/families45/results.jsonl.gz
         bench/results/2026-11-29-h200-calls160-/call166/real/results.jsonl.gz
         bench/results/2026-11-29-h200-calls160-/call166/families/results.jsonl.gz
         bench/results/2026-11-29-h200-calls160-/call166/families45/results.jsonl.gz
         bench/results/2026-11-29-h200-calls152-/call155/real-all/results.jsonl.gz
         bench/results/2026-11-29-h200-calls152-/call156/replicated-all/results.jsonl.gz
         bench/results/2026-11-29-h200-calls152-/call157/replicated-all/results.jsonl.gz
         bench/results/2026-11-30-h200-calls184-/call185/gaps11/results.jsonl.gz
         bench/results/2026-12-02-h200-calls211-/families-all.jsonl.gz
         bench/results/2026-12-02-h200-calls211-/unseen15-all.jsonl.gz
         bench/results/2026-12-05-h200-calls220-/call220/real-a.jsonl.gz
         bench/results/2026-12-05-h200-calls220-/call220/families-a.jsonl.gz
         bench/results/2026-12-05-h200-calls220-/call221/results.jsonl.gz
         bench/results/2026-12-05-h200-calls223-/call223/families45/results.jsonl.gz
         bench/results/2026-12-05-h200-calls223-/call223/gaps11/results.jsonl.gz
         bench/results/2026-12-05-h200-calls223-/call223b/unseen15-results.jsonl.gz "$@")
python3 bench/train_selector.py --spmv "$build_dir/spmv" --shared-matrices "$shared/matrices" \
  --features-cache bench/selector/features.jsonl --jobs "${JOBS:-$(nproc)}" \
  --out src/select/models/sm90.json --judge docs/selector-judgement.md "${results[@]}"
python3 bench/refit_setup.py --model src/select/models/sm90.json \
  bench/results/2026-11-26-h100-setup-and-tests/results/setup-f64.jsonl bench/results/2026-11-26-h100-setup-and-tests/results/setup-f32.jsonl
spmm_results=(bench/results/2026-12-01-h200-calls190-/call190/spmm-results.jsonl.gz
              bench/results/2026-12-01-h200-calls190-/call192/real41-results.jsonl.gz)
python3 bench/train_selector.py --operation spmm --spmv "$build_dir/spmv" --shared-matrices "$shared/matrices" \
  --features-cache bench/selector/features.jsonl --jobs "${JOBS:-$(nproc)}" \
  --out src/select/models/sm90-spmm.json --judge docs/selector-spmm-judgement.md "${spmm_results[@]}"
