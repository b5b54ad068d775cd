#!/usr/bin/env bash
# The main job on the bundled sample data (make demo): analyse a sample,
# then benchmark SpMV on the sample matrices with every kernel of the best
# backend here (cuda, with cuSPARSE beside it, when a GPU is usable; else the
# OpenMP cpu backend), each result verified before it is timed.
# Usage: scripts/demo.sh BUILD_DIR
set -euo pipefail

build_dir=${1:?usage: scripts/demo.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
spmv="$build_dir/spmv"
data="$root/data"
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# `spmv kernels` says whether the CUDA backends can run on this machine.
if "$spmv" kernels | grep -q "^CUDA backends: available"; then backend=cuda; else backend=cpu; fi

echo "== spmv info $data/bcsstk14.mtx.gz"
"$spmv" info "$data/bcsstk14.mtx.gz"

status=0
for matrix in bcsstk14.mtx.gz watt_2.mtx.gz heart_scale.libsvm; do
  echo
  echo "== spmv bench $matrix --backend $backend"
  "$spmv" bench "$data/$matrix" --backend "$backend" --json "$results/${matrix%%.*}.json" || status=$?
done

echo
echo "== summary ($backend backend; median times, every result verified against the reference)"
python3 - "$results"/*.json <<'PY' || status=$?
import json, sys
for path in sys.argv[1:]:
    report = json.load(open(path))
    rows = [r for r in report["results"] if r["status"] == "ok"]
    failed = [r for r in report["results"] if r["status"] == "FAILED"]
    m = report["matrix"]
    name = m["source"].rsplit("/", 1)[-1]
    if not rows:
        print(f"{name}: no kernel ran")
        continue
    ours = [r for r in rows if r["backend"] != "cusparse"] or rows
    best = min(ours, key=lambda r: r["median_ms"])
    line = (f"{name:<20} {m['rows']:>6} x {m['cols']:<6} {m['nnz']:>7} nnz: best {best['backend']}/{best['kernel']} "
            f"{best['median_ms']*1e3:.1f} us, {best['gflops']:.2f} GFLOP/s, {best['gbs']:.1f} GB/s")
    if best.get("speedup_vs_cusparse") is not None:
        line += f", {best['speedup_vs_cusparse']:.2f}x the best cuSPARSE"
    if failed:
        line += f"; FAILED: {', '.join(r['kernel'] for r in failed)}"
    print(line)
PY
exit $status
