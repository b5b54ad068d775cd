#!/usr/bin/env bash
# Device call 48: csr-hub's shared memory limit set to the device's most at plan time (operators no
# longer lower it for each other): its GPU tests, the new coexistence test, and R-MAT 20/22 again.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g48.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 120 build/tests/spmv_gpu_tests --gtest_filter='*csr_hub*:*CsrHub*:GpuKernels.Described*:GpuDeterminism.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
for m in 20:16 22:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/r-${m%%:*}-${m##*:}.spmv > /dev/null; done
for m in 20-16 22-16; do for p in f64 f32; do
  timeout 60 build/spmv bench /tmp/r-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive --precision $p --runs 20 --json $R/json/rmat-$m-$p.json > $R/rmat-$m-$p.log 2>&1
done; done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/rmat-*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(v, key=lambda r: r['median_ms'])
    print(f"{os.path.basename(f)[:-5]:18s} {bv['kernel']}={bv['median_ms']:.4f} " + ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv['median_ms']/r['median_ms']:.2f}x)" for r in o))
PY
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log && rm -rf json *.log)
cat $R/summary.txt
