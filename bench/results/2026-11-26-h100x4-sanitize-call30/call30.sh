#!/usr/bin/env bash
# Device call 30 (four GPUs): compute-sanitizer, each tool on the GPU tests it had not yet
# passed and on every distributed test, the processes spread over the GPUs; real matrices
# every 8th (SPMV_TEST_MATRIX_STRIDE=8).
set -u
t0=$(date +%s); root=$PWD
tar xJf .device-build/g30.txz
R=$OUT; export SPMV_SHARED_DATA=$root/.device-data/data SPMV_TEST_MATRIX_STRIDE=8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
nvidia-smi topo -m >> $R/gpu.txt
compute-sanitizer --version | tail -1 >> $R/gpu.txt
nproc >> $R/gpu.txt
export DEADLINE=$(( t0 + 560 ))
slow='GpuBmrm.*:GpuMicro.*:*OnEnormousRows*:*OnTheRealMatrices*:GpuBroBuilds.*:GpuBuildDiaSellBlocked.*:GpuDistributed.PartsOnOneDeviceOnRealMatrices'
for spec in racecheck:22 synccheck:16 memcheck:10 initcheck:10; do
  tool=${spec%%:*}
  TESTS="$(cat .device-build/$tool.filter)" FIRST="$slow" JOBS=${spec##*:} LOG_DIR=$R/cs bash scripts/gpu-sanitize.sh $tool > $R/sanitize-$tool.txt 2>&1 &
done
wait
echo "sanitizers done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
(cd $R && tar czf logs.tgz cs && rm -rf cs)
head -1 $R/gpu.txt; cat $R/timeline.txt
for tool in racecheck synccheck memcheck initcheck; do grep -v "not started" $R/sanitize-$tool.txt | tail -25; grep -c "not started" $R/sanitize-$tool.txt; done
