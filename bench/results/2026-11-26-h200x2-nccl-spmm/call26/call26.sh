#!/usr/bin/env bash
# Device call 26 (two GPUs): the distributed GPU tests (products, transposed, SpMM; parts over every
# GPU and on one), stream and device tests, with the real matrices; the stream example.
set -u
t0=$(date +%s)
tar xJf .device-build/g26.txz
R=$OUT; export SPMV_SHARED_DATA=$PWD/.device-data/data
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
nvidia-smi topo -m > $R/topology.txt 2>&1
(SPMV_REQUIRE_GPU=1 timeout 300 build/tests/spmv_gpu_tests --gtest_filter='GpuDistributed.*:GpuStreams.*:GpuDevice.*' > $R/gpu-tests.log 2>&1; echo "exit $?" >> $R/gpu-tests.log)
(timeout 60 build/examples/example_device_arrays_on_a_stream > $R/example-stream.log 2>&1; echo "exit $?" >> $R/example-stream.log)
echo "done at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
cat $R/gpu.txt $R/timeline.txt
grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) |^\[  FAILED|^exit' $R/gpu-tests.log | cut -c1-160
tail -4 $R/example-stream.log
