#!/usr/bin/env bash
# Device call 44 (four GPUs), the final build: the GPU suite (csr-hub, the retrained selector; real
# matrices: every 8th), the R-MAT table on GPU 0, the MPI tests with one rank per GPU (the NCCL
# communicator now shared by the operators), then 2- and 4-GPU runs of the 150^3 stencil while time is left.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g44.txz
R=$OUT; mkdir -p $R/json
export SPMV_SHARED_DATA=$root/.device-data/mini NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; mpirun --version | head -1; } > $R/gpu.txt 2>&1
grep -q "libmpi_cxx.so.40 => not found" <(ldd build/tests/mpi/spmv_mpi_tests) && export LD_LIBRARY_PATH=$root/.device-build/mpilib
left() { echo $(( t0 + $1 - $(date +%s) )); }
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout $(left 260) build/tests/spmv_gpu_tests > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
echo "gpu tests done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
export OMP_NUM_THREADS=16
for m in 16:8 18:16 20:4 20:16 22:8 22:16; do build/spmv gen rmat:scale=${m%%:*},edge_factor=${m##*:} -o /tmp/rmat-${m%%:*}-${m##*:}.spmv > /dev/null; done
for p in f64 f32; do for m in 16-8 18-16 20-4 20-16 22-8 22-16; do
  [ $(left 360) -lt 10 ] && break
  CUDA_VISIBLE_DEVICES=0 timeout 60 build/spmv bench /tmp/rmat-$m.spmv --backend cuda --kernels csr-hub,csr-adaptive,csr-merge --precision $p --runs 20 --json $R/json/rmat-$m-$p.json > $R/rmat-$m-$p.log 2>&1
done; done
echo "rmat table done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
for n in 2 4; do
  SPMV_MPI_BACKEND=cuda OMP_NUM_THREADS=4 timeout $(( $(left 480) < 90 ? $(left 480) : 90 )) mpirun --allow-run-as-root --oversubscribe -np $n build/tests/mpi/spmv_mpi_tests > $R/mpi-tests-$n.log 2>&1
  echo "mpi tests $n exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
bench() { local name=$1; shift; local l=$(left 560); [ $l -lt 20 ] && { echo "$name: skipped (time)" >> $R/timeline.txt; return; }
  timeout $l build/spmv bench "$@" --expected-products 1e6 --runs 20 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
bench g2-s150-halo --gen stencil27:n=150 --gpus 2
bench g4-s150-halo --gen stencil27:n=150 --gpus 4
l=$(left 560); [ $l -gt 20 ] && { OMP_NUM_THREADS=8 timeout $l mpirun --allow-run-as-root --oversubscribe -np 4 build/bench/bench_mpi --gen stencil27:n=150 --runs 20 --json $R/json/mpi.jsonl > $R/mpi4-s150-halo.log 2>&1; echo "mpi4 bench exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt; }
{ head -1 $R/gpu.txt; cat $R/timeline.txt
  grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log
  for n in 2 4; do echo "mpi tests $n: $(grep -E 'cases' $R/mpi-tests-$n.log) failure lines: $(grep -c '^FAILED' $R/mpi-tests-$n.log)"; done
  python3 - $R/json <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/rmat-*.json')):
    d = json.load(open(f)); ok = [r for r in d['results'] if r['status'] == 'ok']
    v = [r for r in ok if r['backend'] == 'cusparse']; o = [r for r in ok if r['backend'] == 'cuda']
    bv = min(v, key=lambda r: r['median_ms'])
    print(f"{os.path.basename(f)[:-5]:18s} {bv['kernel']}={bv['median_ms']:.4f} " + ' '.join(f"{r['kernel']}={r['median_ms']:.4f}({bv['median_ms']/r['median_ms']:.2f}x)" for r in o))
PY
  for f in $R/g[0-9]*.log $R/mpi4*.log; do [ -f $f ] && { echo "== $(basename $f .log)"; grep -E 'one part|efficiency|beyond|exchange:|FAILED|one GPU|^[0-9] ' $f; }; done
} > $R/summary.txt 2>&1
(cd $R && tar czf results.tgz json *.log *.txt && rm -rf json *.log timeline.txt gpu.txt)
cat $R/summary.txt
