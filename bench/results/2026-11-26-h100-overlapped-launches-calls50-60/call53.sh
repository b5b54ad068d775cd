#!/usr/bin/env bash
# Device call 53 (one GPU): the final csr-hub (programmatic dependent launches, call 52's variant A):
# the whole GPU suite, csr-hub's tests under memcheck and racecheck, the R-MAT table, then the default
# choice (the model trained with csr-hub) on bench/families.txt and on twelve generated matrices of no
# training run (every kernel: the ideal in the same run), at 10^6 and 100 expected products.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g53.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1
left() { echo $(( t0 + $1 - $(date +%s) )); }
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 220 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for tool in memcheck racecheck; do
  SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 40 compute-sanitizer --tool $tool build/tests/spmv_gpu_tests \
     --gtest_filter='GpuKernels/GpuKernelsEach.OnTheZoo/csr_hub:GpuKernels/GpuKernelsEach.OnEnormousRows/csr_hub' > $R/$tool.log 2>&1
  echo "$tool exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
for m in 16:8 18:16 20:4 20:16 22:8 22:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null; done
for p in f64 f32; do for m in 16-8 18-16 20-4 20-16 22-8 22-16; do
  timeout 60 build/spmv bench /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision $p --runs 20 --json $R/json/rmat-$m-$p.json > $R/rmat-$m-$p.log 2>&1
done; done
echo "rmat table done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
suite() {  # name, then spmv suite arguments
  local name=$1; shift
  local l=$(left 575)
  [ $l -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $l build/spmv suite "$@" --backend cuda --runs 10 --host-runs 0 --time-limit $(( l - 10 )) --out $R/$name > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  python3 bench/auto_vs_cusparse.py $R/$name/results.jsonl > $R/$name.md 2>&1
}
suite families-e1e6 --families bench/families.txt --kernels auto --expected-products 1e6
suite unseen2-all-e1e6 --families .device-data/unseen2.txt --kernels all --expected-products 1e6
suite unseen2-all-e100 --families .device-data/unseen2.txt --kernels all --expected-products 100
suite families-e100 --families bench/families.txt --kernels auto --expected-products 100
{ cat $R/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for tool in memcheck racecheck; do echo "$tool: $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tr '\n' ' ')"; done
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/rmat-*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(v, key=lambda r: r['median_ms'])
    print(f"{os.path.basename(f)[:-5]:18s} {bv['kernel']}={bv['median_ms']:.4f} " + ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv['median_ms']/r['median_ms']:.2f}x)" for r in o))
PY
  for f in $R/*.md; do echo "== $(basename $f .md)"; grep -E '^\| (family|real|replicated) \|' $f; grep -E '^- ' $f | head -4; done
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt *.md */ && rm -rf json *.log timeline.txt gpu.txt families-* unseen2-*)
cat $R/summary.txt
