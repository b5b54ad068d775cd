#!/usr/bin/env bash
# Device call 50 (one GPU): csr-hub with the cut rows finished in the main kernel (no fix-up pass) and
# the main kernel launched while the hub gather runs (programmatic dependent launch): the whole GPU
# suite, csr-hub's tests under memcheck and racecheck, then the R-MAT table against cuSPARSE.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g50.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1
left() { echo $(( t0 + $1 - $(date +%s) )); }
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 280 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for tool in memcheck racecheck; do
  l=$(left 380); [ $l -lt 20 ] && break
  SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout $(( l < 60 ? l : 60 )) compute-sanitizer --tool $tool build/tests/spmv_gpu_tests \
     --gtest_filter='GpuKernels/GpuKernelsEach.OnTheZoo/csr_hub:GpuKernels/GpuKernelsEach.OnEnormousRows/csr_hub' > $R/$tool.log 2>&1
  echo "$tool exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
for m in 16:8 18:16 20:4 20:16 22:8 22:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null; done
for p in f64 f32; do for m in 16-8 18-16 20-4 20-16 22-8 22-16; do
  [ $(left 570) -lt 10 ] && break
  timeout 60 build/spmv bench /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision $p --runs 20 --json $R/json/rmat-$m-$p.json > $R/rmat-$m-$p.log 2>&1
done; done
echo "rmat table done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
{ cat $R/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for tool in memcheck racecheck; do [ -f $R/$tool.log ] && echo "$tool: $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tr '\n' ' ')"; done
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/rmat-*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(v, key=lambda r: r['median_ms'])
    print(f"{os.path.basename(f)[:-5]:18s} {bv['kernel']}={bv['median_ms']:.4f} " + ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv['median_ms']/r['median_ms']:.2f}x)" for r in o))
PY
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt && rm -rf json *.log timeline.txt gpu.txt)
cat $R/summary.txt
