#!/usr/bin/env bash
# Device call 166 (one H200), on call 165's build: csr-adaptive (long rows left to warps) measured again on every
# unit the selector trains on for this device, beside cuSPARSE's algorithms (and auto): the real matrices as they
# are and replicated, bench/families.txt, families45 (../shared/data/selector-training); f64 and f32.
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c165.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
B=/tmp/b/new
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
common="--backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0"
timeout 95 $B/spmv suite /tmp/shared/matrices --sets real,replicated $common --time-limit 85 --out $OUT/real \
  > $OUT/real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 60 $B/spmv suite --families bench/families.txt $common --time-limit 50 --out $OUT/families \
  > $OUT/families.log 2>&1
echo "families exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 80 $B/spmv suite --families .device-build/families45.txt $common --time-limit 70 --out $OUT/families45 \
  > $OUT/families45.log 2>&1
echo "families45 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
for d in real families families45; do tail -1 $OUT/$d.log; gzip -9 $OUT/$d/results.jsonl; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call166-results.tgz
