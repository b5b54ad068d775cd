#!/usr/bin/env bash
# Device call 52 (one GPU): three builds of csr-hub on the R-MAT table, interleaved, cuSPARSE in each run:
# 0 = 7fb5c15 (gather, main kernel, fix-up pass, plain launches); A = programmatic dependent launches
# (main kernel during the gather, fix-up during the main kernel); B = A's gather overlap with the cut
# rows finished in the main kernel (acq_rel arrival counter, no fix-up pass).
set -u
t0=$(date +%s)
tar xJf .device-build/g50.txz; tar xJf .device-build/v51.txz
R=$OUT; mkdir -p $R/json
export OMP_NUM_THREADS=16
for m in 16:8 18:16 20:4 20:16 22:8 22:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null; done
for round in 1 2; do for p in f64 f32; do for m in 16-8 18-16 20-4 20-16 22-8 22-16; do for v in 0 A B; do
  [ $(( t0 + 560 - $(date +%s) )) -lt 10 ] && break
  timeout 60 build/spmv-$v bench /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub --precision $p --runs 20 --json $R/json/rmat-$m-$p-$v-$round.json > $R/rmat-$m-$p-$v-$round.log 2>&1
done; done; done; done
echo "done at $(( $(date +%s) - t0 )) s" > $R/timeline.txt
python3 - $R/json > $R/summary.txt <<'PY'
import json, sys, glob, os, collections
rows = collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1] + '/rmat-*.json')):
    name = os.path.basename(f)[:-5]; *mp, v, rnd = name.split('-'); key = '-'.join(mp)
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    bv = min((r for r in ok if r['backend'] == 'cusparse'), key=lambda r: r['median_ms'])
    hub = [r for r in ok if r['kernel'] == 'csr-hub'][0]
    rows[key][(v, rnd)] = (hub['median_ms'], bv['median_ms'])
print('matrix           variant: csr-hub ms (x best cuSPARSE of that run), rounds 1 / 2')
for key in sorted(rows):
    print(f"{key:16s} " + '  '.join(f"{v}: " + ' / '.join(f"{rows[key][(v,r)][0]:.4f} ({rows[key][(v,r)][1]/rows[key][(v,r)][0]:.2f}x)" for r in '12' if (v,r) in rows[key]) for v in '0AB'))
PY
cat $R/timeline.txt >> $R/summary.txt
(cd $R && tar czf results.tgz json *.log timeline.txt && rm -rf json *.log timeline.txt)
cat $R/summary.txt
