#!/usr/bin/env bash
# Device call 155 (one H200): every kernel of this stop's library (the c154 `new` binary) on the 56 real matrices
# as they are, f64 and f32, beside cuSPARSE's algorithms: until now the selector's trees for these small matrices
# (in the L2) came from H100 runs except csr-adaptive's. The results retrain the model (scripts/train-selector.sh).
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c154.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 320 $B/spmv suite /tmp/shared/matrices --sets real --backend cuda --kernels all --precision f64,f32 \
  --runs 20 --host-runs 0 --time-limit 300 --out $OUT/real-all > $OUT/real-all.log 2>&1
echo "real, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt; tail -1 $OUT/real-all.log
python3 bench/auto_vs_cusparse.py $OUT/real-all/results.jsonl --worst 6 > $OUT/real-all-auto.md 2>&1
sed -n 3,4p $OUT/real-all-auto.md; sed -n 8,9p $OUT/real-all-auto.md
gzip -9 $OUT/real-all/results.jsonl
