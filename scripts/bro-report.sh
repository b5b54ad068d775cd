#!/usr/bin/env bash
# The BRO compression of issue 5 before and after reordering, in one command
# on a GPU machine with an existing build: each case is one `spmv bench
# --json` run of the BRO kernels beside the uncompressed formats they extend
# (ell, coo, hyb), a CSR kernel and cuSPARSE, every result verified first.
#
#   real matrices  the larger regular ones of the collection (the kind of
#                  the paper's test set 1), as they are (they fit in the L2:
#                  their times are not bandwidth figures), f64, with the
#                  reorderings none, rcm, amd and bar
#   stencil27      150^3 (0.9 GB in f64, far beyond the L2) in its natural
#                  order and after each reordering
#   shuffled       stencil27 100^3 with its rows shuffled (the generator's
#                  shuffle=1) after each reordering, and in its natural order:
#                  how much of the lost compression each reordering recovers
#
# Usage: scripts/bro-report.sh OUT_DIR MATRICES_DIR
# Writes OUT_DIR/bro/<case>.json (read by bench/report.py) and
# OUT_DIR/bro.log; a case whose JSON exists is not measured again.
# Environment: BUILD_DIR (default build), BRO_RUNS (timed runs, default 10).
# Exits non-zero if a result failed verification or a run failed.
set -uo pipefail

out=${1:?usage: scripts/bro-report.sh OUT_DIR MATRICES_DIR}
matrices=${2:?usage: scripts/bro-report.sh OUT_DIR MATRICES_DIR}
runs=${BRO_RUNS:-10}

cases="$out/bro"
log="$out/bro.log"
tag=bro-report
# shellcheck source=scripts/bench-cases.sh
source "$(dirname "$0")/bench-cases.sh"

kernels=bro-ell,bro-hyb,bro-coo,ell,coo,hyb,csr-vector-tuned
for reordering in none rcm amd bar; do
  for name in af23560 cage11 bcsstk16 copter2 EX5 delaunay_n16; do
    file="$matrices/$name.mtx.gz"
    [ -f "$file" ] || { stamp "$name: no $file, skipped"; continue; }
    measure "$name-$reordering" "$file" --reorder "$reordering" --kernels "$kernels" --precision f64
  done
  measure "stencil27-$reordering" --gen stencil27:n=150 --reorder "$reordering" --kernels "$kernels" \
    --precision f64
  measure "shuffled-$reordering" --gen stencil27:n=100,shuffle=1 --reorder "$reordering" \
    --kernels "$kernels" --precision f64
done
measure "shuffled-natural-order" --gen stencil27:n=100 --kernels "$kernels" --precision f64

stamp "done (status $status)"
exit $status
