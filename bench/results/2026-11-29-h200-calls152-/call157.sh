#!/usr/bin/env bash
# Device call 157 (one H200): every kernel of this stop's library (the c154 `new` binary) on the 56 real matrices
# replicated to 4x the L2, f32 (as far as 300 s go), beside cuSPARSE's algorithms: the selector's trees for them
# came from H100 runs, besides csr-adaptive's and call 148's nine kernels. The results retrain the model.
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c154.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 320 $B/spmv suite /tmp/shared/matrices --sets replicated --backend cuda --kernels all --precision f32 \
  --runs 20 --host-runs 0 --time-limit 300 --out $OUT/replicated-all > $OUT/replicated-all.log 2>&1
echo "replicated f32, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt; tail -1 $OUT/replicated-all.log
python3 bench/auto_vs_cusparse.py $OUT/replicated-all/results.jsonl --worst 6 > $OUT/replicated-all-auto.md 2>&1
sed -n 3,4p $OUT/replicated-all-auto.md; sed -n 8,9p $OUT/replicated-all-auto.md
gzip -9 $OUT/replicated-all/results.jsonl
