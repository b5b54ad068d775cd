#!/usr/bin/env bash
# Installs a build of spmv into a temporary prefix, configures and builds
# tests/consumer against it through find_package, and runs the consumer.
#   run_consumer.sh BUILD_DIR CXX_COMPILER [CXX_FLAGS [EXE_LINKER_FLAGS]]
# The flags are the spmv build's own (a sanitizer build's library needs the
# sanitizers' runtime at the consumer's link).
set -euo pipefail
build=$1
compiler=$2
cxx_flags=${3:-}
linker_flags=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_FLAGS="$cxx_flags" -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" >/dev/null
cmake --build "$work/build"
"$work/build/consumer"
