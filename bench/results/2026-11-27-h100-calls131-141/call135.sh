#!/usr/bin/env bash
# Device call 135 (two H100s): the GPU suite on the final build (n3); MPI tests; bench_mpi with the MPI exchange
# stream at high priority (n3) against normal (m0), stencil27 150^3 f64 halo, interleaved; every format's device
# build on the five families, f64 and f32 (n3).
set -u
root=$PWD
mkdir -p /tmp/b && xz -dc .device-build/n3.txz | tar xf - -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/metis:/tmp/b/mpilib NCCL_NVLS_ENABLE=0
B=/tmp/b/n3
t0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -4; mpirun --version | head -1; nproc; } > $OUT/gpu.txt 2>&1
SPMV_SHARED_DATA=$root/.device-data/mini SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
  timeout 240 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1; echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/gpu-tests.log
mpi() { timeout 60 mpirun --allow-run-as-root --oversubscribe -np "$@"; }
SPMV_MPI_BACKEND=cuda OMP_NUM_THREADS=4 mpi 2 $B/spmv_mpi_tests > $OUT/mpi-tests.log 2>&1; echo "exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/mpi-tests.log
for r in 1 2 3; do for v in m0 n3; do
  OMP_NUM_THREADS=8 mpi 2 /tmp/b/$v/bench_mpi --gen stencil27:n=150 --runs 20 > $OUT/mpi-$v-$r.log 2>&1
  echo "exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/mpi-$v-$r.log
done; done
for p in f64 f32; do
  timeout 150 $B/bench_format_builds $p stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16 \
    rmat:scale=22,edge_factor=16 blockfem:n=80,block=4 > $OUT/builds-$p.txt 2> $OUT/builds-$p.jsonl
  echo "exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/builds-$p.txt
done
cat $OUT/gpu.txt | head -2
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests exit" $OUT/gpu-tests.log | head -12
grep -E "cases|failures|^exit" $OUT/mpi-tests.log | tail -3
for f in $OUT/mpi-*.log; do echo "$(basename $f .log): $(grep -iE 'efficiency|one GPU|distributed' $f | tr -s ' ' | tr '\n' '|' | cut -c1-400)"; done
for p in f64 f32; do echo "== builds $p"; grep -E "^[a-z]|^auto|x [0-9]+, [0-9]+ non|exit" $OUT/builds-$p.txt | grep -vE "^kernel|^csr-|^cusparse-|refused" | awk '{print $1, $2, $3, $4, $5, $6}'; done
