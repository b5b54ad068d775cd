#!/usr/bin/env bash
# Device call 108 (one H100): the final library code 90c7bf5 (HEAD's library is the same). The default against
# cuSPARSE and the ideal on the twelve unseen matrices, as in call 100.
set -u
t0=$(date +%s)
R=/tmp/results108; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab104.txz -C /tmp
B=/tmp/n104
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
$B/spmv --version > $R/version.txt 2>&1
timeout 200 $B/spmv suite --families .device-data/unseen2.txt --kernels all --backend cuda --runs 10 --host-runs 0 \
  --expected-products 1e6 --time-limit 190 --out $R/unseen > $R/unseen.log 2>&1
echo "unseen exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
python3 bench/auto_vs_cusparse.py $R/unseen/results.jsonl > $R/unseen.md 2>&1
{ cat $R/gpu.txt $R/version.txt $R/timeline.txt
  grep -E '^\| (family|real|replicated) \|' $R/unseen.md; grep -E '^- ' $R/unseen.md | head -8
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results108.tgz results108)
cat $OUT/summary.txt
