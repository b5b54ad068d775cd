#!/usr/bin/env bash
# Device call 223: main's build of 2026-12-05 (6703643, the archive of call 222) measures csr-adaptive again, as
# scripts/remeasure-kernel.sh does, on the H200 training units that still held its times from before the cut-row
# change (call 220): the 45 selector-training families, call 185's gaps11 and call 211's unseen15, f64 and f32,
# beside cuSPARSE's algorithms and auto.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c222.txz
B=/tmp/b/a; export LD_LIBRARY_PATH=/tmp/b/metis
remeasure() {  # NAME FAMILIES_FILE SECONDS
  timeout $(($3 + 20)) $B/spmv suite --families $2 --backend cuda --kernels csr-adaptive --precision f64,f32 \
    --runs 20 --host-runs 0 --time-limit $3 --out $OUT/$1 > $OUT/$1.log 2>&1
  echo "$1 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  gzip -9 $OUT/$1/results.jsonl
}
remeasure families45 .device-build/families45.txt 180
remeasure gaps11 bench/results/2026-11-30-h200-calls184-/gaps11.txt 70
remeasure unseen15 bench/results/2026-11-30-h200-calls184-/unseen15.txt 70
cat $OUT/gpu.txt $OUT/times.txt; for f in families45 gaps11 unseen15; do tail -2 $OUT/$f.log; done
