#!/usr/bin/env bash
# Device call 171 (one H200): csr-adaptive's uneven row blocks summed by merge-path (new) against the long rows
# left to warps (old, the build of calls 167-170): calls 160-164's A/B (`ab_csr_adaptive.sh`: csr-adaptive GPU
# tests, csr-adaptive on the R-MATs, the real matrices as they are and replicated, f64 and f32, new timed
# first); the csr-merge GPU tests (their merge-path walk now takes its steps per thread at run time); then the new
# csr-adaptive on every unit the selector trains on (scripts/remeasure-kernel.sh, call 166's limits).
set -u
bash bench/results/2026-11-29-h200-calls160-/ab_csr_adaptive.sh 171 new
mkdir -p /tmp/rest && cd /tmp/rest && tar xzf $OUT/call171-results.tgz && rm $OUT/call171-results.tgz && cd - > /dev/null
SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=/tmp/b/new/spmv timeout 60 \
  /tmp/b/new/spmv_gpu_tests --gtest_filter='*csr_merge*:*CsrMerge*' > /tmp/rest/gpu-tests-merge.log 2>&1
echo "merge tests exit $?" >> /tmp/rest/times.txt
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" /tmp/rest/gpu-tests-merge.log | head -6
REAL_SECONDS=85 FAMILIES_SECONDS=50 FAMILIES45_SECONDS=70 scripts/remeasure-kernel.sh csr-adaptive \
  /tmp/b/new/spmv /tmp/shared/matrices .device-build/families45.txt /tmp/rest/remeasure > /dev/null
cat /tmp/rest/remeasure/times.txt
for d in real families families45; do gzip -9 /tmp/rest/remeasure/$d/results.jsonl; done
cd /tmp/rest && tar czf $OUT/call171-results.tgz ./*
