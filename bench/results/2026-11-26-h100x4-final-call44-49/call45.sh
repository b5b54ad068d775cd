#!/usr/bin/env bash
# Device call 45 (four GPUs): the MPI tests with one rank per GPU, the whole zoo through MpiDeviceOperator
# (every partition and exchange; the operators share the NCCL communicator kept on MPI_COMM_WORLD).
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g45.txz
R=$OUT; mkdir -p $R
export SPMV_SHARED_DATA=$root/.device-data/mini NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
grep -q "libmpi_cxx.so.40 => not found" <(ldd build/tests/mpi/spmv_mpi_tests) && export LD_LIBRARY_PATH=$root/.device-build/mpilib
for n in 2 4; do
  SPMV_MPI_BACKEND=cuda OMP_NUM_THREADS=4 timeout 200 mpirun --allow-run-as-root --oversubscribe -np $n build/tests/mpi/spmv_mpi_tests > $R/mpi-tests-$n.log 2>&1
  echo "mpi tests $n exit $? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
done
for n in 2 4; do echo "mpi tests $n: $(grep -E 'cases' $R/mpi-tests-$n.log) failure lines: $(grep -c '^FAILED' $R/mpi-tests-$n.log)" >> $R/summary.txt; done
(cd $R && tar czf results.tgz *.log && rm -f *.log)
cat $R/summary.txt
