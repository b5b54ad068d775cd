#!/usr/bin/env bash
# Device call 111 (one H100): build of the commit after d51d5d5 (bench_format_builds times the device analysis's
# reads). The default plan's row on the five families, f64 and f32, with the plan from a device CSR.
set -u
t0=$(date +%s)
R=/tmp/results111; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab74.txz -C /tmp; tar xJf .device-build/ab111.txz -C /tmp
B=/tmp/n111
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
specs="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"
for p in f64 f32; do
  timeout 90 $B/bench_format_builds $p --default-only $specs > $R/builds-$p.txt 2> $R/builds-$p.jsonl
  echo "builds $p exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
{ cat $R/gpu.txt $R/timeline.txt
  for p in f64 f32; do grep -E "^[a-z0-9]+:.*(f32|f64) \(|device CSR|once more" $R/builds-$p.txt; done
} > $OUT/summary.txt 2>&1
(cd /tmp && tar czf $OUT/results111.tgz results111)
cat $OUT/summary.txt
