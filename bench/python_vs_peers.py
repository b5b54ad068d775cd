#!/usr/bin/env python3
"""Our Python call `op @ x` on CuPy arrays against the C++ operator it wraps,
cupyx.scipy.sparse and torch.sparse, on the same matrices, f32 and f64.

Every method is timed alike: CUDA events around batches of `--batch` calls
on the default stream, after a warm-up batch; the figure is the median over
`--repeats` batches of the time per call. The methods' batches are taken in
turn (one of each, then again), so that a drift of the GPU's clocks over the
run touches all alike. The C++ figure is Operator.time_products (events
around applies issued from C++, no Python in the loop); the binding's cost
per call is the median of the differences between each `op @ x` batch and
the C++ batch before it. Each result is checked against cupyx's product
before it is timed.

    python3 bench/python_vs_peers.py --out bench/results/<date>-h100-python
"""

import argparse
import datetime
import functools
import json
import math
import pathlib
import statistics
import sys

import cupy
import cupyx.scipy.sparse
import numpy as np
import torch

import spmv
from cuda_events import seconds_per_call

# Large enough that matrix and vectors exceed the 50 MB L2 several times,
# and one small matrix where the per-call cost of Python is not hidden.
DEFAULT_FAMILIES = ["stencil27:n=150", "stencil5:n=3000", "stencil5:n=300",
                    "uniform:rows=4000000,cols=4000000,per_row=16", "rmat:scale=22,edge_factor=16"]


def interleaved_batches(batches, repeats):
    """{name: seconds per call of each of `repeats` batches} for `batches`
    ({name: a function timing one batch}): each warmed up by one batch, then
    their batches in turn."""
    for time_batch in batches.values():
        time_batch()
    seconds = {name: [] for name in batches}
    for _ in range(repeats):
        for name, time_batch in batches.items():
            seconds[name].append(time_batch())
    return seconds


def check_close(name, result, reference, bound):
    """|result - reference| <= 64 eps (|A| |x|) per row, as the library's tests demand."""
    error = cupy.abs(cupy.asarray(result) - reference)
    if bool(cupy.isnan(error).any()) or bool((error > bound).any()):
        raise SystemExit(f"{name}: result differs from cupyx's beyond tolerance "
                         f"(max error {float(error.max()):.3g})")


def measure(family, host, dtype, args):
    a_cupy = cupyx.scipy.sparse.csr_matrix(host)
    a_torch = torch.sparse_csr_tensor(torch.as_tensor(host.indptr, device="cuda"),
                                      torch.as_tensor(host.indices, device="cuda"),
                                      torch.as_tensor(host.data, device="cuda"), size=host.shape)
    op = spmv.plan(host, backend="cuda", expected_products=args.expected_products)
    x = cupy.asarray(np.random.default_rng(1).uniform(-1, 1, host.shape[1]).astype(dtype))
    x_torch = torch.as_tensor(x, device="cuda")
    y = cupy.empty(host.shape[0], dtype=dtype)

    reference = a_cupy @ x
    abs_a = cupyx.scipy.sparse.csr_matrix((cupy.abs(a_cupy.data), a_cupy.indices, a_cupy.indptr), shape=host.shape)
    bound = 64 * np.finfo(dtype).eps * (abs_a @ cupy.abs(x))
    check_close("spmv op @ x", op @ x, reference, bound)
    op.time_products(x, y, batch=1, repeats=1)
    check_close("spmv time_products", y, reference, bound)
    check_close("torch.mv", torch.mv(a_torch, x_torch), reference, bound)
    check_close("torch.sparse.mm", torch.sparse.mm(a_torch, x_torch.unsqueeze(1)).squeeze(1), reference, bound)

    batch = args.batch
    calls = {
        "python_matmul_seconds": lambda: op @ x,
        "python_apply_out_seconds": lambda: op.apply(x, out=y),
        "cupyx_seconds": lambda: a_cupy @ x,
        "torch_mv_seconds": lambda: torch.mv(a_torch, x_torch),
        "torch_sparse_mm_seconds": lambda: torch.sparse.mm(a_torch, x_torch.unsqueeze(1)),
    }
    batches = {"cpp_seconds": lambda: op.time_products(x, y, batch=batch, repeats=1)[0]}
    batches.update({name: functools.partial(seconds_per_call, call, batch) for name, call in calls.items()})
    # At least --repeats batches, more where a batch is short, so that a burst
    # of other work on the machine's CPUs moves the median of none.
    cpp_batch = batch * op.time_products(x, y, batch=batch, repeats=1)[0]
    repeats = max(args.repeats, min(1000, math.ceil(args.min_seconds / cpp_batch)))
    row = {"family": family, "dtype": np.dtype(dtype).name, "rows": host.shape[0], "cols": host.shape[1],
           "nnz": int(host.nnz), "kernel": op.describe()["kernel"], "format": op.describe()["format"],
           "batches": repeats}
    seconds = interleaved_batches(batches, repeats)
    row.update({name: statistics.median(values) for name, values in seconds.items()})
    # Each `op @ x` batch against the C++ batch just before it: what the GPU's
    # speed does over the run cancels out of the difference.
    row["binding_overhead_seconds"] = statistics.median(
        python - cpp for python, cpp in zip(seconds["python_matmul_seconds"], seconds["cpp_seconds"]))
    del op, a_cupy, a_torch, abs_a
    cupy.get_default_memory_pool().free_all_blocks()
    torch.cuda.empty_cache()
    return row


