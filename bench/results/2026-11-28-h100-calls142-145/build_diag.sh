#!/usr/bin/env bash
# Builds diag_setup against the library of build folder $1 (TEMPORARY diagnosis).
set -euo pipefail
B=$1
/usr/local/cuda/bin/nvcc -DFMT_HEADER_ONLY=1 -DSPMV_HAVE_CUDA=1 -Iinclude -Isrc -O3 -DNDEBUG \
  --generate-code=arch=compute_90,code=[compute_90,sm_90] --expt-relaxed-constexpr -std=c++17 \
  -c bench/results/2026-11-28-h100-calls142-144/diag_setup.cu -o $B/diag_setup.o
/usr/bin/c++ -O3 -static-libstdc++ -static-libgcc $B/diag_setup.o -o $B/diag_setup -L/usr/local/cuda/targets/x86_64-linux/lib \
  -Wl,-rpath,'$ORIGIN/metis:/usr/local/cuda/lib' $B/libspmv.a /usr/lib/gcc/x86_64-linux-gnu/12/libgomp.a \
  /usr/lib/x86_64-linux-gnu/libz.a /usr/lib/x86_64-linux-gnu/libamd.a /usr/lib/x86_64-linux-gnu/libsuitesparseconfig.a \
  -lm $B/metis/libmetis.so.5 /usr/local/cuda/lib/libcudart_static.a -ldl /usr/local/cuda/lib/libcusparse.so \
  /usr/local/cuda/lib/libcublas.so /usr/local/cuda/lib/libcublasLt.so /usr/local/cuda/lib/libculibos.a -lcudadevrt -lrt -lpthread
