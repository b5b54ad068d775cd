#!/usr/bin/env bash
# Device call 43 (H200): csr-hub and cuSPARSE on the selector-training families, f64 and f32.
set -u
t0=$(date +%s)
tar xJf .device-build/g42.txz
R=$OUT; mkdir -p $R/fam
export OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/summary.txt
timeout 300 build/spmv suite --families .device-data/families45.txt --sets family --backend cuda --kernels csr-hub \
  --precision f64,f32 --runs 20 --host-runs 0 --out $R/fam --time-limit 280 > $R/suite-fam.log 2>&1
{ echo "done at $(( $(date +%s) - t0 )) s"; tail -1 $R/suite-fam.log; } >> $R/summary.txt 2>&1
cp $R/fam/results.jsonl $R/h200-families.jsonl
(cd $R && tar czf results.tgz fam *.log && rm -rf fam *.log)
cat $R/summary.txt
