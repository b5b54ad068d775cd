#!/usr/bin/env bash
# Device call 196 (one H200): the transposed products of calls 194-195 again, now that the cusparse backend honours
# explicit_transpose (before, it ran cuSPARSE's transposed mode whatever was asked, so call 195's "cuSPARSE on its
# own A^T" was its transposed mode); BMRM end to end with its new default (X and X^T each planned) against its old
# one (coo on X and X^T); and the GPU tests of plans, device CSRs, BMRM (a9a from .device-data) and transposes.
# y = A^T x timed on transposed.txt's matrices, f64 and f32, each verified first, cuSPARSE in the same run:
#   explicit: auto (A^T's own plan), A's chosen kernel on A^T (the behaviour before), coo on A^T (BMRM's default
#             before), and cuSPARSE's algorithms on their own A^T (the bench's baseline);
#   implicit: A's chosen kernel's transposed product without A^T (atomics), and cuSPARSE's transposed mode;
#   forward:  auto and coo for y = A x, so that BMRM's two products per iteration can be added up.
# .device-build/c196.txz holds new/ (spmv, spmv_gpu_tests, metis); .device-data/ the real matrices transposed.txt
# names and LIBSVM's a9a.
set -u
R=bench/results/2026-12-02-h200-calls194-
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared/matrices /tmp/shared/libsvm
xz -dc .device-build/c196.txz | tar xf - -C /tmp/b
cp .device-data/*.mtx.gz /tmp/shared/matrices/ && cp .device-data/a9a.gz /tmp/shared/libsvm/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O/bench $O/bmrm
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
SPMV_REQUIRE_GPU=1 SPMV_SHARED_DATA=/tmp/shared SPMV_CLI=$B/spmv timeout 200 $B/spmv_gpu_tests \
  --gtest_filter='GpuPlan.*:GpuDeviceCsr.*:*Bmrm*:*Transpose*:*transpose*' > $O/gpu-tests.log 2>&1
echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $O/gpu-tests.log >> $OUT/times.txt
for spec in kdd_like:classification:rows=2000000,cols=127,per_row=12 rcv1_like:classification:rows=300000,cols=47000,per_row=70 \
            news20_like:classification:rows=20000,cols=1300000,per_row=450; do
  $B/spmv gen "${spec#*:}" -o /tmp/${spec%%:*}.spmv > /dev/null
done
cp /tmp/shared/libsvm/a9a.gz /tmp/a9a.libsvm.gz
for data in kdd_like.spmv rcv1_like.spmv news20_like.spmv a9a.libsvm.gz; do
  for p in f32 f64; do
    name=${data%%.*}-$p
    timeout 60 $B/spmv train /tmp/$data --backend cuda --precision $p --max-iter 300 --kernel coo --explicit-transpose \
      --json $O/bmrm/$name-coo.json > $O/bmrm/$name-coo.log 2>&1
    timeout 60 $B/spmv train /tmp/$data --backend cuda --precision $p --max-iter 300 \
      --json $O/bmrm/$name-planned.json > $O/bmrm/$name-planned.log 2>&1
    echo "bmrm $name exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  done
done
python3 $R/bmrm_table.py $O/bmrm > $O/bmrm.md 2>&1
common="--backend cuda --runs 20 --warmup 3 --expected-products 1000"
while read -r name source; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ -f "/tmp/shared/matrices/$source" ]; then input=(/tmp/shared/matrices/$source); else input=(--gen "$source"); fi
  for p in f64 f32; do
    [ $(( $(date +%s) - t0 )) -gt 540 ] && break 2
    k=$($B/spmv plan "${input[@]}" --precision $p --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["options"]["kernel"])')
    echo "$name $p $k" >> $O/bench/a-kernels.txt
    kernels=auto,coo; [ "$k" != coo ] && case "$k" in cusparse*) ;; *) kernels=auto,coo,$k ;; esac
    timeout 60 $B/spmv bench "${input[@]}" --precision $p --transposed --explicit-transpose --kernels $kernels $common \
      --json $O/bench/$name-$p-explicit.json > $O/bench/$name-$p-explicit.log 2>&1
    implicit=$k; case "$k" in cusparse*) implicit=csr-vector ;; esac
    timeout 60 $B/spmv bench "${input[@]}" --precision $p --transposed --kernels $implicit $common \
      --json $O/bench/$name-$p-implicit.json > $O/bench/$name-$p-implicit.log 2>&1
    timeout 60 $B/spmv bench "${input[@]}" --precision $p --kernels auto,coo $common \
      --json $O/bench/$name-$p-forward.json > $O/bench/$name-$p-forward.log 2>&1
    echo "$name $p A's kernel $k: exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  done
done < $R/transposed.txt
python3 $R/transposed_table.py $O/bench > $O/transposed.md 2>&1
cat $OUT/gpu.txt $OUT/times.txt $O/transposed.md $O/bmrm.md
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call196-results.tgz
