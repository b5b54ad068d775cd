#!/usr/bin/env python3
"""Summarise call 147: csr-adaptive per block shape against the best cuSPARSE algorithm of the same `spmv bench`
run. File names: ab-NAME-PREC-SHAPE.json, SHAPE = BLOCKxITEMSvWIDTH."""
import glob, json, math, os, sys

rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "ab-*.json"))):
    name, prec, shape = os.path.basename(path)[3:-5].rsplit("-", 2)
    doc = json.load(open(path))
    ours = [r for r in doc["results"] if r["backend"] == "cuda" and r["status"] == "ok" and r["verified"]]
    vendor = [r["median_ms"] for r in doc["results"] if r["backend"] == "cusparse" and r["status"] == "ok"]
    if ours and vendor:
        rows.setdefault((prec, name), {})[shape] = (ours[0]["median_ms"], min(vendor))

shapes = sorted({s for by in rows.values() for s in by}, key=lambda s: tuple(map(int, s.replace("v", "x").split("x"))))
print(f"{'prec':<4} {'matrix':<30} " + " ".join(f"{s:>15}" for s in shapes))
logs = {}
for (prec, name), by in sorted(rows.items()):
    if len(by) != len(shapes):
        continue
    cells = []
    for s in shapes:
        ours, vendor = by[s]
        logs.setdefault((prec, s), []).append(math.log(vendor / ours))
        cells.append(f"{ours:.4f} {vendor / ours:.2f}x")
    print(f"{prec:<4} {name:<30} " + " ".join(f"{c:>15}" for c in cells))
for prec in sorted({p for p, _ in logs}):
    print(f"geomean {prec} vs cuSPARSE: " +
          ", ".join(f"{s} {math.exp(sum(v) / len(v)):.3f}x" for (p, s), v in sorted(logs.items()) if p == prec))