def print_table(rows):
    us = 1e6
    print(f"{'family':46} {'type':7} {'nnz':>10} {'kernel':22} {'C++':>9} {'op@x':>9} {'apply':>9} "
          f"{'over':>6} {'cupyx':>9} {'torch.mv':>9} {'sp.mm':>9}  verdict (us per call)")
    for r in rows:
        peers = min(r["cupyx_seconds"], r["torch_mv_seconds"], r["torch_sparse_mm_seconds"])
        within = r["binding_overhead_seconds"] <= 5e-6
        faster = r["python_matmul_seconds"] < peers
        cpp_faster = r["cpp_seconds"] < peers
        verdict = ("overhead<=5us" if within else "overhead>5us") + (
            ", faster than peers" if faster else (", C++ not faster either" if not cpp_faster else ", SLOWER than peers"))
        print(f"{r['family']:46} {r['dtype']:7} {r['nnz']:>10} {r['kernel'][:22]:22} {r['cpp_seconds']*us:9.1f} "
              f"{r['python_matmul_seconds']*us:9.1f} {r['python_apply_out_seconds']*us:9.1f} "
              f"{r['binding_overhead_seconds']*us:6.1f} {r['cupyx_seconds']*us:9.1f} "
              f"{r['torch_mv_seconds']*us:9.1f} {r['torch_sparse_mm_seconds']*us:9.1f}  {verdict}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--families", nargs="+", default=DEFAULT_FAMILIES, help="generator specs")
    parser.add_argument("--dtypes", nargs="+", default=["float64", "float32"])
    parser.add_argument("--batch", type=int, default=50,
                        help="calls between two events (the steady state of a loop of products: a batch's "
                             "first call waits on Python before the GPU starts, 1/batch of its cost)")
    parser.add_argument("--repeats", type=int, default=25, help="batches timed at least; the median is kept")
    parser.add_argument("--min-seconds", type=float, default=0.25,
                        help="C++ batches' time to reach at least (more batches of a short product, up to 1000)")
    parser.add_argument("--expected-products", type=float, default=1000,
                        help="what the selector weighs setup against")
    parser.add_argument("--out", type=pathlib.Path, help="folder for python_vs_peers.json")
    args = parser.parse_args()

    environment = {
        "gpu": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "spmv": spmv.version_text(), "python": sys.version.split()[0], "numpy": np.__version__,
        "cupy": cupy.__version__, "torch": torch.__version__, "torch_cuda": torch.version.cuda,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "method": f"CUDA events around batches of {args.batch} calls, median of {args.repeats} batches "
                  "taken in turn with the other methods', one warm-up batch; default stream",
        "expected_products": args.expected_products,
    }
    print(environment["gpu"], "|", environment["spmv"].replace("\n", " | "), "| cupy", cupy.__version__,
          "| torch", torch.__version__)
    rows = []
    for family in args.families:
        generated = spmv.generate(family)
        for dtype in args.dtypes:
            host = generated if dtype == "float64" else generated.astype(dtype)
            rows.append(measure(family, host, np.dtype(dtype).type, args))
            print_table(rows[-1:])
            sys.stdout.flush()
            if args.out:  # after every row, so that a run cut short keeps what it measured
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / "python_vs_peers.json").write_text(
                    json.dumps({"environment": environment, "results": rows}, indent=1))
        del generated
    print()
    print_table(rows)


if __name__ == "__main__":
    main()
