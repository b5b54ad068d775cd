#!/usr/bin/env bash
# Device call 58 (two GPUs): the 27-point stencil 150^3, f64, halo exchange, on one and on two GPUs
# (the efficiency of issue 16), the build of cd76a49 whose bro-hyb and csr kernels overlap their
# launches; three rounds, and f32 once.
set -u
t0=$(date +%s)
tar xJf .device-build/g58.txz
R=$OUT; mkdir -p $R/json
export OMP_NUM_THREADS=16 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -4; } > $R/gpu.txt 2>&1
for round in 1 2 3; do
  timeout 150 build/spmv bench --gen stencil27:n=150 --gpus 2 --expected-products 1e6 --runs 20 --json $R/json/g2-f64-$round.json > $R/g2-f64-$round.log 2>&1
  echo "round $round exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
timeout 150 build/spmv bench --gen stencil27:n=150 --gpus 2 --precision f32 --expected-products 1e6 --runs 20 --json $R/json/g2-f32.json > $R/g2-f32.log 2>&1
echo "f32 exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt; for f in $R/g2-*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:|FAILED|one GPU|^[0-9] ' $f; done; } > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt && rm -rf json *.log timeline.txt gpu.txt)
cat $R/summary.txt
