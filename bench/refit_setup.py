#!/usr/bin/env python3
"""Refits the selector's setup model (seconds per non-zero, fixed seconds) from bench_format_builds.

    bench/refit_setup.py --model src/select/models/sm90.json BUILDS.jsonl ...

The trees that predict each kernel's product time are trained from `spmv suite` results
(bench/train_selector.py); the setup of a kernel (upload and build, what a plan pays before
the first product) changes whenever the builds do, and is measured faster by
bench_format_builds: one JSON line per (matrix, precision, kernel) with the seconds of analysis,
upload and device build. This replaces setup_seconds_per_nnz and setup_seconds_fixed of every
kernel measured there, by the rule train_selector.py uses (median per non-zero over matrices of
at least a million non-zeros, median seconds over those below 100 000), and appends the files
to the model's provenance. Kernels not measured keep their setup model.
"""
import argparse
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_selector import setup_model  # noqa: E402  (one rule for both scripts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", nargs="+", help="JSON lines of bench_format_builds")
    parser.add_argument("--model", required=True, help="the model to update in place")
    args = parser.parse_args()

    by_kernel = defaultdict(list)
    for path in args.builds:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["kernel"].startswith("auto"):
                    continue
                setup = r["analysis_seconds"] + r["upload_seconds"] + r["device_build_seconds"]
                by_kernel[(r["backend"], r["kernel"])].append({"matrix": {"nnz": r["nnz"]}, "setup_seconds": setup})

    with open(args.model) as f:
        model = json.load(f)
    for kernel in model["kernels"]:
        records = by_kernel.get((kernel["backend"], kernel["kernel"]))
        if not records:
            print(f"{kernel['backend']}/{kernel['kernel']}: not measured, setup model kept", file=sys.stderr)
            continue
        per_nnz, fixed = setup_model(records)
        print(f"{kernel['backend']}/{kernel['kernel']}: {kernel['setup_seconds_per_nnz'] * 1e9:.2f} -> "
              f"{per_nnz * 1e9:.2f} ns/nnz, {kernel['setup_seconds_fixed'] * 1e3:.3f} -> {fixed * 1e3:.3f} ms fixed")
        kernel["setup_seconds_per_nnz"] = per_nnz
        kernel["setup_seconds_fixed"] = fixed
    model["provenance"] += "; setup: " + "; ".join(os.path.basename(p) for p in args.builds)
    with open(args.model, "w") as f:
        json.dump(model, f, separators=(",", ":"))  # as train_selector.py writes it


if __name__ == "__main__":
    main()
