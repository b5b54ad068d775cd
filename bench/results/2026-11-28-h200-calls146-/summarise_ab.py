#!/usr/bin/env python3
"""Summarise the A/B bench JSONs of a device call: csr-adaptive with 16-bit column offsets (default) against
32-bit columns, each with the best cuSPARSE algorithm of its own run. File names: ab-NAME-PREC-BITS.json."""
import glob, json, math, os, sys

rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "ab-*.json"))):
    name, prec, bits = os.path.basename(path)[3:-5].rsplit("-", 2)
    doc = json.load(open(path))
    ours = [r for r in doc["results"] if r["backend"] == "cuda" and r["status"] == "ok"]
    vendor = [r["median_ms"] for r in doc["results"] if r["backend"] == "cusparse" and r["status"] == "ok"]
    if not ours or not vendor:
        continue
    rows.setdefault((name, prec), {})[bits] = (ours[0]["median_ms"], min(vendor), ours[0]["verified"])

print(f"{'matrix':<28} {'prec':<4} {'16-bit ms':>10} {'32-bit ms':>10} {'32/16':>6} {'cuSP ms':>9} {'16 vs cuSP':>10} {'32 vs cuSP':>10}")
ratios = {}
for (name, prec), by_bits in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    if "16" not in by_bits or "32" not in by_bits:
        continue
    (t16, v16, ok16), (t32, v32, ok32) = by_bits["16"], by_bits["32"]
    ratios.setdefault(prec, []).append((t32 / t16, v16 / t16, v32 / t32))
    flag = "" if ok16 and ok32 else "  NOT VERIFIED"
    print(f"{name:<28} {prec:<4} {t16:>10.4f} {t32:>10.4f} {t32 / t16:>6.3f} {v16:>9.4f} {v16 / t16:>9.2f}x {v32 / t32:>9.2f}x{flag}")
for prec, rs in ratios.items():
    g = [math.exp(sum(math.log(r[i]) for r in rs) / len(rs)) for i in range(3)]
    print(f"geomean {prec}: 32/16 {g[0]:.3f}, 16-bit vs cuSPARSE {g[1]:.2f}x, 32-bit vs cuSPARSE {g[2]:.2f}x ({len(rs)} matrices)")
