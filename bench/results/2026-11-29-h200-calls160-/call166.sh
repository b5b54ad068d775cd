#!/usr/bin/env bash
# Device call 166 (one H200), on call 165's build: csr-adaptive (long rows left to warps) measured again on every
# unit the selector trains on for this device (scripts/remeasure-kernel.sh; it ran as the same three suite
# commands written out here before the script existed).
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/c165.txz | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared && ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1
export LD_LIBRARY_PATH=/tmp/b/new/metis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
REAL_SECONDS=85 FAMILIES_SECONDS=50 FAMILIES45_SECONDS=70 scripts/remeasure-kernel.sh csr-adaptive \
  /tmp/b/new/spmv /tmp/shared/matrices .device-build/families45.txt $OUT
for d in real families families45; do gzip -9 $OUT/$d/results.jsonl; done
cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call166-results.tgz
