#!/usr/bin/env python3
"""The measure mode's runs of call 181 (r/measure-BUILD-MATRIX-PRECISION-ROUND.json, `spmv plan --measure --json`):
per run, the measurement's wall time, the kept kernel and each measured candidate's setup and product.
    measure.py call181-results.tgz"""
import json, sys, tarfile

with tarfile.open(sys.argv[1]) as archive:
    members = sorted((m for m in archive.getmembers() if "/measure-" in m.name and m.name.endswith(".json")),
                     key=lambda m: m.name)
    print("| run | measurement s | kept | candidates: setup ms / product ms |")
    print("|---|---:|---|---|")
    for member in members:
        plan = json.load(archive.extractfile(member))
        measured = [c for c in plan["candidates"] if c.get("measured_seconds")]
        print(f"| {member.name.rsplit('/', 1)[-1][8:-5]} | {plan['measurement_seconds']:.3f} | {plan['options']['kernel']} | "
              + ", ".join(f"{c['kernel']} {1e3 * c['measured_setup_seconds']:.0f} / {1e3 * c['measured_seconds']:.3f}"
                          for c in measured) + " |")
