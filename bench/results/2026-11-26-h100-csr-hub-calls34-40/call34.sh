#!/usr/bin/env bash
# Device call 34: csr-hub (issue 18) correctness on the GPU, then R-MAT table and variants against cuSPARSE.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g34.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 150 build/tests/spmv_gpu_tests --gtest_filter='*csr_hub*:GpuDeterminism.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for m in 16:8 18:16 20:4 20:16 22:8 22:16; do
  build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null
done
echo "gen done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
bench() { local name=$1; shift
  [ $(( t0 + 540 - $(date +%s) )) -lt 20 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout 120 build/spmv bench "$@" --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
for p in f64 f32; do
  for m in 20-16 16-8 18-16 20-4 22-8 22-16; do
    bench table-$m-$p /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision $p
  done
done
for p in f64 f32; do
  for v in hub_kib=0 hub_kib=32 hub_kib=96 hub_kib=160 block_size=512 items_per_thread=8 block_size=256,hub_kib=32; do
    bench var-$p-${v//[=,]/_} /tmp/rmat-20-16.spmv --backend cuda --kernels csr-hub --params $v --precision $p
  done
done
{ cat $R/gpu.txt $R/timeline.txt; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(r['median_ms'] for r in v) if v else float('nan')
    row = ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv/r['median_ms']:.2f}x)" for r in o)
    bad = [r['kernel'] + ':' + r['status'] for r in d['results'] if r['status'] != 'ok']
    print(f"{os.path.basename(f)[:-5]:28s} cusparse={bv:.4f} {row} {' '.join(bad)}")
PY
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt && rm -rf json *.log gpu.txt timeline.txt)
cat $R/summary.txt
