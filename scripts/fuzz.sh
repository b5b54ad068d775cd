#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ with clang (ASan + UBSan, CUDA off)
# into build-fuzz/ (or $FUZZ_BUILD_DIR) and runs each for SECONDS (default
# 60) from its seed corpus fuzz/corpus/HARNESS/. Inputs the fuzzer finds go to
# build-fuzz/corpus/HARNESS/ (the seeds in the repository are left as they
# are); a failing input is saved as build-fuzz/crash-HARNESS-* and fails the
# script.
#
# Limits (fuzz/README.md): 10 s per input, 2 GiB resident, and the harness's
# own heap limit of 10 bytes per input byte plus 32 MiB per read.
#
# usage: scripts/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(matrix_market libsvm binary plan selector_model operator)

bash scripts/setup.sh clang libclang-rt-14-dev libomp-14-dev
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DSPMV_CUDA=OFF -DSPMV_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$build_dir" --target "${harnesses[@]/#/fuzz_}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for harness in "${harnesses[@]}"; do
  echo "fuzz: $harness for ${seconds} s"
  mkdir -p "$build_dir/corpus/$harness"
  "$build_dir/fuzz/fuzz_$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=16384 -print_final_stats=1 -artifact_prefix="$build_dir/crash-$harness-" \
    "$build_dir/corpus/$harness" "fuzz/corpus/$harness" 2>&1 | grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)'
done
