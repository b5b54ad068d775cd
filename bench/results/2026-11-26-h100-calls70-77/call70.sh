#!/usr/bin/env bash
# Device call 70 (one H100): where the two-part stencil's time goes (issue 16). The 27-point stencil
# 150^3 f64: the kernels on the whole and on half the grid (nz=75, about a part's local block) timed
# by CUDA events; one and two parts on this one GPU (wall clock per synchronised run(), as --gpus),
# with and without overlap and graphs.
set -u
t0=$(date +%s)
R=/tmp/results70; rm -rf $R; mkdir -p $R/json
tar xJf .device-build/ab66.txz -C /tmp
export LD_LIBRARY_PATH=/tmp/metis:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
b() {  # name, then spmv bench arguments
  local name=$1; shift
  timeout 90 /tmp/new/spmv bench "$@" --expected-products 1e6 --runs 30 --json $R/json/$name.json > $R/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/timeline.txt
}
b whole --gen stencil27:n=150 --kernels bro-hyb,dia,ellr-t
b half --gen stencil27:n=150,nz=75 --kernels bro-hyb,dia,ellr-t
b p2 --gen stencil27:n=150 --parts 2
b p2-nooverlap --gen stencil27:n=150 --parts 2 --no-overlap
b p2-nographs --gen stencil27:n=150 --parts 2 --no-graphs
b p2-rows --gen stencil27:n=150 --parts 2 --partition rows
{ cat $R/gpu.txt $R/timeline.txt
  for f in $R/*.log; do echo "== $(basename $f .log)"; grep -E 'ms|efficiency|beyond|exchange:|FAILED|^[0-9] ' $f | grep -v '^ *$' | head -30; done
} > $OUT/summary.txt 2>&1
(cd $R && tar czf $OUT/results.tgz .)
cat $OUT/summary.txt
