#!/usr/bin/env bash
# Device call 55 (one GPU): csr-adaptive and csr-merge with their fix-up launched to overlap the main
# kernel (programmatic dependent launch, as csr-hub's) against the build before (c94b276), on the
# carried real matrices and small generated ones, where a launch's microseconds weigh; interleaved,
# cuSPARSE in every run.
set -u
t0=$(date +%s)
tar xJf .device-build/v55.txz
R=$OUT; mkdir -p $R/json
export OMP_NUM_THREADS=16
gens="rmat16:rmat:scale=16,edge_factor=8 rmat18:rmat:scale=18,edge_factor=16 rmat20:rmat:scale=20,edge_factor=4 uni200k:uniform:rows=200000,cols=200000,per_row=8 huge1m:fewhuge:rows=1000000,cols=1000000,per_row=8,huge_rows=4,huge_length=200000"
for g in $gens; do build/spmv-base gen ${g#*:} -o /tmp/${g%%:*}.spmv > /dev/null; done
mats="$(ls .device-data/mini/matrices/*.mtx.gz) $(for g in $gens; do echo /tmp/${g%%:*}.spmv; done)"
for round in 1 2; do for p in f64 f32; do for m in $mats; do for v in base new; do
  [ $(( t0 + 500 - $(date +%s) )) -lt 10 ] && break
  n=$(basename $m); n=${n%%.*}
  timeout 60 build/spmv-$v bench $m --backend cuda --kernels csr-adaptive,csr-merge --precision $p --runs 20 --json $R/json/$n-$p-$v-$round.json > $R/$n-$p-$v-$round.log 2>&1
done; done; done; done
echo "done at $(( $(date +%s) - t0 )) s" > $R/timeline.txt
python3 - $R/json > $R/summary.txt <<'PY'
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
    print(f"{key[0]:16s} {key[1]} {key[2]:13s} {bm:.4f} -> {nm:.4f} ({nm/bm:.3f}), cuSPARSE {cs:.4f}")
for k, r in ratios.items(): print(f"{k}: geomean new/base {math.exp(sum(map(math.log, r))/len(r)):.3f} over {len(r)}")
PY
cat $R/timeline.txt >> $R/summary.txt
(cd $R && tar czf results.tgz json *.log timeline.txt && rm -rf json *.log timeline.txt)
cat $R/summary.txt
