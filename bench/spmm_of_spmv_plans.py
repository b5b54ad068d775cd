#!/usr/bin/env python3
"""The SpMM of an operator planned for the SpMV (`spmv.plan(A)`, no
spmm_columns), timed end to end against every cuSPARSE SpMM algorithm.

Such an operator does not know k when it is planned: at its first `op @ B`
of a k and layout it plans that SpMM on its own CSR (the SpMM model) and
builds what the plan names. This script times `op.apply(B, out=C)` after
that first call, beside cuSPARSE's SpMM algorithms 1-3 (each a cusparse
operator) and beside an operator planned for that k (`spmm_columns=k`),
which by construction chooses the same kernel. Every result is checked
against cupyx's product first. Each method is timed by CUDA events around
batches of `--batch` calls, the batches of all methods taken in turn; the
figure is the median batch's time per call.

    python3 bench/spmm_of_spmv_plans.py --out DIR
"""

import argparse
import json
import pathlib
import statistics

import cupy
import cupyx.scipy.sparse
import numpy as np

import spmv
from cuda_events import seconds_per_call

# Generated matrices no training run used (shapes the SpMM model was not fitted to), each beyond the L2.
DEFAULT_FAMILIES = ["stencil7:nx=200,ny=200,nz=60",
                    "rmat:scale=21,edge_factor=12,a=0.5,b=0.2,c=0.2",
                    "uniform:rows=2000000,cols=2000000,per_row=9",
                    "blockfem:n=50,block=3",
                    "classification:rows=1000000,cols=5000,per_row=40",
                    "banded:rows=2000000,lower=6,upper=6",
                    "fewhuge:rows=2500000,cols=2500000,per_row=7,huge_rows=100,huge_length=30000"]
CUSPARSE_ALGORITHMS = ["cusparse-spmm-alg1", "cusparse-spmm-alg2", "cusparse-spmm-alg3"]


def check_close(name, result, reference, bound):
    """|result - reference| <= 64 eps (|A| |B|) per entry, as the library's tests demand."""
    error = cupy.abs(result - reference)
    if bool(cupy.isnan(error).any()) or bool((error > bound).any()):
        raise SystemExit(f"{name}: result differs from cupyx's beyond tolerance (max error {float(error.max()):.3g})")


def measure(family, host, dtype, columns, args):
    a_cupy = cupyx.scipy.sparse.csr_matrix(host)
    abs_a = cupyx.scipy.sparse.csr_matrix((cupy.abs(a_cupy.data), a_cupy.indices, a_cupy.indptr), shape=host.shape)
    operators = {"spmv-planned": spmv.plan(host, backend="cuda", expected_products=args.expected_products)}
    for algorithm in CUSPARSE_ALGORITHMS:
        operators[algorithm] = spmv.plan(host, backend="cusparse", kernel=algorithm)
    rows = []
    for k in columns:
        b = cupy.asarray(np.random.default_rng(k).uniform(-1, 1, (host.shape[1], k)).astype(dtype))
        c = cupy.empty((host.shape[0], k), dtype=dtype)
        reference = a_cupy @ b
        bound = 64 * np.finfo(dtype).eps * (abs_a @ cupy.abs(b))
        spmm_plan = spmv.make_plan(host, backend="cuda", spmm_columns=k, expected_products=args.expected_products)
        planned_for_k = dict(operators, **{"planned-for-k": spmv.make_operator(spmm_plan, host)})
        for name, op in planned_for_k.items():  # the first call plans and builds the SpMV-planned one's SpMM
            check_close(f"{family} {np.dtype(dtype).name} k={k} {name}", op @ b, reference, bound)
        planned = [p["kernel"] for p in operators["spmv-planned"].describe()["planned_spmm"]
                   if p["k"] == k and p["layout"] == "row"]
        seconds = {name: [] for name in planned_for_k}
        for _ in range(args.repeats + 1):  # the first round warms up
            for name, op in planned_for_k.items():
                seconds[name].append(seconds_per_call(lambda op=op: op.apply(b, out=c), args.batch))
        medians = {name: statistics.median(values[1:]) for name, values in seconds.items()}
        best_cusparse = min(CUSPARSE_ALGORITHMS, key=lambda name: medians[name])
        rows.append({"family": family, "dtype": np.dtype(dtype).name, "k": k, "rows": host.shape[0],
                     "cols": host.shape[1], "nnz": int(host.nnz), "spmv_kernel": operators["spmv-planned"].describe()["kernel"],
                     "spmm_plan_kernel": spmm_plan.kernel, "ran": planned[0] if planned else None,
                     "seconds": medians, "best_cusparse": best_cusparse})
        del planned_for_k["planned-for-k"], b, c, reference, bound
    del operators, a_cupy, abs_a
    cupy.get_default_memory_pool().free_all_blocks()
    return rows


def print_table(rows):
    print(f"{'family':48} {'type':7} {'k':>3} {'SpMV kernel':18} {'its SpMM':20} {'SpMM plan':20} {'ours ms':>9} "
          f"{'for-k ms':>9} {'cuSPARSE ms':>11} {'best alg':>8} {'vs best':>7}")
    ratios = []
    for r in rows:
        s = r["seconds"]
        ratio = s[r["best_cusparse"]] / s["spmv-planned"]
        ratios.append(ratio)
        print(f"{r['family'][:48]:48} {r['dtype']:7} {r['k']:3} {r['spmv_kernel'][:18]:18} {str(r['ran'])[:20]:20} "
              f"{r['spmm_plan_kernel'][:20]:20} "
              f"{s['spmv-planned'] * 1e3:9.4f} {s['planned-for-k'] * 1e3:9.4f} {s[r['best_cusparse']] * 1e3:11.4f} "
              f"{r['best_cusparse'][-4:]:>8} {ratio:6.2f}x")
    geomean = float(np.exp(np.mean(np.log(ratios))))
    below = sum(1 for x in ratios if x < 0.95)
    print(f"spmv-planned operator's SpMM vs the best cuSPARSE algorithm: geomean {geomean:.2f}x over "
          f"{len(ratios)} units, {below} below 0.95x")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--families", nargs="+", default=DEFAULT_FAMILIES, help="generator specs")
    parser.add_argument("--dtypes", nargs="+", default=["float64", "float32"])
    parser.add_argument("--columns", nargs="+", type=int, default=[4, 16, 32], help="k, the columns of B")
    parser.add_argument("--batch", type=int, default=10, help="calls per timed batch")
    parser.add_argument("--repeats", type=int, default=7, help="timed batches per method; the median is kept")
    parser.add_argument("--expected-products", type=float, default=1e6)
    parser.add_argument("--out", type=pathlib.Path, help="folder for spmm_of_spmv_plans.json")
    args = parser.parse_args()
    rows = []
    for family in args.families:
        matrix = spmv.generate(family)
        for dtype in args.dtypes:
            rows += measure(family, matrix.astype(dtype), np.dtype(dtype).type, args.columns, args)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "spmm_of_spmv_plans.json").write_text(json.dumps(rows, indent=1))
    print_table(rows)


if __name__ == "__main__":
    main()
