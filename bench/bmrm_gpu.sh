#!/usr/bin/env bash
# BMRM on the GPU machine in one run: the GPU tests, then every data set
# trained end to end by `spmv train` on the cuda backend from the .spmv cache
# (load included, as the thesis recommends) beside LIBLINEAR on the same
# data (its LIBSVM text, the only input it reads), both timed as whole
# processes on this machine, and both models' objectives compared by
# bench/bmrm_vs_liblinear.py. Hinge loss, lambda 1e-5, epsilon 1e-4, no
# bias, as in the thesis's Table 5.2; LIBLINEAR -s 3 with C = 1/(lambda m)
# at its default stopping tolerance (-e 0.1).
# Data: kdd99-sized (4,898,431 x 127, 16 per row) and news20-sized
# (15,960 x 1,355,181, 455 per row) planted classification data generated
# here, a9a (with a9a.t) and w8a.
# Usage: bench/bmrm_gpu.sh BIN_DIR DATA_DIR OUT_DIR
#   BIN_DIR: spmv, spmv_gpu_tests, liblinear-train and lib/ (its shared libraries)
#   DATA_DIR: libsvm/a9a.gz, libsvm/a9a.t.gz, libsvm/w8a.gz
set -u
bin=$1 data=$2 out=$3
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
nproc | sed 's/^/cpu cores /' | tee -a "$out/gpu.txt"
"$bin/spmv" --version | tee -a "$out/gpu.txt"
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=$data timeout 150 "$bin/spmv_gpu_tests" --gtest_filter='GpuBmrm.*' \
  > "$out/gpu_tests.log" 2>&1
echo "gpu tests exit $?"; grep -E "OK \]|FAILED|PASSED" "$out/gpu_tests.log"

# compare NAME LIBSVM SPMV PRECISION ROWS [TEST]: ours (cuda, from SPMV, with
# the extra train options in $TRAIN_OPTIONS) and LIBLINEAR (from LIBSVM),
# each end to end, then the objectives.
compare() {
  local name=$1 text=$2 cache=$3 precision=$4 rows=$5 test=${6:-}
  local c
  c=$(python3 -c "print(repr(1/(1e-5*$rows)))")
  timed "$name ours cuda $precision ${TRAIN_OPTIONS:-} end to end" timeout 120 "$bin/spmv" train "$cache" \
    --precision "$precision" --backend cuda ${TRAIN_OPTIONS:-} ${test:+--test "$test"} \
    --model "$out/$name-ours.model" --json "$out/$name-ours-cuda.json" > "$out/$name-ours-cuda.log" 2>&1
  tail -9 "$out/$name-ours-cuda.log"
  timed "$name liblinear -s 3 -c $c" timeout 120 env LD_LIBRARY_PATH="$bin/lib" "$bin/liblinear-train" -s 3 \
    -c "$c" "$text" "$out/$name-liblinear.model" > "$out/$name-liblinear.log" 2>&1
  tail -3 "$out/$name-liblinear.log"
  [ -f "$out/$name-liblinear.model" ] && python3 bench/bmrm_vs_liblinear.py "$bin/spmv" hinge 1e-5 "$cache" \
    "$out/$name-ours.model" "$out/$name-liblinear.model" ${test:+"$test"} | tee "$out/$name-compare.json"
}

kdd=$scratch/kdd99
timed "kdd99 gen libsvm" "$bin/spmv" gen classification:rows=4898431,cols=127,per_row=16 -o "$kdd.libsvm"
timed "kdd99 convert to .spmv f32" "$bin/spmv" convert "$kdd.libsvm" -o "$kdd.spmv" --precision f32
# The products of this tall, narrow matrix (127 columns) timed alone:
# X^T c on a stored X^T (BMRM's default on cuda: coo) and without one,
# and X w; cuSPARSE in the same runs.
timed "kdd99 bench transposed explicit" "$bin/spmv" bench "$kdd.spmv" --precision f32 --transposed \
  --explicit-transpose --runs 10 --kernels coo,csr-merge \
  --json "$out/kdd99-bench-transposed-explicit.json" > "$out/kdd99-bench-transposed-explicit.log" 2>&1
timed "kdd99 bench transposed" "$bin/spmv" bench "$kdd.spmv" --precision f32 --transposed --runs 10 \
  --kernels coo,csr-merge --json "$out/kdd99-bench-transposed.json" > "$out/kdd99-bench-transposed.log" 2>&1
timed "kdd99 bench forward" "$bin/spmv" bench "$kdd.spmv" --precision f32 --runs 10 \
  --kernels coo,csr-merge --json "$out/kdd99-bench-forward.json" > "$out/kdd99-bench-forward.log" 2>&1
compare kdd99 "$kdd.libsvm" "$kdd.spmv" f32 4898431
# A second run of ours: the spread between runs.
timed "kdd99 ours cuda f32 end to end (run 2)" "$bin/spmv" train "$kdd.spmv" --precision f32 --backend cuda \
  --json "$out/kdd99-ours-cuda-run2.json" > "$out/kdd99-ours-cuda-run2.log" 2>&1
rm -f "$kdd".*

for set in a9a w8a; do
  gunzip -c "$data/libsvm/$set.gz" > "$scratch/$set.libsvm"
  timed "$set convert to .spmv f64" "$bin/spmv" convert "$scratch/$set.libsvm" -o "$scratch/$set.spmv"
done
gunzip -c "$data/libsvm/a9a.t.gz" > "$scratch/a9a.t.libsvm"
compare a9a "$scratch/a9a.libsvm" "$scratch/a9a.spmv" f64 32561 "$scratch/a9a.t.libsvm"
compare w8a "$scratch/w8a.libsvm" "$scratch/w8a.spmv" f64 49749
news=$scratch/news20
timed "news20 gen libsvm" "$bin/spmv" gen classification:rows=15960,cols=1355181,per_row=455 -o "$news.libsvm"
timed "news20 convert to .spmv f32" "$bin/spmv" convert "$news.libsvm" -o "$news.spmv" --precision f32
compare news20 "$news.libsvm" "$news.spmv" f32 15960
rm -f "$news".*

rm -rf "$scratch"
cat "$times"
