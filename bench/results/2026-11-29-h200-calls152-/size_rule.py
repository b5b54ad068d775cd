#!/usr/bin/env python3
"""csr-adaptive's items per thread chosen by the matrix's size (halved, to 2 at least, while fewer than T row
blocks of block_size x items per SM; 132 SMs), against the best cuSPARSE algorithm of the same `spmv bench` run,
geomean per threshold T, from call 152's results (small matrices) and call 147's (large, replicated).
    size_rule.py CALL152_RESULTS.tgz CALL147_RESULTS.tgz"""
import collections, io, json, math, os, sys, tarfile

SMS, BLOCK = 132, 128


def ratios(archive):
    """{(precision, matrix): {shape: best cuSPARSE / csr-adaptive}}, {matrix: max(nnz, rows)}"""
    by_unit, work = collections.defaultdict(dict), {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            name = os.path.basename(member.name)
            if not (name.startswith("ab-") and name.endswith(".json")):
                continue
            matrix, precision, shape = name[3:-5].rsplit("-", 2)
            doc = json.load(io.TextIOWrapper(tar.extractfile(member)))
            ours = [r["median_ms"] for r in doc["results"] if r["backend"] == "cuda" and r["status"] == "ok"
                    and r["verified"]]
            vendor = [r["median_ms"] for r in doc["results"] if r["backend"] == "cusparse" and r["status"] == "ok"]
            if ours and vendor:
                by_unit[(precision, matrix)][shape] = min(vendor) / ours[0]
            work[matrix] = max(doc["matrix"]["nnz"], doc["matrix"]["rows"])
    return by_unit, work


def chosen_shape(work, precision, threshold):
    items = 8 if precision == "f32" else 4
    while items > 2 and work / (BLOCK * items) / SMS < threshold:
        items //= 2
    return f"{BLOCK}x{items}v{min(items, 4)}"


sets = [("small (call 152)", *ratios(sys.argv[1])), ("large (call 147)", *ratios(sys.argv[2]))]
for threshold in (1, 2, 4, 8, 16, 32, 64):
    cells = []
    for label, by_unit, work in sets:
        for precision in ("f32", "f64"):
            logs = [math.log(shapes[chosen_shape(work[m], p, threshold)])
                    for (p, m), shapes in by_unit.items() if p == precision]
            cells.append(f"{label} {precision} {math.exp(sum(logs) / len(logs)):.3f}x")
    print(f"T = {threshold:>2}: " + ", ".join(cells))
