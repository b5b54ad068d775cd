#!/usr/bin/env bash
# BMRM on the GPU machine: the GPU test, the kdd99-sized planted data
# generated there and timed end to end from the .spmv cache against LIBLINEAR
# on the same data, then a9a (the thesis's adult9) on the cuda backend.
# Usage: bench/bmrm_gpu.sh BIN_DIR A9A_DIR OUT_DIR
#   BIN_DIR: spmv, spmv_gpu_tests, liblinear-train and lib/ (its shared libraries)
set -u
bin=$1 a9a=$2 out=$3
scratch=$(mktemp -d)
times=$out/times.txt
# timed LABEL COMMAND...: appends "LABEL exit RC seconds S" to times.txt.
timed() {
  local label=$1 start=$EPOCHREALTIME
  shift
  "$@"
  local rc=$?
  echo "$label exit $rc seconds $(python3 -c "print(round($EPOCHREALTIME - $start, 3))")" | tee -a "$times"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
"$bin/spmv" --version | tee -a "$out/gpu.txt"
SPMV_REQUIRE_GPU=1 timeout 90 "$bin/spmv_gpu_tests" --gtest_filter='GpuBmrm.*' > "$out/gpu_tests.log" 2>&1
echo "gpu tests exit $?"; grep -E "OK \]|FAILED|PASSED" "$out/gpu_tests.log"

# kdd99-sized: 4,898,431 x 127, 16 per row; lambda 1e-5, epsilon 1e-4 as in the thesis.
kdd=$scratch/kdd99.libsvm
timed "gen libsvm" "$bin/spmv" gen classification:rows=4898431,cols=127,per_row=16 -o "$kdd"
timed "convert to .spmv f32" "$bin/spmv" convert "$kdd" -o "$scratch/kdd99.spmv" --precision f32
timed "ours cuda f32 end to end" "$bin/spmv" train "$scratch/kdd99.spmv" --precision f32 --backend cuda \
  --model "$out/kdd99-ours.model" --json "$out/kdd99-ours-cuda-f32.json" > "$out/kdd99-ours-cuda-f32.log" 2>&1
cat "$out/kdd99-ours-cuda-f32.log"
C=$(python3 -c "print(repr(1/(1e-5*4898431)))")
timed "liblinear -s 3 -e 0.1 -c $C" timeout 100 env LD_LIBRARY_PATH="$bin/lib" "$bin/liblinear-train" -s 3 -c "$C" "$kdd" "$out/kdd99-liblinear.model" \
  > "$out/kdd99-liblinear.log" 2>&1
tail -4 "$out/kdd99-liblinear.log"
[ -f "$out/kdd99-liblinear.model" ] && python3 bench/bmrm_vs_liblinear.py "$bin/spmv" hinge 1e-5 "$scratch/kdd99.spmv" \
  "$out/kdd99-ours.model" "$out/kdd99-liblinear.model" | tee "$out/kdd99-compare.json"
timed "ours cuda f32 explicit transpose end to end" "$bin/spmv" train "$scratch/kdd99.spmv" --precision f32 --backend cuda \
  --explicit-transpose --json "$out/kdd99-ours-cuda-f32-xt.json" > "$out/kdd99-ours-cuda-f32-xt.log" 2>&1
timed "ours cpu f32 end to end" timeout 60 "$bin/spmv" train "$scratch/kdd99.spmv" --precision f32 --backend cpu \
  --json "$out/kdd99-ours-cpu-f32.json" > "$out/kdd99-ours-cpu-f32.log" 2>&1
rm -rf "$scratch"
# a9a on the GPU, f64 (its QP is host work, the same as on the cpu backend).
timed "a9a hinge cuda" timeout 100 "$bin/spmv" train "$a9a/a9a.gz" --format libsvm --test "$a9a/a9a.t.gz" --backend cuda \
  --json "$out/a9a-cuda-hinge.json" > "$out/a9a-cuda-hinge.log" 2>&1
tail -12 "$out/a9a-cuda-hinge.log"
cat "$times"
