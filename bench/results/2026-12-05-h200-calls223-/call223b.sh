#!/usr/bin/env bash
# Device call 223b: call 223's unseen15 run again (its results did not come back: more than 8 files under $OUT).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c222.txz
B=/tmp/b/a; export LD_LIBRARY_PATH=/tmp/b/metis
timeout 90 $B/spmv suite --families bench/results/2026-11-30-h200-calls184-/unseen15.txt --backend cuda \
  --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 --time-limit 70 --out /tmp/u > $OUT/unseen15.log 2>&1
echo "unseen15 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/gpu.txt
gzip -9c /tmp/u/results.jsonl > $OUT/unseen15-results.jsonl.gz; cp /tmp/u/suite.json $OUT/unseen15-suite.json
cat $OUT/gpu.txt; tail -1 $OUT/unseen15.log
