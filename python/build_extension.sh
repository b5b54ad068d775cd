#!/usr/bin/env bash
# Builds spmv's extension module for this machine's python3 from a prebuilt,
# position-independent libspmv.a: for a machine whose Python differs from the
# one CMake built for (the GPU machine: another Python version, no Debian
# packages). Needs a C++17 compiler, Python's headers and the CUDA toolkit.
#
#   python/build_extension.sh LIBS PYBIND11_INCLUDE OUT
#
# LIBS holds libspmv.a and SuiteSparse's libamd.a and libsuitesparseconfig.a
# (the GPU machine has no SuiteSparse; they are not position independent:
# --exclude-libs keeps their symbols inside the module, which lets them link,
# with text relocations). zlib and OpenMP's runtime are
# the machine's shared ones (libgomp.a's thread-local data cannot live in a
# module). LIBS may also hold libmetis.so.N (a library built with METIS
# needs it): it is copied beside the module, which finds it there ($ORIGIN).
# PYBIND11_INCLUDE is the folder holding pybind11/. Writes the package to OUT/spmv (PYTHONPATH=OUT).
set -euo pipefail
libs=$1 pybind11_include=$2 out=$3
python_dir=$(cd "$(dirname "$0")" && pwd)
python_include=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$(python3 -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
cuda=${CUDA_HOME:-/usr/local/cuda}
zlib=$(ls /usr/lib/x86_64-linux-gnu/libz.so /usr/lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libz.so.1 \
       2>/dev/null | head -1)
objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT

metis=$(ls "$libs"/libmetis.so.* 2>/dev/null | head -1)
compiles=()
mkdir -p "$out/spmv"
[ -n "$metis" ] && cp "$metis" "$out/spmv/"
cp "$python_dir"/spmv/*.py "$out/spmv/"
for source in "$python_dir"/src/*.cpp; do
  g++ -O2 -std=c++17 -fPIC -fvisibility=hidden -fopenmp -DSPMV_HAVE_CUDA=1 -I"$python_dir/../include" \
      -I"$pybind11_include" -I"$python_include" -I"$cuda/include" \
      -c "$source" -o "$objects/$(basename "$source").o" &
  compiles+=($!)
done
for compile in "${compiles[@]}"; do wait "$compile"; done  # fails with the first failed compile
g++ -shared -o "$out/spmv/_spmv$suffix" "$objects"/*.o \
    "$libs/libspmv.a" "$libs/libamd.a" "$libs/libsuitesparseconfig.a" ${metis:+"$metis"} "$zlib" -fopenmp \
    -L"$cuda/lib64" -lcudart_static -lcusparse -lcublas -lpthread -ldl -lrt -lm \
    -static-libstdc++ -static-libgcc -Wl,--exclude-libs,ALL -Wl,-rpath,"$cuda/lib64" -Wl,-rpath,'$ORIGIN'
echo "built $out/spmv/_spmv$suffix"
