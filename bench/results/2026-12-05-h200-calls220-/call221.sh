#!/usr/bin/env bash
# Device call 221: call 220's a/ build (csr-adaptive's cut rows completed in the product where the matrix fits at
# once) measured on the selector's 45 training families (../shared/data/selector-training/families45.txt), as
# scripts/remeasure-kernel.sh measures them, for retraining the selector; call 220's real and families runs of a/
# are the other two files.
rm -rf /tmp/b && mkdir -p /tmp/b && xz -dc .device-build/c221.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 200 /tmp/b/a/spmv suite --families .device-build/families45.txt --backend cuda --kernels csr-adaptive \
  --precision f64,f32 --runs 20 --host-runs 0 --time-limit 180 --out $OUT/families45 > $OUT/families45.log 2>&1
echo "families45 exit $?" >> $OUT/gpu.txt
gzip -9 $OUT/families45/results.jsonl
cat $OUT/gpu.txt; tail -3 $OUT/families45.log
