#!/usr/bin/env bash
# Device call 72 (one H100): racecheck of what GpuBmrm.CudaMatchesCpu and GpuMicro.EveryPartIsMeasured
# run on the GPU, split into processes that run side by side (each test alone ran past 560 s under
# racecheck): the test's twelve trainings (3 losses x {the plan's kernel, csr-vector} x {f64, f32}, its
# generated 20000 x 127 data, lambda 1e-4, epsilon 1e-4, bias) as `spmv train --backend cuda`, and the
# test's `spmv micro --runs 1 --crossover-size 512` one part at a time. cuSPARSE's kernels left out, as
# scripts/gpu-sanitize.sh does. The build of 724f9a4 (ab66: the spmv of d7d301f; later commits are docs).
set -u
t0=$(date +%s)
R=/tmp/results72; rm -rf $R; mkdir -p $R
tar xJf .device-build/ab66.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=1
S=/tmp/new/spmv
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
compute-sanitizer --version | tail -1 >> $R/gpu.txt
$S gen classification:rows=20000,cols=127,per_row=16 -o $R/classification.libsvm > $R/gen.log 2>&1
race() {  # name, then the spmv command line
  local name=$1; shift
  timeout 520 compute-sanitizer --tool racecheck --kernel-name-exclude kns=cusparse --error-exitcode 99 \
    $S "$@" > $R/$name.log 2>&1
  echo "exit $? at $(( $(date +%s) - t0 )) s" >> $R/$name.log
}
for loss in hinge sqhinge logistic; do
  for kernel in auto csr-vector; do
    for precision in f64 f32; do
      k=(); [ $kernel = auto ] || k=(--kernel $kernel)
      race train-$loss-$kernel-$precision train $R/classification.libsvm --backend cuda --loss $loss \
        --precision $precision --lambda 1e-4 --epsilon 1e-4 --bias "${k[@]}" &
    done
  done
done
for part in reads rows copies crossover; do
  race micro-$part micro --parts $part --runs 1 --crossover-size 512 --out $R/micro-$part.json &
done
wait
{ cat $R/gpu.txt
  for f in $R/train-*.log $R/micro-*.log; do
    printf '%-34s %s\n' "$(basename $f .log)" "$(grep -E 'RACECHECK SUMMARY|^exit|iterations|converged' $f | tr '\n' ' ')"
  done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz --exclude=classification.libsvm .)
cat $OUT/summary.txt
