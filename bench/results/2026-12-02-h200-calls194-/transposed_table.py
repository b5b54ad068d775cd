#!/usr/bin/env python3
"""Call 194's table: the transposed product y = A^T x per matrix and precision, from the bench JSON files of
call194.sh. Columns: auto with explicit_transpose (A^T planned on its own), A's kernel on A^T (what explicit_transpose
gave before), coo on A^T (BMRM's default), the fastest cuSPARSE (its algorithms on its own A^T, and its transposed
mode), and A's kernel's product without A^T. Speed-ups are over the fastest cuSPARSE of the same run. (In call
195 the cusparse backend ran its transposed mode even with explicit_transpose, so its "A^T" rows there are that
mode too.)

    transposed_table.py RESULTS_DIR
"""
import json
import math
import os
import sys


def rows_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)["results"]


def best(rows, predicate):
    times = [(r["median_ms"], r) for r in rows if r["status"] == "ok" and r["verified"] and predicate(r)]
    return min(times, key=lambda t: t[0]) if times else (None, None)


def main():
    folder = sys.argv[1]
    a_kernels = {}
    with open(os.path.join(folder, "a-kernels.txt")) as f:
        for line in f:
            name, precision, kernel = line.split()
            a_kernels[(name, precision)] = kernel
    print("| matrix | precision | A's kernel | auto: A^T's kernel | auto ms | A's kernel on A^T ms | coo on A^T ms "
          "| best cuSPARSE ms (mode) | A's kernel, no A^T ms | auto vs cuSPARSE | before vs cuSPARSE |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    auto_ratios, before_ratios = [], []
    for (name, precision), a_kernel in a_kernels.items():
        explicit = rows_of(os.path.join(folder, f"{name}-{precision}-explicit.json"))
        implicit = rows_of(os.path.join(folder, f"{name}-{precision}-implicit.json"))
        auto_ms, auto_row = best(explicit, lambda r: r["kernel"] == "auto")
        coo_ms, _ = best(explicit, lambda r: r["kernel"] == "coo")
        vendor_explicit, v1 = best(explicit, lambda r: r["backend"] == "cusparse")
        vendor_implicit, v2 = best(implicit, lambda r: r["backend"] == "cusparse")
        candidates = [(t, r, mode) for t, r, mode in
                      ((vendor_explicit, v1, "A^T"), (vendor_implicit, v2, "transposed mode")) if t]
        vendor_ms, vendor_row, mode = min(candidates, key=lambda c: c[0]) if candidates else (None, None, "")
        if a_kernel.startswith("cusparse"):
            # Before call 196 the cusparse backend ignored explicit_transpose: its transposed mode on A.
            before_ms, _ = best(implicit, lambda r: r["kernel"] == a_kernel)
        else:
            before_ms, _ = best(explicit, lambda r: r["kernel"] == a_kernel)
        implicit_ms, _ = best(implicit, lambda r: r["backend"] == "cuda")
        fmt = lambda t: f"{t:.4f}" if t else "-"
        ratio = lambda t: f"{vendor_ms / t:.2f}x" if t and vendor_ms else "-"
        if auto_ms and vendor_ms:
            auto_ratios.append(vendor_ms / auto_ms)
        if before_ms and vendor_ms:
            before_ratios.append(vendor_ms / before_ms)
        print(f"| {name} | {precision} | {a_kernel} | {auto_row['chosen_kernel'] if auto_row else '-'} | "
              f"{fmt(auto_ms)} | {fmt(before_ms)} | {fmt(coo_ms)} | "
              f"{fmt(vendor_ms)} ({vendor_row['kernel'] if vendor_row else '-'}, {mode}) | {fmt(implicit_ms)} | "
              f"{ratio(auto_ms)} | {ratio(before_ms)} |")
    geomean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    print(f"\n- auto vs the best cuSPARSE, geomean over {len(auto_ratios)}: {geomean(auto_ratios):.2f}x; "
          f"below 0.95x: {sum(r < 0.95 for r in auto_ratios)}")
    print(f"- A's kernel on A^T (before) vs the best cuSPARSE, geomean over {len(before_ratios)}: "
          f"{geomean(before_ratios):.2f}x; below 0.95x: {sum(r < 0.95 for r in before_ratios)}")

    print("\nBMRM's two products per iteration (A x and A^T x), ms: coo on A and on A^T (BMRM's default) "
          "against auto on both (explicit_transpose, A^T planned on its own)\n")
    print("| matrix | precision | coo + coo | auto + auto | auto's kernels (A, A^T) |")
    print("|---|---|---:|---:|---|")
    for (name, precision) in a_kernels:
        explicit = rows_of(os.path.join(folder, f"{name}-{precision}-explicit.json"))
        forward = rows_of(os.path.join(folder, f"{name}-{precision}-forward.json"))
        coo_t, _ = best(explicit, lambda r: r["kernel"] == "coo")
        auto_t, auto_t_row = best(explicit, lambda r: r["kernel"] == "auto")
        coo_f, _ = best(forward, lambda r: r["kernel"] == "coo")
        auto_f, auto_f_row = best(forward, lambda r: r["kernel"] == "auto")
        if not (coo_t and auto_t and coo_f and auto_f):
            continue
        print(f"| {name} | {precision} | {coo_f + coo_t:.4f} | {auto_f + auto_t:.4f} | "
              f"{auto_f_row['chosen_kernel']}, {auto_t_row['chosen_kernel']} |")


if __name__ == "__main__":
    main()
