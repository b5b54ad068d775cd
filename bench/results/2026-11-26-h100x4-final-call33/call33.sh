#!/usr/bin/env bash
# Device call 33 (four GPUs), the final build: the MPI tests (one rank per GPU; MpiDeviceOperator
# on the zoo) alone; the exchange model with the further-message cost on 2 and 4 GPUs and one MPI
# rank per GPU (bench_mpi); Nsight Compute counters of R-MAT 20 (cuSPARSE and ours, f64 and
# f32) on GPU 0; the GPU test suite (real matrices: every 8th); then the long cases while time is left.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g33.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvidia-smi topo -m; mpirun --version | head -1; ncu --version | tail -1; } > $R/gpu.txt 2>&1
grep -q "libmpi_cxx.so.40 => not found" <(ldd build/tests/mpi/spmv_mpi_tests) && export LD_LIBRARY_PATH=$root/.device-build/mpilib
for n in 2 4; do
  SPMV_MPI_BACKEND=cuda OMP_NUM_THREADS=4 timeout 90 mpirun --allow-run-as-root --oversubscribe -np $n build/tests/mpi/spmv_mpi_tests > $R/mpi-tests-$n.log 2>&1
  echo "mpi tests $n exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
export OMP_NUM_THREADS=16
bench() { local name=$1 end=$2; shift 2
  local left=$(( t0 + end - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $left build/spmv bench "$@" --expected-products 1e6 --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
ranks() { local name=$1 end=$2 n=$3; shift 3
  local left=$(( t0 + end - $(date +%s) ))
  [ $left -lt 15 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  OMP_NUM_THREADS=8 timeout $left mpirun --allow-run-as-root --oversubscribe -np $n build/bench/bench_mpi "$@" --runs 20 --json $R/json/mpi.jsonl > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
S150=stencil27:n=150
bench g4-s150-halo 150 --gen $S150 --gpus 4
bench g2-s150-halo 150 --gen $S150 --gpus 2
ranks mpi4-s150-halo 150 4 --gen $S150
ranks mpi2-s150-allgather 150 2 --gen $S150 --exchange allgather
ranks mpi2-s150-host 150 2 --gen $S150 --host
build/spmv gen rmat:scale=20,edge_factor=16 -o /tmp/rmat20.spmv
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active
for p in f64 f32; do
  for set in cusparse:cusparse-coo,cusparse-csr-alg1 cuda:csr-adaptive,csr-merge; do
    [ $(( t0 + 260 - $(date +%s) )) -lt 10 ] && { echo "ncu $p $set: skipped (time)" >> $R/timeline.txt; continue; }
    CUDA_VISIBLE_DEVICES=0 timeout 60 ncu --clock-control none --launch-count 30 --metrics $m --csv \
      build/spmv bench /tmp/rmat20.spmv --backend ${set%%:*} --kernels ${set##*:} --precision $p --runs 2 --warmup 1 > $R/ncu-$p-${set%%:*}.csv 2> $R/ncu-$p-${set%%:*}.err
    echo "ncu $p ${set%%:*} exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
  done
  CUDA_VISIBLE_DEVICES=0 build/spmv bench /tmp/rmat20.spmv --backend cuda --kernels csr-adaptive,csr-merge --precision $p --runs 50 > $R/bench-rmat20-$p.txt 2>&1
done
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout $(( t0 + 480 - $(date +%s) )) build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
bench g4-lposa60x150-halo 490 .device-data/mini/matrices/lp_osa_60.mtx.gz --copies 150 --gpus 4
{ head -1 $R/gpu.txt; cat $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for n in 2 4; do echo "mpi tests $n: $(grep -E 'cases' $R/mpi-tests-$n.log) failure lines: $(grep -c '^FAILED' $R/mpi-tests-$n.log)"; done
  for f in $R/g[0-9]*.log $R/mpi[0-9]*.log; do echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:|FAILED|one GPU|^[0-9] ' $f; done
  for p in f64 f32; do grep -E "cusparse|csr-" $R/bench-rmat20-$p.txt | head -6; done
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.csv *.err *.txt && rm -rf json *.log *.csv *.err bench-*.txt timeline.txt mpi-tests-*.log gpu.txt)
cat $R/summary.txt
