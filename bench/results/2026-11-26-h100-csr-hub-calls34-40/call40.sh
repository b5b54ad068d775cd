#!/usr/bin/env bash
# Device call 40: where csr-hub's time goes outside its main kernel: every kernel of one product under
# Nsight Compute, and the bench with and without the cache flush, hubs on and off (R-MAT 16 and 20).
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g40.txz
R=$OUT; mkdir -p $R/json
export OMP_NUM_THREADS=16
for m in 16:8 20:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null; done
bench() { local name=$1; shift
  timeout 120 build/spmv bench "$@" --runs 30 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
for m in 16-8 20-16; do for p in f64 f32; do
  bench $m-$p-flush /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision $p
  bench $m-$p-noflush /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision $p --no-flush
  bench $m-$p-nohub-flush /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub --params hub_kib=0 --precision $p
done; done
for m in 16-8 20-16; do
  timeout 60 ncu --clock-control none -k regex:"hub|fixup|gather|adaptive" --metrics gpu__time_duration.sum,launch__grid_size,launch__shared_mem_per_block_dynamic --csv build/spmv bench /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive --precision f64 --runs 1 --warmup 0 > $R/ncu-$m.csv 2> $R/ncu-$m.err
done
{ grep -v "exit 0" $R/timeline.txt
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(v, key=lambda r: r['median_ms']) if v else None
    row = ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv['median_ms']/r['median_ms']:.2f}x)" for r in o)
    print(f"{os.path.basename(f)[:-5]:24s} {bv['kernel']}={bv['median_ms']:.4f} {row}")
PY
  for m in 16-8 20-16; do python3 - $R/ncu-$m.csv <<'PY'
import csv, sys, collections
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; ki = h.index('Kernel Name'); mi = h.index('Metric Name'); vi = h.index('Metric Value'); ii = h.index('ID')
by = collections.OrderedDict()
for r in rows[1:]: by.setdefault((r[ii], r[ki]), {})[r[mi]] = r[vi]
for (i, k), m in by.items(): print(sys.argv[1].split('/')[-1], i, k.split('(')[0][-40:], ' '.join(f"{n.split('__')[-1]}={v}" for n, v in m.items()))
PY
  done
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt *.csv *.err && rm -rf json *.log timeline.txt *.csv *.err)
cat $R/summary.txt
