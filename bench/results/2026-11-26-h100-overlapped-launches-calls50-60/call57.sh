#!/usr/bin/env bash
# Device call 57 (one GPU): coo, bro-coo, hyb and bro-hyb with their segmented-sum kernel launched to
# overlap the kernel before it and their carries' pass overlapping it (programmatic dependent launch)
# against the build before (10f5afc), interleaved, two rounds, cuSPARSE in each run; then the GPU
# suite and those kernels' tests under memcheck, racecheck and synccheck on the new build.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/v57.txz
R=$OUT; mkdir -p $R/json
export OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$root/.device-data/mini
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1
gens="rmat16:rmat:scale=16,edge_factor=8 rmat18:rmat:scale=18,edge_factor=16 uni200k:uniform:rows=200000,cols=200000,per_row=8 s27_40:stencil27:n=40 huge1m:fewhuge:rows=1000000,cols=1000000,per_row=8,huge_rows=4,huge_length=200000"
for g in $gens; do build/spmv-base gen ${g#*:} -o /tmp/${g%%:*}.spmv > /dev/null; done
mats="$(ls .device-data/mini/matrices/*.mtx.gz) $(for g in $gens; do echo /tmp/${g%%:*}.spmv; done)"
for round in 1 2; do for p in f64 f32; do for m in $mats; do for v in base new; do
  [ $(( t0 + 200 - $(date +%s) )) -lt 10 ] && break
  n=$(basename $m); n=${n%%.*}
  timeout 60 build/spmv-$v bench $m --backend cuda --kernels coo,bro-coo,hyb,bro-hyb --precision $p --runs 20 --json $R/json/$n-$p-$v-$round.json > $R/$n-$p-$v-$round.log 2>&1
done; done; done; done
echo "benchmarks done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 240 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
F='GpuKernels/GpuKernelsEach.OnTheZoo/coo:GpuKernels/GpuKernelsEach.OnTheZoo/bro_coo:GpuKernels/GpuKernelsEach.OnTheZoo/hyb:GpuKernels/GpuKernelsEach.OnTheZoo/bro_hyb:GpuKernels/GpuKernelsEach.OnEnormousRows/coo:GpuKernels/GpuKernelsEach.OnEnormousRows/bro_coo:GpuKernels/GpuKernelsEach.OnEnormousRows/hyb:GpuKernels/GpuKernelsEach.OnEnormousRows/bro_hyb'
for tool in memcheck racecheck synccheck; do
  l=$(( t0 + 570 - $(date +%s) )); [ $l -lt 20 ] && break
  SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout $(( l < 60 ? l : 60 )) compute-sanitizer --tool $tool build/tests/spmv_gpu_tests --gtest_filter="$F" > $R/$tool.log 2>&1
  echo "$tool exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
python3 - $R/json > $R/bench.txt <<'PY'
import json, sys, glob, os, collections, math
t = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + '/*.json'):
    name, p, v, rnd = os.path.basename(f)[:-5].rsplit('-', 3)
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    cs = min(r['median_ms'] for r in ok if r['backend'] == 'cusparse')
    for r in ok:
        if r['backend'] == 'cuda': t[(name, p, r['kernel'], v)].append((r['median_ms'], cs))
print('matrix prec kernel: base ms -> new ms (new/base), cuSPARSE best ms; medians over rounds')
ratios = collections.defaultdict(list)
for key in sorted({k[:3] for k in t}):
    b, n = t.get(key + ('base',)), t.get(key + ('new',))
    if not b or not n: continue
    bm = sorted(x[0] for x in b)[len(b)//2]; nm = sorted(x[0] for x in n)[len(n)//2]; cs = sorted(x[1] for x in b + n)[len(b + n)//2]
    ratios[key[2]].append(nm / bm)
    print(f"{key[0]:16s} {key[1]} {key[2]:8s} {bm:.4f} -> {nm:.4f} ({nm/bm:.3f}), cuSPARSE {cs:.4f}")
for k, r in ratios.items(): print(f"{k}: geomean new/base {math.exp(sum(map(math.log, r))/len(r)):.3f} over {len(r)}, range {min(r):.3f}-{max(r):.3f}")
PY
{ cat $R/gpu.txt $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for tool in memcheck racecheck synccheck; do [ -f $R/$tool.log ] && echo "$tool: $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tr '\n' ' ')"; done
  grep geomean $R/bench.txt; } > $R/summary.txt
(cd $R && tar czf results.tgz json *.log *.txt && rm -rf json *.log timeline.txt gpu.txt)
cat $R/summary.txt $R/bench.txt
