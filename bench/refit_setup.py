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

Every kernel of ours and cuSPARSE's CSR algorithms upload the same CSR arrays and build their
format from them on the device, so they are charged one upload per non-zero, fitted over all of
their measurements, plus their own build per non-zero. The uploads of one matrix measured for
different kernels spread over 5x (0.03-0.17 s for 90M entries: the host's page cache and
staging, not the kernel), and fitted per kernel that noise outweighed the builds it was meant
to rank. The fixed seconds (small matrices: descriptors, buffers, launches) stay each kernel's
own. cuSPARSE's COO and the dense copy upload other arrays and keep their own fit.
"""
import argparse
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_selector import setup_model  # noqa: E402  (one rule for both scripts)

OWN_UPLOAD = {"cusparse-coo", "dense-cublas"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", nargs="+", help="JSON lines of bench_format_builds")
    parser.add_argument("--model", required=True, help="the model to update in place")
    args = parser.parse_args()

    by_kernel = defaultdict(list)
    shared_uploads = []
    for path in args.builds:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["kernel"].startswith("auto"):
                    continue
                record = {"matrix": {"nnz": r["nnz"]}, "upload_seconds": r["upload_seconds"],
                          "build_seconds": r["analysis_seconds"] + r["device_build_seconds"]}
                by_kernel[(r["backend"], r["kernel"])].append(record)
                if r["kernel"] not in OWN_UPLOAD:
                    shared_uploads.append(record)
    upload_per_nnz, _ = setup_model(shared_uploads, "upload_seconds")
    print(f"the CSR upload: {upload_per_nnz * 1e9:.2f} ns/nnz ({len(shared_uploads)} measurements)", file=sys.stderr)

    with open(args.model) as f:
        model = json.load(f)
    for kernel in model["kernels"]:
        records = by_kernel.get((kernel["backend"], kernel["kernel"]))
        if not records:
            print(f"{kernel['backend']}/{kernel['kernel']}: not measured, setup model kept", file=sys.stderr)
            continue
        for r in records:
            r["setup_seconds"] = r["upload_seconds"] + r["build_seconds"]
        per_nnz, fixed = setup_model(records)
        if kernel["kernel"] not in OWN_UPLOAD:
            per_nnz = upload_per_nnz + setup_model(records, "build_seconds")[0]
        print(f"{kernel['backend']}/{kernel['kernel']}: {kernel['setup_seconds_per_nnz'] * 1e9:.2f} -> "
              f"{per_nnz * 1e9:.2f} ns/nnz, {kernel['setup_seconds_fixed'] * 1e3:.3f} -> {fixed * 1e3:.3f} ms fixed")
        kernel["setup_seconds_per_nnz"] = per_nnz
        kernel["setup_seconds_fixed"] = fixed
    trained_on = model["provenance"].split("; setup: ")[0]  # an earlier refit's files are replaced
    model["provenance"] = trained_on + "; setup: " + "; ".join(os.path.basename(p) for p in args.builds)
    with open(args.model, "w") as f:
        json.dump(model, f, separators=(",", ":"))  # as train_selector.py writes it


if __name__ == "__main__":
    main()
