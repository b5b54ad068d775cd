#!/usr/bin/env python3
"""The setup table of docs/benchmarks.md from bench_format_builds' JSON lines.

Usage: builds_table.py BUILDS.jsonl

One row per format (the kernels with a device build), one column per matrix:
"device build ms (in products of that format) / host build ms; the product
against cuSPARSE's default algorithm, payback in products" (payback as
bench_format_builds prints it: the setup beyond cuSPARSE's over the time saved
per product; - where ours is slower). A format a matrix refused is missing
from the lines and reads "refused". Then the default plan's row (plan() with
no kernel named), the CSR uploads and cuSPARSE's setup and product.
"""
import json
import sys


def payback(line):
    gain = line["cusparse_product_seconds"] - line["product_seconds"]
    if gain <= 0:
        return "–"
    setup = line["plan_seconds"] + line["make_operator_seconds"]
    return f"{max(0.0, setup - line['cusparse_setup_seconds']) / gain:.0f}"


def cell(line):
    build = line["device_build_seconds"]
    products = build / line["product_seconds"]
    host = f" / {line['host_build_seconds'] * 1e3:.0f}" if line["host_build_seconds"] > 0 else ""
    speed = line["cusparse_product_seconds"] / line["product_seconds"]
    return f"{build * 1e3:.1f} ({products:.1f}){host}; {speed:.2f}x, {payback(line)}"


def main():
    lines = [json.loads(text) for text in open(sys.argv[1]) if text.startswith("{")]
    matrices = list(dict.fromkeys(line["matrix"] for line in lines))
    by_key = {(line["matrix"], line["kernel"]): line for line in lines}
    formats = list(dict.fromkeys(line["kernel"] for line in lines if line["host_build_seconds"] > 0))
    print("| format | " + " | ".join(matrices) + " |")
    print("|---|" + "---:|" * len(matrices))
    for kernel in formats:
        cells = [cell(by_key[(m, kernel)]) if (m, kernel) in by_key else "refused" for m in matrices]
        print(f"| {kernel} | " + " | ".join(cells) + " |")
    defaults = []
    for m in matrices:
        line = next(line for line in lines if line["matrix"] == m and line["kernel"].startswith("auto: "))
        setup = line["plan_seconds"] + line["make_operator_seconds"]
        defaults.append(f"{line['kernel'][6:]}: {cell(line)}; plan() / upload "
                        f"{setup / line['upload_seconds']:.2f}")
    print("| default plan | " + " | ".join(defaults) + " |")
    uploads = []
    for m in matrices:
        times = [line["upload_seconds"] * 1e3 for line in lines if line["matrix"] == m and line["upload_seconds"] > 0]
        uploads.append(f"{min(times):.1f}–{max(times):.1f}")
    print("| CSR upload ms (min–max over the kernels) | " + " | ".join(uploads) + " |")
    vendor = [next(line for line in lines if line["matrix"] == m) for m in matrices]
    print("| cuSPARSE setup ms, product µs | " + " | ".join(
        f"{line['cusparse_setup_seconds'] * 1e3:.1f}, {line['cusparse_product_seconds'] * 1e6:.1f}"
        for line in vendor) + " |")


if __name__ == "__main__":
    main()
