#!/usr/bin/env bash
# Device call 61 (one H100): the seven kernels whose launches now overlap (csr-hub, csr-adaptive,
# csr-merge, coo, bro-coo, hyb, bro-hyb) measured again on the selector's training matrices (the 45
# generated families; the real matrices as they are and replicated), f64 and f32, build of 2c06e43,
# so that the model learns their present times.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/s61.txz
R=/tmp/results; mkdir -p $R
export OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$root/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
kernels=csr-hub,csr-adaptive,csr-merge,coo,bro-coo,hyb,bro-hyb
timeout 280 build/spmv suite --families .device-data/families45.txt --sets family --backend cuda --kernels $kernels \
  --precision f64,f32 --runs 20 --host-runs 0 --out $R/fam --time-limit 270 > $R/suite-fam.log 2>&1
echo "families exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
left=$(( t0 + 570 - $(date +%s) ))
timeout $left build/spmv suite .device-data/data/matrices --sets real,replicated --backend cuda --kernels $kernels \
  --precision f64,f32 --runs 20 --host-runs 0 --out $R/real --time-limit $(( left - 10 )) > $R/suite-real.log 2>&1
echo "real exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; tail -2 $R/suite-fam.log; tail -2 $R/suite-real.log
  for s in fam real; do echo "$s records: $(wc -l < $R/$s/results.jsonl)"; done; } > $OUT/summary.txt 2>&1
cp $R/fam/results.jsonl $OUT/h100-families.jsonl; cp $R/real/results.jsonl $OUT/h100-real.jsonl
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
