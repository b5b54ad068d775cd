"""Prints call 184's table: per matrix and precision, the best of our kernels with each order against the best
cuSPARSE algorithm on the matrix as it is (and on the reordered one), from the bench JSON files in DIR."""
import json
import pathlib
import sys


def best(path, ours):
    try:
        results = json.loads(path.read_text())["results"]
    except (OSError, ValueError, KeyError):
        return None, None
    times = [(r["median_ms"], r["kernel"]) for r in results
             if r["status"] == "ok" and r["verified"] and r["kernel"].startswith("cusparse") != ours]
    return min(times) if times else (None, None)


folder = pathlib.Path(sys.argv[1])
units = sorted({p.name.rsplit("-", 1)[0] for p in folder.glob("*-none.json")})
print("| unit | cuSPARSE ms (kernel) | ours as is | degree | degree, rows kept | cuSPARSE on degree order |")
print("|---|---|---|---|---|---|")
for unit in units:
    base, base_kernel = best(folder / f"{unit}-none.json", False)
    if base is None:
        print(f"| {unit} | failed | | | | |")
        continue
    cells = []
    for order in ("none", "degree", "cols"):
        t, k = best(folder / f"{unit}-{order}.json", True)
        cells.append(f"{base / t:.2f}x ({k}, {t:.4f})" if t else "failed")
    reordered_cusparse, _ = best(folder / f"{unit}-degree.json", False)
    cusparse_cell = f"{reordered_cusparse:.4f}" if reordered_cusparse else "failed"
    print(f"| {unit} | {base:.4f} ({base_kernel}) | " + " | ".join(cells) + f" | {cusparse_cell} |")
