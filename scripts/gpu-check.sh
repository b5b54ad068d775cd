#!/usr/bin/env bash
# GPU acceptance check. Run from the repository root on a GPU machine with an
# existing build (BUILD_DIR, default build/): runs the GPU tests with
# SPMV_REQUIRE_GPU=1 (a skip is a failure), then a short benchmark of every
# cuda kernel against cuSPARSE, and prints a summary table last.
# Logs go to LOG_DIR (default $OUT/gpu-check when OUT is set, else /tmp/spmv-gpu-check).
# Exits 0 only if everything passed.
set -uo pipefail

build=${BUILD_DIR:-build}
log_dir=${LOG_DIR:-${OUT:+$OUT/gpu-check}}
log_dir=${log_dir:-/tmp/spmv-gpu-check}
mkdir -p "$log_dir"
export SPMV_REQUIRE_GPU=1
export SPMV_CLI="$build/spmv"  # the GPU tests that run the tool use this build

for binary in "$build/spmv" "$build/tests/spmv_gpu_tests"; do
  [ -x "$binary" ] || { echo "gpu-check: $binary not found (build first, or set BUILD_DIR)" >&2; exit 2; }
done

"$build/tests/spmv_gpu_tests" --gtest_output="xml:$log_dir/gpu-tests.xml" >"$log_dir/gpu-tests.log" 2>&1
tests_status=$?
tests_line=$(grep -E '^\[  (PASSED|FAILED)  \]' "$log_dir/gpu-tests.log" | head -2 | tr '\n' ' ')
skipped=$(grep -cE '^\[  SKIPPED \]' "$log_dir/gpu-tests.log")

bench_status=0
bench_rows=()
for precision in f64 f32; do
  for spec in "stencil27:n=64" "rmat:scale=16"; do
    name="${spec%%:*}-$precision"
    "$build/spmv" bench --gen "$spec" --backend cuda --kernels all --precision "$precision" \
      --runs 20 --json "$log_dir/bench-$name.json" >"$log_dir/bench-$name.log" 2>&1
    status=$?
    [ $status -eq 0 ] || bench_status=1
    bench_rows+=("$name $status")
  done
done

device=$(grep -m1 -E '^device' "$log_dir/bench-stencil27-f64.log" || echo "device: ?")
echo
echo "== spmv gpu-check summary =="
echo "$device"
grep -m1 -E '^versions|^cuda' "$log_dir/bench-stencil27-f64.log" || true
printf '%-28s %s\n' "GPU tests" "$([ $tests_status -eq 0 ] && [ "$skipped" -eq 0 ] && echo PASS || echo FAIL) ($tests_line; skipped: $skipped)"
for row in "${bench_rows[@]}"; do
  set -- $row
  best=$(python3 - "$log_dir/bench-$1.json" <<'PY' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
ok = [r for r in d["results"] if r["status"] == "ok"]
ours = [r for r in ok if r["backend"] == "cuda"]
vendor = [r for r in ok if r["backend"] == "cusparse"]
if ours and vendor:
    b = min(ours, key=lambda r: r["median_ms"]); v = min(vendor, key=lambda r: r["median_ms"])
    print(f'best {b["kernel"]} {b["median_ms"]:.4f} ms vs {v["kernel"]} {v["median_ms"]:.4f} ms: {v["median_ms"]/b["median_ms"]:.2f}x')
PY
)
  printf '%-28s %s %s\n' "bench $1" "$([ "$2" -eq 0 ] && echo PASS || echo FAIL)" "$best"
done
[ $tests_status -eq 0 ] && [ "$skipped" -eq 0 ] && [ $bench_status -eq 0 ]
