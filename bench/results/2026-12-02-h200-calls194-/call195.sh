#!/usr/bin/env bash
# Device call 195 (one H200): call 194's transposed products again, now that `spmv bench --kernels` takes auto
# (call 194's benches all stopped at "unknown kernel 'auto'"; its tests passed). y = A^T x timed on
# transposed.txt's matrices, f64 and f32, each verified first, cuSPARSE in the same run:
#   explicit: auto (A^T's own plan), A's chosen kernel on A^T (the behaviour before), coo on A^T (BMRM's default),
#             and cuSPARSE's algorithms on its own A^T (the bench's baseline);
#   implicit: A's chosen kernel's transposed product without A^T (atomics), and cuSPARSE's transposed mode;
#   forward:  auto and coo for y = A x, so that BMRM's two products per iteration can be added up.
# .device-build/c195.txz holds new/ (spmv, metis); .device-data/ the real matrices transposed.txt names.
set -u
R=bench/results/2026-12-02-h200-calls194-
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared/matrices
xz -dc .device-build/c195.txz | tar xf - -C /tmp/b
cp .device-data/*.mtx.gz /tmp/shared/matrices/
B=/tmp/b/new; O=$OUT/r; mkdir -p $O/bench
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
common="--backend cuda --runs 20 --warmup 3 --expected-products 1000"
while read -r name source; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ -f "/tmp/shared/matrices/$source" ]; then input=(/tmp/shared/matrices/$source); else input=(--gen "$source"); fi
  for p in f64 f32; do
    [ $(( $(date +%s) - t0 )) -gt 480 ] && break 2
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
cat $OUT/gpu.txt $OUT/times.txt $O/transposed.md
cd $OUT && tar czf /tmp/results.tgz ./r ./gpu.txt ./times.txt && rm -rf ./r && mv /tmp/results.tgz $OUT/call195-results.tgz
