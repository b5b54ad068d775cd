#!/usr/bin/env bash
# Device call 37: csr-hub sweep of items x hub KiB at 1024 threads (shared memory against L1), Nsight Compute of csr-hub.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g37.txz
R=$OUT; mkdir -p $R/json
export OMP_NUM_THREADS=16
for m in 20:16 22:16; do
  build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null
done
bench() { local name=$1; shift
  [ $(( t0 + 400 - $(date +%s) )) -lt 20 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout 120 build/spmv bench "$@" --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
for p in f64 f32; do
  for m in 20-16 22-16; do
    bench s-$m-$p /tmp/rmat-$m.spmv --backend cuda --kernels csr-adaptive --precision $p
    for i in 2 4; do for h in 96 128 176; do
      bench s-$m-$p-i$i-h$h /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub --params items_per_thread=$i,hub_kib=$h --precision $p
    done; done
  done
done
met=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active
for p in f64 f32; do
  timeout 60 ncu --clock-control none -k regex:"hub_kernel" --launch-count 2 --metrics $met --csv build/spmv bench /tmp/rmat-20-16.spmv --backend cuda --kernels csr-hub --params hub_kib=128 --precision $p --runs 2 --warmup 0 > $R/ncu-$p.csv 2> $R/ncu-$p.err
  echo "ncu $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ grep -v "exit 0" $R/timeline.txt
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(v, key=lambda r: r['median_ms']) if v else None
    row = ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv['median_ms']/r['median_ms']:.2f}x)" for r in o)
    bad = [r['kernel'] + ':' + r['status'] for r in d['results'] if r['status'] != 'ok']
    print(f"{os.path.basename(f)[:-5]:24s} {bv['kernel']}={bv['median_ms']:.4f} {row} {' '.join(bad)}")
PY
  for p in f64 f32; do python3 - $R/ncu-$p.csv <<'PY'
import csv, sys, collections
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; ki = h.index('Kernel Name'); mi = h.index('Metric Name'); vi = h.index('Metric Value'); ii = h.index('ID')
by = collections.OrderedDict()
for r in rows[1:]:
    by.setdefault((r[ii], r[ki]), {})[r[mi]] = r[vi]
for (i, k), m in by.items():
    print(sys.argv[1].split('/')[-1], i, 'hub' if 'hub' in k else 'adaptive', ' '.join(f"{n.split('__')[-1][:22]}={v}" for n, v in m.items()))
PY
  done
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt *.csv *.err && rm -rf json *.log timeline.txt *.csv *.err)
cat $R/summary.txt
