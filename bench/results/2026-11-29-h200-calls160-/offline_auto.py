#!/usr/bin/env python3
"""What a selector model would choose, looked up in measured times: for every unit of `spmv suite` results that
measured the kernels, `spmv plan` (built with the model) is asked for its choice on a described device, and the
choice's measured time is set against the best cuSPARSE algorithm of the run that measured it. An estimate of
auto without running it: the choice's setup is ignored, and a kernel measured in several runs counts from the
last file that has it. With SPMV `none`, only the best of our kernels per unit is looked up.
    offline_auto.py SPMV|none EXPECTED_PRODUCTS SHARED_MATRICES RESULTS.jsonl[.gz] ...
(device described as the H200 of the results: 132 SMs, 60 MiB L2, the copy bandwidth the results record)"""
import collections, concurrent.futures, json, math, os, subprocess, sys

from suite_ratios import read_units

spmv, products, shared = sys.argv[1], sys.argv[2], sys.argv[3]
ratio, records = read_units(sys.argv[4:])


def plan_arguments(record):
    m = record["matrix"]
    if record["set"] == "family":
        return ["--gen", m["source"], "--copies", str(m["copies"])]
    return [os.path.join(shared, os.path.basename(m["source"])), "--copies", str(m["copies"])]


def choice(unit):
    s, p, _ = unit
    bandwidth = records[unit]["device"].get("copy_bandwidth_gbs", 4238.0)  # older results lack it
    out = subprocess.run([spmv, "plan", *plan_arguments(records[unit]), "--precision", p, "--expected-products",
                          products, "--device-l2", "60mb", "--device-sms", "132", "--device-bandwidth",
                          str(round(bandwidth)), "--json"], capture_output=True, text=True, check=True)
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
