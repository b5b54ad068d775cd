#!/usr/bin/env bash
# Device call 106 (one H100): the final build 90c7bf5. bench_format_builds f64 on the 27-point stencil 150^3,
# three processes one after another: how far the builds' products move from run to run (call 103 had BRO-ELL
# at 26.5 and BRO-HYB at 21.1 where call 101 had 16.6 and 14.1).
set -u
t0=$(date +%s)
R=/tmp/results106; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab104.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for round in 1 2 3; do
  timeout 60 /tmp/n104/bench_format_builds f64 stencil27:n=150 > $R/builds-f64-$round.txt 2> $R/builds-f64-$round.jsonl
  echo "round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt
  for round in 1 2 3; do echo "== round $round"; grep -E "^(auto|dia|sell|bro-ell|bro-hyb|ellr-t|hyb|ell|coo|bro-coo|segmented-scan) " $R/builds-f64-$round.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results106.tgz results106)
cat $OUT/summary.txt
