#!/usr/bin/env bash
# Device call 28 (two GPUs): the MPI tests with one rank per GPU (SPMV_MPI_BACKEND=cuda): 2 ranks
# (one per GPU) and 4 (two per GPU), against the reference; the machine's MPI probed first.
set -u
t0=$(date +%s)
tar xJf .device-build/m28.txz
R=$OUT; export SPMV_SHARED_DATA=$PWD/.device-data/data OMP_NUM_THREADS=4
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; which mpirun; mpirun --version 2>&1 | head -1; } > $R/machine.txt 2>&1
ldd build/tests/mpi/spmv_mpi_tests > $R/ldd.txt 2>&1
grep -q "libmpi_cxx.so.40 => not found" $R/ldd.txt && export LD_LIBRARY_PATH=$PWD/.device-build/mpilib
ldd build/tests/mpi/spmv_mpi_tests | grep -E "mpi|not found" >> $R/machine.txt
for n in 2 4; do
  (SPMV_MPI_BACKEND=cuda OMPI_MCA_btl_vader_single_copy_mechanism=none timeout 200 mpirun --allow-run-as-root --oversubscribe -np $n \
     build/tests/mpi/spmv_mpi_tests > $R/mpi-$n.log 2>&1; echo "exit $?" >> $R/mpi-$n.log)
  echo "np $n done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
done
cat $R/machine.txt $R/timeline.txt; for n in 2 4; do echo "== np $n"; grep -v "^FAILED" $R/mpi-$n.log | tail -4; echo "failure lines: $(grep -c "^FAILED" $R/mpi-$n.log)"; done; true
