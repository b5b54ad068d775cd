#!/usr/bin/env bash
# Device call 42: csr-hub with the columns counted on the device (plan time): GPU tests of csr-hub, then
# the selector suites again (families, real and replicated) for the model's setup and product times.
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g42.txz
R=$OUT; mkdir -p $R/fam $R/real
export OMP_NUM_THREADS=16 SPMV_SHARED_DATA=$root/.device-data/data
(SPMV_REQUIRE_GPU=1 SPMV_CLI=build/spmv timeout 100 build/tests/spmv_gpu_tests --gtest_filter='*csr_hub*:GpuDeterminism.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
timeout 200 build/spmv suite --families .device-data/families45.txt --sets family --backend cuda --kernels csr-hub \
  --precision f64,f32 --runs 20 --host-runs 0 --out $R/fam --time-limit 180 > $R/suite-fam.log 2>&1
timeout 250 build/spmv suite .device-data/data/matrices --sets real,replicated --backend cuda --kernels csr-hub \
  --precision f64,f32 --runs 20 --host-runs 0 --out $R/real --time-limit 230 > $R/suite-real.log 2>&1
{ echo "done at $(( $(date +%s) - t0 )) s"; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|^exit' $R/gpu-tests.log; tail -1 $R/suite-fam.log; tail -1 $R/suite-real.log; } > $R/summary.txt 2>&1
cp $R/fam/results.jsonl $R/families.jsonl; cp $R/real/results.jsonl $R/real.jsonl
(cd $R && tar czf results.tgz fam real *.log && rm -rf fam real *.log)
cat $R/summary.txt
