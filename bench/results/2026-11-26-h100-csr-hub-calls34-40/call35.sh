#!/usr/bin/env bash
# Device call 35: csr-hub with the hubs gathered once per product; A = full-occupancy launch bounds, B = none.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g35.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 150 build/tests/spmv_gpu_tests --gtest_filter='*csr_hub*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
for m in 20:4 20:16 22:8 22:16; do
  build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null
done
bench() { local name=$1 bin=$2; shift 2
  [ $(( t0 + 540 - $(date +%s) )) -lt 20 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout 120 $bin bench "$@" --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
for p in f64 f32; do
  for m in 20-16 22-16 22-8 20-4; do
    bench t-$m-$p-A build/spmv /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive --precision $p
    bench t-$m-$p-B build/varB/spmv /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub --precision $p
  done
  for v in hub_kib=32 hub_kib=80 hub_min_entries=32 block_size=512 hub_kib=0; do
    for b in A B; do
      bin=build/spmv; [ $b = B ] && bin=build/varB/spmv
      bench v-20-16-$p-${v//[=,]/_}-$b $bin /tmp/rmat-20-16.spmv --backend cuda --kernels csr-hub --params $v --precision $p
    done
  done
done
{ grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log; grep -v "exit 0" $R/timeline.txt
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(r['median_ms'] for r in v) if v else float('nan')
    row = ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv/r['median_ms']:.2f}x)" for r in o)
    bad = [r['kernel'] + ':' + r['status'] for r in d['results'] if r['status'] != 'ok']
    print(f"{os.path.basename(f)[:-5]:34s} cus={bv:.4f} {row} {' '.join(bad)}")
PY
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt && rm -rf json *.log timeline.txt)
cat $R/summary.txt
