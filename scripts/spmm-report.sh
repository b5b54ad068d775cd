#!/usr/bin/env bash
# The SpMM measurements of issue 6 in one command, on a GPU machine with an
# existing build: every case is one `spmv bench --json` run, each result
# verified against the reference before it is timed.
#
#   in core     stencil27 and uniform random, k in {4, 8, 32}, f64 and f32,
#               row-major B and C: cuSPARSE's SpMM algorithms, our SpMM
#               kernels and the cpu backend (--with-cpu, OpenMP on the host)
#   out of core column-major, f64, B and C in pinned host memory: the
#               copy-bound and kernel-bound cases of docs/spmm.md and a
#               balanced one (copy time close to kernel time, see below)
#
# Usage: scripts/spmm-report.sh OUT_DIR
# Writes OUT_DIR/spmm/<case>.json (one bench document per case, read by
# bench/report.py) and OUT_DIR/spmm.log (the printed tables). A case whose
# JSON exists is not measured again, so a rerun with the same OUT_DIR
# continues where a stopped one left off. About 4-6 minutes on an H200 (most
# of it host work: generation, the serial reference products, the cpu rows).
#
# Environment: BUILD_DIR (default build), SPMM_RUNS (timed runs per kernel,
# default 10).
# Exits non-zero if a result failed verification or a run failed.
set -uo pipefail

out=${1:?usage: scripts/spmm-report.sh OUT_DIR}
runs=${SPMM_RUNS:-10}

cases="$out/spmm"
log="$out/spmm.log"
tag=spmm-report
# shellcheck source=scripts/bench-cases.sh
source "$(dirname "$0")/bench-cases.sh"

stencil=stencil27:n=100
uniform=uniform:rows=2000000,cols=2000000,per_row=16
for k in 4 8 32; do
  for precision in f64 f32; do
    measure "in-core-stencil27-k$k-$precision" --gen "$stencil" --k "$k" --precision "$precision" --with-cpu
    measure "in-core-uniform-k$k-$precision" --gen "$uniform" --k "$k" --precision "$precision" --with-cpu
  done
done

# Out of core, chunks of L_GPU = 8 columns, column-major, f64. Copies run at
# about 54 GB/s each way (docs/spmm.md), so a chunk of an n x n matrix costs
# CT = 2 * n * 8 columns * 8 bytes / 54 GB/s, whatever the non-zeros.
#
# Copy-bound (docs/spmm.md: CT 18.7 ms, PT 3.5 ms): the stencil, k = 64.
measure out-of-core-copy-bound --gen "$stencil" --k 64 --layout col --precision f64 \
  --kernels spmm-csr-vec --out-of-core --chunk-columns 8 --streams 2
# Kernel-bound (docs/spmm.md: CT 4.7 ms, PT 17.6 ms): uniform 500k x 500k
# with 160 per row, k = 32, FastSpMM.
measure out-of-core-kernel-bound --gen uniform:rows=500000,cols=500000,per_row=160 --k 32 \
  --layout col --precision f64 --kernels spmm-fastspmm --out-of-core --chunk-columns 8 --streams 3
# Balanced: CT stays 2 * 500k * 32 * 8 B / 54 GB/s = 4.7 ms for k = 32 while
# PT scales with the entries. By the byte model FastSpMM would read a chunk's
# A (12 bytes per entry in f64) at ~3.5 TB/s, and PT = CT would need
# 16 * 8 * 3.5e12 / (54e9 * 12) ~ 690 entries per row; but on random columns
# it runs ~15x slower than that model, bound by the 8 column-major gathers of
# B per entry (kernel-bound case: 17.6 ms / (80M entries * 32 columns)
# = 6.9 ps per entry and column). With that measured rate,
# PT = 500k * p * 32 * 6.9 ps equals CT = 4.7 ms at p = 43: 40 per row gives
# PT ~ 4.4 ms against CT ~ 4.7 ms, where overlap can hide the most.
measure out-of-core-balanced --gen uniform:rows=500000,cols=500000,per_row=40 --k 32 \
  --layout col --precision f64 --kernels spmm-fastspmm --out-of-core --chunk-columns 8 --streams 3
# The same with 16 chunks of 2 columns on 4 streams: a shorter pipeline fill
# and drain (H100: overlapped total 1.00x max(CT, PT) against 1.17x with 4 chunks).
measure out-of-core-balanced-small-chunks --gen uniform:rows=500000,cols=500000,per_row=40 --k 32 \
  --layout col --precision f64 --kernels spmm-fastspmm --out-of-core --chunk-columns 2 --streams 4

stamp "done (status $status)"
exit $status
