"""Per unit of `spmv suite` results, each kernel's speed against the best cuSPARSE algorithm of the run that
measured it (used by ab_kernel.py and offline_auto.py)."""
import collections, gzip, json


def read_units(paths):
    """(ratios, records): ratios[(set, precision, matrix)][kernel] = best cuSPARSE time / the kernel's time, a kernel
    measured in several files counting from the last; records[unit] = the unit's last result record. Verified
    single-vector results only; auto is left out."""
    ratios, records = {}, {}
    for path in paths:
        runs = collections.defaultdict(dict)
        for line in (gzip.open if path.endswith(".gz") else open)(path, "rt"):
            r = json.loads(line)
            if r["status"] != "ok" or not r["verified"] or r["k"] != 1 or r["kernel"] == "auto":
                continue
            unit = (r["set"], r["precision"], r["matrix"]["name"])
            runs[unit][(r["backend"], r["kernel"])] = r["median_ms"]
            records[unit] = r
        for unit, times in runs.items():
            vendor = min((t for (b, _), t in times.items() if b == "cusparse"), default=None)
            if vendor:
                ratios.setdefault(unit, {}).update({k: vendor / t for (_, k), t in times.items()})
    return ratios, records
