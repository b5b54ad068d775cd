#!/usr/bin/env python3
"""CG of `spmv solve` (cuda backend) beside cupyx.scipy.sparse.linalg.cg, in one run.

For each matrix and preconditioner (none, Jacobi), both solve A x = b with
b = A * ones (in f64), the same relative tolerance and iteration limit.
Both final residuals are recomputed the same way here: |b - A x| / |b| in
f64 with scipy. Times per solve (median of --repeats):
  spmv: solve_seconds of `spmv solve --json`: r0 = b - A x0 and the
        iterations, operands on the device; plan, upload and file loading
        are excluded (setup_seconds is printed beside it).
  cupy: the cg() call on device-resident A and b, synchronised, after one
        warm-up call; building the CuPy matrix is excluded.
Iteration counts of CuPy come from a separate call with a counting callback.
Writes one JSON file per case and summary.json into --out.
"""
import argparse, json, os, statistics, subprocess, sys, time

import numpy as np
import scipy.io
import scipy.sparse as sp
import cupy as cp
import cupyx.scipy.sparse as csp
import cupyx.scipy.sparse.linalg as cspla


def stencil27(n):
    t = sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(n, n), format="csr")
    return (27.0 * sp.identity(n ** 3, format="csr") - sp.kron(t, sp.kron(t, t, format="csr"), format="csr")).tocsr()


def relative_residual(a, b, x):
    return float(np.linalg.norm(b - a @ x.astype(np.float64)) / np.linalg.norm(b))


def cupy_cg(a_gpu, b_gpu, tol, max_iter, inv_diag, callback=None):
    m = None
    if inv_diag is not None:
        m = cspla.LinearOperator(a_gpu.shape, matvec=lambda r: r * inv_diag, dtype=a_gpu.dtype)
    try:
        return cspla.cg(a_gpu, b_gpu, rtol=tol, maxiter=max_iter, M=m, callback=callback)
    except TypeError:  # older CuPy: tol=
        return cspla.cg(a_gpu, b_gpu, tol=tol, maxiter=max_iter, M=m, callback=callback)


def run_cupy(a, b, tol, max_iter, jacobi, repeats):
    a_gpu, b_gpu = csp.csr_matrix(a), cp.asarray(b)
    inv_diag = cp.asarray(1.0 / a.diagonal()) if jacobi else None
    cupy_cg(a_gpu, b_gpu, tol, 2, inv_diag)  # warm-up: kernels compiled and loaded
    count = [0]
    x, info = cupy_cg(a_gpu, b_gpu, tol, max_iter, inv_diag, callback=lambda _: count.__setitem__(0, count[0] + 1))
    times = []
    for _ in range(repeats):
        cp.cuda.Device().synchronize()
        start = time.perf_counter()
        x, info = cupy_cg(a_gpu, b_gpu, tol, max_iter, inv_diag)
        cp.cuda.Device().synchronize()
        times.append(time.perf_counter() - start)
    return {"iterations": count[0], "converged": int(info) == 0, "solve_seconds": statistics.median(times),
            "relative_residual": relative_residual(a, b, cp.asnumpy(x))}


def run_spmv(spmv, path, tol, max_iter, jacobi, repeats, work):
    reports = []
    for i in range(repeats):
        json_path, x_path = f"{work}/r{i}.json", f"{work}/x.txt"
        command = [spmv, "solve", path, "--backend", "cuda", "--tol", str(tol), "--max-iter", str(max_iter),
                   "--precond", "jacobi" if jacobi else "none", "--json", json_path, "-o", x_path]
        done = subprocess.run(command, capture_output=True, text=True,
                              env=dict(os.environ, CUDA_MODULE_LOADING="EAGER"))
        if done.returncode not in (0, 1):
            sys.exit(f"spmv solve failed: {done.stderr}")
        with open(json_path) as f:
            reports.append(json.load(f))
    report = reports[-1]
    report["solve_seconds_runs"] = [r["solve_seconds"] for r in reports]
    report["solve_seconds"] = statistics.median(report["solve_seconds_runs"])
    report["x"] = np.loadtxt(f"{work}/x.txt")
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spmv", required=True)
    parser.add_argument("--stencil-n", type=int, default=150)
    parser.add_argument("--matrices", nargs="*", default=[])
    parser.add_argument("--tol", type=float, default=1e-8)
    parser.add_argument("--max-iter", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(f"cupy {cp.__version__}", flush=True)
    work = f"{args.out}/work"
    os.makedirs(work, exist_ok=True)

    cases = []
    if args.stencil_n:
        path = f"{work}/stencil27_{args.stencil_n}.spmv"
        subprocess.run([args.spmv, "gen", "stencil27", "--n", str(args.stencil_n), "-o", path], check=True,
                       capture_output=True)
        cases.append((f"stencil27 n={args.stencil_n}", path, stencil27(args.stencil_n)))
    for path in args.matrices:
        a = sp.csr_matrix(scipy.io.mmread(path), dtype=np.float64)  # reads .mtx.gz too
        cases.append((os.path.basename(path).split(".")[0], path, a))

    rows = []
    for name, path, a in cases:
        b = a @ np.ones(a.shape[0])
        for jacobi in (False, True):
            ours = run_spmv(args.spmv, path, args.tol, args.max_iter, jacobi, args.repeats, work)
            assert ours["rows"] == a.shape[0] and ours["nnz"] == a.nnz, (name, ours["rows"], ours["nnz"], a.nnz)
            ours_residual = relative_residual(a, b, ours.pop("x"))
            theirs = run_cupy(a, b, args.tol, args.max_iter, jacobi, args.repeats)
            row = {"matrix": name, "rows": a.shape[0], "nnz": a.nnz, "preconditioner": "jacobi" if jacobi else "none",
                   "tolerance": args.tol, "max_iterations": args.max_iter,
                   "spmv": {k: ours[k] for k in ("kernel", "format", "iterations", "converged", "setup_seconds",
                                                 "solve_seconds", "solve_seconds_runs", "seconds_per_iteration")}
                   | {"relative_residual": ours_residual},
                   "cupy": theirs}
            row["speedup"] = theirs["solve_seconds"] / ours["solve_seconds"]
            rows.append(row)
            with open(f"{args.out}/{name.replace(' ', '_').replace('=', '')}_{row['preconditioner']}.json", "w") as f:
                json.dump(row | {"spmv_report": ours}, f, indent=1)
            print(json.dumps(row), flush=True)

    with open(f"{args.out}/summary.json", "w") as f:
        json.dump({"cupy_version": cp.__version__, "cases": rows}, f, indent=1)
    print(f"\n{'matrix':<18} {'prec':<6} {'spmv kernel':<18} {'it ours':>7} {'it cupy':>7} {'res ours':>9} "
          f"{'res cupy':>9} {'ms ours':>9} {'ms cupy':>9} {'speedup':>7}")
    for r in rows:
        print(f"{r['matrix']:<18} {r['preconditioner']:<6} {r['spmv']['kernel']:<18} {r['spmv']['iterations']:>7} "
              f"{r['cupy']['iterations']:>7} {r['spmv']['relative_residual']:>9.2e} {r['cupy']['relative_residual']:>9.2e} "
              f"{r['spmv']['solve_seconds'] * 1e3:>9.2f} {r['cupy']['solve_seconds'] * 1e3:>9.2f} {r['speedup']:>7.2f}")


if __name__ == "__main__":
    main()
