#!/usr/bin/env bash
# Device call 218 (one H200), call 214's build: where do the 20-55 ms plans of calls 214-215 come from, when the
# same matrix in the other precision was planned in 3 ms (uni_2m_24 f64 22.4 ms, f32 3.0 ms)? `spmv plan` alone,
# twice per precision; then `spmv suite` on uni_2m_24 and crow_5m with auto alone, with every kernel (as call 215
# ran them) and with auto alone on 8 OpenMP threads; the plan's analysis of each unit printed last.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c214.txz
O=$OUT/r; mkdir -p $O
printf "uni_2m_24 uniform:rows=2000000,cols=5000000,per_row=24\ncrow_5m constant_row:rows=5000000,cols=300000,per_row=8\n" \
  > /tmp/two.txt
for p in f64 f32 f64 f32; do
  $B/spmv plan --gen uniform:rows=2000000,cols=5000000,per_row=24 --precision $p --expected-products 1e6 \
    --backend cuda | sed -n "s/^planning/uni_2m_24 $p plan alone:/p" >> $O/plans.txt
done
run_suite() {  # NAME KERNELS [ENV...]
  local name=$1 kernels=$2; shift 2
  env "$@" timeout 100 $B/spmv suite --families /tmp/two.txt --backend cuda --kernels $kernels --precision f64,f32 \
    --runs 20 --host-runs 0 --expected-products 1e6 --time-limit 90 --out $O/$name > $O/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}
run_suite auto-alone auto
run_suite all-kernels all
run_suite auto-omp8 auto OMP_NUM_THREADS=8
for d in auto-alone all-kernels auto-omp8; do
  python3 -c "
import json, sys
for line in open('$O/$d/results.jsonl'):
    r = json.loads(line)
    if r['kernel'] == 'auto' and r['status'] == 'ok':
        print('$d', r['matrix']['name'], r['precision'], r['chosen_kernel'], 'analysis %.1f ms, upload %.1f ms' %
              (1e3 * r['analysis_seconds'], 1e3 * r['upload_seconds']))" >> $O/plans.txt
  gzip -9 $O/$d/results.jsonl
done
cat $OUT/gpu.txt $OUT/times.txt $O/plans.txt
pack_results 218
