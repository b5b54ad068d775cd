#!/usr/bin/env python3
"""What a selector model would choose, looked up in measured times: for every unit of `spmv suite` results that
measured the kernels, `spmv plan` (built with the model) is asked for its choice on a described device, and the
choice's measured time is set against the best cuSPARSE algorithm of the run that measured it. An estimate of
auto without running it: the choice's setup is ignored, and a kernel measured in several runs counts from the
last file that has it. With SPMV `none`, only the best of our kernels per unit is looked up.
    offline_auto.py SPMV|none EXPECTED_PRODUCTS SHARED_MATRICES RESULTS.jsonl[.gz] ...
(device described as the H200 of the results: 132 SMs, 60 MiB L2, the copy bandwidth the results record)"""
import collections, concurrent.futures, gzip, json, math, os, subprocess, sys

spmv, products, shared = sys.argv[1], sys.argv[2], sys.argv[3]
ratio = {}       # (set, precision, name) -> {kernel: best cuSPARSE / kernel, from the last file measuring it}
source = {}      # (set, precision, name) -> (plan arguments)
bandwidth = {}
for path in sys.argv[4:]:
    runs = collections.defaultdict(dict)
    for line in (gzip.open if path.endswith(".gz") else open)(path, "rt"):
        r = json.loads(line)
        if r["status"] != "ok" or not r["verified"] or r["k"] != 1 or r["kernel"] == "auto":
            continue
        unit = (r["set"], r["precision"], r["matrix"]["name"])
        runs[unit][(r["backend"], r["kernel"])] = r["median_ms"]
        m = r["matrix"]
        where = m["source"] if r["set"] == "family" else os.path.join(shared, os.path.basename(m["source"]))
        source[unit] = (["--gen", where] if r["set"] == "family" else [where]) + ["--copies", str(m["copies"])]
        bandwidth[unit] = r["device"].get("copy_bandwidth_gbs", bandwidth.get(unit, 4238.0))
    for unit, times in runs.items():
        vendor = min((t for (b, k), t in times.items() if b == "cusparse"), default=None)
        if vendor:
            ratio.setdefault(unit, {}).update({k: vendor / t for (b, k), t in times.items()})


def choice(unit):
    s, p, _ = unit
    out = subprocess.run([spmv, "plan", *source[unit], "--precision", p, "--expected-products", products,
                          "--device-l2", "60mb", "--device-sms", "132", "--device-bandwidth",
                          str(round(bandwidth[unit])), "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["options"]["kernel"]


units = sorted(u for u in ratio if "cusparse-csr-alg1" in ratio[u] and len(ratio[u]) > 8)
if spmv == "none":
    chosen = {u: max((k for k in ratio[u] if not k.startswith("cusparse")), key=ratio[u].get) for u in units}
else:
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        chosen = dict(zip(units, pool.map(choice, units)))
groups = collections.defaultdict(list)
for u in units:
    groups[u[:2]].append((u[2], chosen[u], ratio[u].get(chosen[u])))
for (s, p), rows in sorted(groups.items()):
    known = [r for r in rows if r[2]]
    g = math.exp(sum(math.log(r[2]) for r in known) / len(known))
    low = sorted((r for r in known if r[2] < 0.95), key=lambda r: r[2])
    print(f"{s} {p}: {len(known)} of {len(rows)} choices measured, {g:.3f}x the best cuSPARSE; below 0.95x: "
          + (", ".join(f"{m} {k} {v:.2f}x" for m, k, v in low) or "none"))
