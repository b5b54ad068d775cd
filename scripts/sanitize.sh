#!/usr/bin/env bash
# The host unit tests under AddressSanitizer + UndefinedBehaviorSanitizer:
# builds spmv_unit_tests (and the CLI they run) with CUDA off into
# build-asan/ (or $SANITIZE_BUILD_DIR) and runs every test labelled unit (the GPU
# test binary is not built here: its placeholder test would fail; nor is the
# Python module, which a Python without the sanitizers' runtime cannot load;
# nor the MPI path: OpenMPI's own allocations still held at exit are reported
# as leaks, and `make test` runs its tests under mpirun).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build_dir=${SANITIZE_BUILD_DIR:-build-asan}
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build_dir" -G Ninja -DSPMV_CUDA=OFF -DSPMV_PYTHON=OFF -DSPMV_MPI=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DCMAKE_CXX_FLAGS="$sanitizers" -DCMAKE_EXE_LINKER_FLAGS="$sanitizers" >/dev/null
cmake --build "$build_dir" --target spmv_unit_tests
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd "$build_dir" && ctest -L unit --output-on-failure -j "$(nproc)"
