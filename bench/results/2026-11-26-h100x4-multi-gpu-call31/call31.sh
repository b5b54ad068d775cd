#!/usr/bin/env bash
# Device call 31 (four GPUs): the GPU test suite, the MPI tests with one rank per GPU (and
# MpiDeviceOperator: vectors on the GPUs, NCCL), initcheck on the distributed tests after the
# buffers were zeroed; then the exchange model (32-byte sectors, links probed all at once) and
# efficiency on 2 and 4 GPUs (`spmv bench --gpus`), and one MPI rank per GPU (bench_mpi).
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g31.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m; mpirun --version | head -1; } > $R/gpu.txt 2>&1
grep -q "libmpi_cxx.so.40 => not found" <(ldd build/tests/mpi/spmv_mpi_tests) && export LD_LIBRARY_PATH=$root/.device-build/mpilib
mpi() { timeout 240 mpirun --allow-run-as-root --oversubscribe -np "$@"; }
# Phase 1: correctness, side by side.
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 300 build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log) &
(for n in 2 4; do SPMV_MPI_BACKEND=cuda OMP_NUM_THREADS=4 mpi $n build/tests/mpi/spmv_mpi_tests > $R/mpi-tests-$n.log 2>&1; echo "exit $?" >> $R/mpi-tests-$n.log; done) &
(TESTS='GpuDistributed*' JOBS=24 LOG_DIR=$R/cs DEADLINE=$((t0 + 280)) bash scripts/gpu-sanitize.sh initcheck > $R/initcheck-distributed.txt 2>&1) &
wait
echo "phase 1 done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
bench() { local name=$1; shift
  local left=$(( t0 + 545 - $(date +%s) ))
  [ $left -lt 25 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left build/spmv bench "$@" --expected-products 1e6 --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
ranks() { local name=$1 n=$2; shift 2
  local left=$(( t0 + 545 - $(date +%s) ))
  [ $left -lt 25 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  OMP_NUM_THREADS=8 timeout $left mpirun --allow-run-as-root --oversubscribe -np $n build/bench/bench_mpi "$@" --runs 20 --json $R/json/mpi.jsonl > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
S150=stencil27:n=150
bench g2-s150-halo --gen $S150 --gpus 2
ranks mpi2-s150-halo 2 --gen $S150
bench g2-s150-allgather --gen $S150 --gpus 2 --exchange allgather
bench g2-rmat22-halo --gen rmat:scale=22,edge_factor=16 --gpus 2
ranks mpi2-rmat22-halo 2 --gen rmat:scale=22,edge_factor=16
bench g4-s150-halo --gen $S150 --gpus 4
ranks mpi4-s150-halo 4 --gen $S150
ranks mpi2-s150-allgather 2 --gen $S150 --exchange allgather
ranks mpi2-s150-host 2 --gen $S150 --host
bench g4-lposa60x150-halo .device-data/mini/matrices/lp_osa_60.mtx.gz --copies 150 --gpus 4
bench g4-uniform16m-halo --gen uniform:rows=16000000,cols=16000000,per_row=16 --gpus 4
bench g4-rmat24-halo --gen rmat:scale=24,edge_factor=16 --gpus 4
{ head -1 $R/gpu.txt; cat $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for n in 2 4; do echo "mpi tests $n: $(grep -E 'cases|^exit' $R/mpi-tests-$n.log | tr '\n' ' ') failures: $(grep -c '^FAILED' $R/mpi-tests-$n.log)"; done
  grep -E "tests passed|: exit" $R/initcheck-distributed.txt
  for f in $R/g*.log $R/mpi[0-9]*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:|FAILED|one GPU|rank|^[0-9] ' $f; done
} > $R/summary.txt 2>&1
(cd $R && tar czf logs.tgz cs 2>/dev/null && rm -rf cs)
cat $R/summary.txt
