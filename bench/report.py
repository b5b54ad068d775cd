#!/usr/bin/env python3
"""Writes docs/benchmarks.md and its plots from measured results.

    report.py RESULTS [--micro FILE] [--spmm DIR] [--ellrt FILE] [--out docs/benchmarks.md]
              [--images docs/img] [--notes docs/benchmarks-notes.md]
    report.py --summary RESULTS

RESULTS is the folder of `spmv suite` (results.jsonl, one JSON object per
(matrix, kernel), and suite.json, the plan of its last run). Beside it, each
with its default in RESULTS: --micro, the JSON of `spmv micro` (micro.json);
--spmm, the folder of scripts/spmm-report.sh (spmm/, one `spmv bench --json`
document per SpMM case); --ellrt, the JSON lines of bench_ellrt_model
(ellrt_model.jsonl). Everything in the report comes from these files: the
date, the GPU and the versions too; a section whose input is missing says so
in one line. Sections that cannot be generated (hand-written notes) are
copied from the --notes file. --summary prints only the table of the best
kernel against the best cuSPARSE algorithm per matrix, and the geometric
means, on stdout.

Fields read beyond what `spmv suite` and `spmv bench` write today (the BRO
section): a result row may carry "reordering" ("none", "rcm", "amd", "bar";
absent means none; a reordered row is its own unit, its matrix named
"NAME [rcm]") and, for the kernels named "bro-*", "compression": {"eta",
"kappa" (index data against the uncompressed format the BRO format extends),
"eta_vs_csr", "kappa_vs_csr", "bytes_per_nonzero",
"effective_arithmetic_intensity"}; bytes per non-zero falls back to
matrix_bytes / nnz.

Needs Python 3 and matplotlib (Debian: python3-matplotlib) for the plots.
"""
import argparse
import json
import math
import os
import statistics
import sys
from collections import defaultdict

SET_ORDER = ["real", "replicated", "family"]
SET_TITLES = {
    "real": "Real matrices as they are",
    "replicated": "Real matrices replicated block-diagonally (I_k \u2297 A)",
    "family": "Generated families",
}
PRECISIONS = ["f64", "f32"]


# ----------------------------------------------------------------- data


def read_results(results_dir):
    """The result lines of RESULTS/results.jsonl, none when the suite did not
    run."""
    return read_json_lines(os.path.join(results_dir, "results.jsonl"))


def read_json_lines(path):
    """The objects of a JSON-lines file (none when it does not exist); a last
    line cut short by an interrupted run is ignored, as the suite does."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            rows.append(json.loads(text))
        except json.JSONDecodeError as e:
            if number == len(lines):
                break
            sys.exit(f"{path}:{number}: not a result line: {e}")
    return rows


def read_json(path):
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Unit:
    """One matrix of one set in one precision (and k): its rows, the best of
    our kernels, the best cuSPARSE algorithm and the backend's own choice."""

    def __init__(self, key, rows):
        self.set, self.matrix, self.precision, self.k = key
        self.rows = rows
        self.info = rows[0]["matrix"]
        ok = [r for r in rows if r["status"] == "ok"]
        self.ours = [r for r in ok if r["backend"] != "cusparse" and r["kernel"] != "auto"]
        self.vendor = [r for r in ok if r["backend"] == "cusparse"]
        self.best = min(self.ours, key=lambda r: r["median_ms"], default=None)
        self.best_vendor = min(self.vendor, key=lambda r: r["median_ms"], default=None)
        self.auto = next((r for r in ok if r["kernel"] == "auto"), None)
        self.failed = [r for r in rows if r["status"] == "FAILED"]

    @property
    def speedup(self):
        if self.best and self.best_vendor:
            return self.best_vendor["median_ms"] / self.best["median_ms"]
        return None

    @property
    def auto_speedup(self):
        if self.auto and self.best_vendor:
            return self.best_vendor["median_ms"] / self.auto["median_ms"]
        return None

    @property
    def auto_share_of_ideal(self):
        """Best time / the default choice's time: 1 when the default is the best."""
        if self.auto and self.best:
            return min(1.0, self.best["median_ms"] / self.auto["median_ms"])
        return None

    @property
    def bandwidth_scale(self):
        """Data beyond the cache: the figures measure memory, not the L2."""
        in_cache = self.info.get("in_cache")
        return in_cache is False or (in_cache is None and self.set != "real")


def read_bench_cases(cases_dir):
    """(case name, bench document) for each JSON file of a cases folder
    (scripts/spmm-report.sh, scripts/bro-report.sh)."""
    if not cases_dir or not os.path.isdir(cases_dir):
        return []
    return [(name[:-len(".json")], read_json(os.path.join(cases_dir, name)))
            for name in sorted(os.listdir(cases_dir)) if name.endswith(".json")]


def bench_case_rows(cases, set_name):
    """Suite-like result rows from (case, `spmv bench --json` document) pairs,
    so that a case's results form one unit of set `set_name`."""
    rows = []
    for _, doc in cases:
        matrix = dict(doc["matrix"])
        # A file's name without its extensions, or a generator spec's kind.
        source = matrix.get("source", "")
        is_file = os.sep in source or "." in source.split(":")[0]
        matrix.setdefault("name", os.path.basename(source).split(".")[0] if is_file
                          else source.split(":")[0])
        for r in doc.get("results", []):
            rows.append(dict(r, set=set_name, matrix=matrix, precision=doc["precision"],
                             k=doc["k"], reordering=doc.get("reordering", "none")))
    return rows


def unit_matrix_name(row):
    """The matrix's name, with its reordering when the row records one."""
    reordering = row.get("reordering") or "none"
    name = row["matrix"]["name"]
    return name if reordering == "none" else f"{name} [{reordering}]"


def units_of(rows):
    grouped = defaultdict(list)
    for r in rows:
        grouped[(r["set"], unit_matrix_name(r), r["precision"], r["k"])].append(r)
    units = [Unit(key, group) for key, group in grouped.items()]
    order = {name: i for i, name in enumerate(SET_ORDER)}
    units.sort(key=lambda u: (order.get(u.set, 99), u.matrix.lower(), PRECISIONS.index(u.precision)
                              if u.precision in PRECISIONS else 9, u.k))
    return units


def groups(units, keep=lambda u: True):
    """(set, precision, units) for each set and precision that has SpMV
    units passing `keep`, in report order."""
    for s in SET_ORDER:
        for p in PRECISIONS:
            group = [u for u in units if u.set == s and u.precision == p and u.k == 1 and keep(u)]
            if group:
                yield s, p, group


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# ----------------------------------------------------------- formatting


def fmt_x(value):
    return "-" if value is None else f"{value:.2f}x"


def fmt_pct(value):
    return "-" if value is None else f"{value:.0f}%"


def fmt_ms(value):
    return "-" if value is None else f"{value:.4g}"


def fmt_num(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def params_text(row):
    return ",".join(f"{k}={v}" for k, v in sorted(row.get("params", {}).items()))


def kernel_text(row, with_params=False):
    if row is None:
        return "-"
    name = row["kernel"]
    if name == "auto" and row.get("chosen_kernel"):
        name = f"auto ({row['chosen_kernel']})"
    if with_params and params_text(row):
        name += f" ({params_text(row)})"
    return name


def pct_copy(row):
    return None if row is None else row.get("percent_of_copy_bandwidth")


def table(header, rows, align=None):
    align = align or ["---"] * len(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def mib(value):
    return f"{value / 2**20:.0f} MiB"


# ------------------------------------------------------------- sections


def report_device(rows, micro, spmm_cases):
    """The GPU the results were measured on, from whichever input has it."""
    candidates = [rows[0] if rows else None, micro] + [d for _, d in spmm_cases]
    return next((c["device"] for c in candidates if c and c.get("device")), None)


def setup_section(rows, suite, device):
    out = ["## Setup", ""]
    if device:
        out.append(f"- GPU: {device['name']}, {device['multiprocessors']} SMs, "
                   f"{mib(device['l2_bytes'])} L2, {device['memory_bytes'] / 2**30:.0f} GiB")
        out.append(f"- CUDA runtime {device['cuda_runtime_version']}, driver "
                   f"{device['cuda_driver_version']}, cuSPARSE {device['cusparse_version']}")
    elif rows:
        out.append(f"- Host run (backend {rows[0]['backend']}, {rows[0]['host_threads']} threads): "
                   "no GPU, no cuSPARSE baseline")
    if not rows:
        out.append("- The suite (`spmv suite`): not measured in this run (no results.jsonl)")
        return "\n".join(out)
    first = rows[0]
    times = sorted(r["time"] for r in rows)
    copy = [r["copy_bandwidth_gbs"] for r in rows if r.get("copy_bandwidth_gbs")]
    if copy:
        out.append(f"- Device-to-device copy bandwidth (read + write), measured by each run: "
                   f"{min(copy):.0f}-{max(copy):.0f} GB/s; '% copy' columns divide a kernel's "
                   "GB/s (compulsory bytes: the matrix arrays, x and y once) by it")
    out.append(f"- Measured {times[0][:10]} to {times[-1][:10]} (UTC); median of "
               f"{first['runs']} timed runs after {first['warmup']} warm-up, "
               f"{'caches flushed before each' if first['flush_caches'] else 'caches not flushed'}"
               "; every result verified against the reference before it was timed")
    if suite:
        out.append(f"- Replicated set: copies until the product's data is "
                   f"{suite['replicate_to']:g}x the cache ({human_bytes(suite['cache_bytes'])}) "
                   "or more")
    return "\n".join(out)


def coverage_section(units, suite):
    out = ["## Coverage", ""]
    by_set = defaultdict(lambda: defaultdict(int))
    for u in units:
        by_set[u.set][u.precision] += 1
    kernels = sorted({f"{r['backend']}/{r['kernel']}" for u in units for r in u.rows})
    rows = [[SET_TITLES.get(s, s)] + [by_set[s].get(p, 0) for p in PRECISIONS]
            for s in SET_ORDER if s in by_set]
    out.append(table(["set"] + [f"matrices ({p})" for p in PRECISIONS], rows,
                     ["---"] + ["---:"] * len(PRECISIONS)))
    out.append("")
    out.append(f"{len(kernels)} kernels per matrix: " + ", ".join(f"`{k}`" for k in kernels) + ".")
    if suite:
        measured = {(u.set, u.matrix, u.precision, u.k) for u in units}
        missing = [x for x in suite["units"]
                   if (x["set"], x["matrix"], x["precision"], x["k"]) not in measured]
        if missing:
            out.append("")
            out.append(f"Not measured ({suite['status']}; rerunning `spmv suite` with the same "
                       f"--out continues): {len(missing)} units, e.g. " +
                       ", ".join(f"{x['set']}/{x['matrix']} {x['precision']}" for x in missing[:8]) +
                       ".")
    return "\n".join(out)


def summary_section(units):
    out = ["## Summary", "",
           "Speed-up: the best cuSPARSE algorithm's median time over our best kernel's (per matrix, "
           "then the geometric mean). 'auto' is the kernel `plan()` picks when none is forced.", ""]
    rows = []
    for s, p, group in groups(units):
        speedups = [u.speedup for u in group if u.speedup]
        rows.append([
            SET_TITLES.get(s, s), p, len(group), fmt_x(geomean(speedups)),
            fmt_x(min(speedups, default=None)), fmt_x(max(speedups, default=None)),
            f"{sum(1 for x in speedups if x > 1)}/{len(speedups)}",
            fmt_x(geomean([u.auto_speedup for u in group])),
            fmt_pct(median([pct_copy(u.best) for u in group])),
            fmt_pct(median([pct_copy(u.best_vendor) for u in group]))])
    out.append(table(["set", "prec", "matrices", "speed-up (geomean)", "min", "max",
                      "faster than cuSPARSE", "auto vs cuSPARSE", "median % copy (ours)",
                      "median % copy (cuSPARSE)"], rows,
                     ["---", "---"] + ["---:"] * 8))
    return "\n".join(out)


def kernel_section(units):
    out = ["## Kernels", "",
           "Per kernel, over the matrices measured at memory-bandwidth scale (replicated and "
           "generated, data beyond the L2): how often it is the fastest of ours, its geometric-mean "
           "speed-up over the best cuSPARSE algorithm, its median share of the copy bandwidth; "
           "then failures and refusals over every matrix.", ""]
    scale = [u for u in units if u.bandwidth_scale and u.k == 1]
    names = sorted({(r["backend"], r["kernel"]) for u in units for r in u.rows})
    rows = []
    for backend, kernel in names:
        row = [f"{backend}/{kernel}"]
        for p in PRECISIONS:
            group = [u for u in scale if u.precision == p]
            mine = [(u, next((r for r in u.rows if r["backend"] == backend and r["kernel"] == kernel
                              and r["status"] == "ok"), None)) for u in group]
            mine = [(u, r) for u, r in mine if r]
            wins = sum(1 for u, r in mine if u.best is r)
            speedups = [u.best_vendor["median_ms"] / r["median_ms"] for u, r in mine if u.best_vendor]
            row += [f"{wins}/{len(group)}" if backend != "cusparse" and kernel != "auto" else "-",
                    fmt_x(geomean(speedups)), fmt_pct(median([pct_copy(r) for _, r in mine]))]
        every = [r for u in units for r in u.rows if r["backend"] == backend and r["kernel"] == kernel]
        row += [sum(r["status"] == "FAILED" for r in every), sum(r["status"] == "skipped" for r in every)]
        rows.append(row)
    header = ["kernel"]
    for p in PRECISIONS:
        header += [f"{p} best", f"{p} vs cuSPARSE", f"{p} % copy"]
    out.append(table(header + ["failed", "refused"], rows, ["---"] + ["---:"] * (len(header) + 1)))
    return "\n".join(out)


def set_section(units, set_name):
    group = [u for u in units if u.set == set_name and u.k == 1]
    if not group:
        return ""
    out = [f"## {SET_TITLES.get(set_name, set_name)}", ""]
    if set_name == "real":
        out.append("Rows marked *in L2* have their product's data (CSR arrays, x, y) within the L2: "
                   "their times are launch- and cache-bound, not memory-bound, even with the cache "
                   "flushed before each run.")
    elif set_name == "replicated":
        out.append("Each matrix as I_k \u2297 A: k copies along the diagonal, the structure of A at "
                   "memory-bandwidth scale.")
    else:
        out.append("The generated families of `bench/families.txt`, at sizes that fill the GPU.")
    out.append("")
    matrices = sorted({u.matrix for u in group}, key=str.lower)
    rows = []
    for m in matrices:
        per_p = {u.precision: u for u in group if u.matrix == m}
        any_unit = next(iter(per_p.values()))
        info = any_unit.info
        row = [m, info["rows"], info["nnz"], fmt_num(info["mean_row_length"])]
        if set_name == "real":
            row.append("in L2" if info.get("in_cache") else "")
        if set_name == "replicated":
            row.append(info["copies"])
        for p in PRECISIONS:
            u = per_p.get(p)
            if not u:
                row += ["-"] * 4
                continue
            vendor = (f"{u.best_vendor['kernel']} {fmt_pct(pct_copy(u.best_vendor))}"
                      if u.best_vendor else "-")
            row += [kernel_text(u.best), fmt_pct(pct_copy(u.best)), vendor, fmt_x(u.speedup)]
        rows.append(row)
    header = ["matrix", "rows", "nnz", "mean row"]
    header += {"real": ["L2"], "replicated": ["k"]}.get(set_name, [])
    for p in PRECISIONS:
        header += [f"{p} best", "% copy", "best cuSPARSE, % copy", "speed-up"]
    out.append(table(header, rows, ["---"] + ["---:"] * 3 + ["---"] * (len(header) - 4)))
    return "\n".join(out)


def ideal_section(units):
    out = ["## Ideal vs chosen", "",
           "'auto' is the kernel `plan()` chooses when none is forced; the ideal is the fastest "
           "kernel measured on that matrix. Share of ideal = ideal time / auto time.", ""]
    rows = []
    for s, p, group in groups(units, lambda u: u.auto and u.best):
        hits = sum(1 for u in group if u.auto["chosen_kernel"] == u.best["kernel"])
        within = sum(1 for u in group if u.auto_share_of_ideal >= 0.9)
        rows.append([SET_TITLES.get(s, s), p, len(group),
                     fmt_pct(100 * geomean([u.auto_share_of_ideal for u in group])),
                     fmt_pct(100 * min(u.auto_share_of_ideal for u in group)),
                     f"{hits}/{len(group)}", f"{within}/{len(group)}"])
    out.append(table(["set", "prec", "matrices", "share of ideal (geomean)", "worst",
                      "auto's kernel is the fastest", "within 10%"], rows,
                     ["---", "---"] + ["---:"] * 5))
    worst = sorted((u for u in units if u.auto and u.best and u.auto_share_of_ideal < 0.99),
                   key=lambda u: u.auto_share_of_ideal)[:10]
    if worst:
        out += ["", "The largest losses of the default choice:", ""]
        out.append(table(["set", "matrix", "prec", "mean row", "auto chose", "auto ms", "ideal",
                          "ideal ms", "share"],
                         [[u.set, u.matrix, u.precision, fmt_num(u.info["mean_row_length"]),
                           u.auto["chosen_kernel"], fmt_ms(u.auto["median_ms"]),
                           kernel_text(u.best, True), fmt_ms(u.best["median_ms"]),
                           fmt_pct(100 * u.auto_share_of_ideal)] for u in worst]))
    return "\n".join(out)


def transfer_section(units):
    group = [u for u in units if u.best and u.best.get("host_operand_ms")]
    if not group:
        return ""
    out = ["## Effective performance with host transfers", "",
           "The thesis's method (El Zein 2009, 4.3.3): the caller's x is in host memory, in "
           "double; it is converted to the value type (f32 runs), copied to the GPU, multiplied, "
           "and the result copied back, all timed by the host clock. Kernel-only is the same "
           "product on operands already on the GPU. Best kernel per matrix; medians over matrices.",
           ""]
    rows = []
    for s, p, g in groups(group):
        kernel = [u.best["gflops"] for u in g]
        effective = [u.best["host_operand_gflops"] for u in g]
        share = [u.best["host_transfer_ms"] / u.best["host_operand_ms"] for u in g]
        rows.append([SET_TITLES.get(s, s), p, len(g), fmt_num(median(kernel)),
                     fmt_num(median(effective)), fmt_x(median([a / b for a, b in
                                                               zip(kernel, effective)])),
                     fmt_pct(100 * median(share))])
    out.append(table(["set", "prec", "matrices", "kernel-only GFLOP/s", "with transfers GFLOP/s",
                      "slow-down", "time in copies"], rows, ["---", "---"] + ["---:"] * 5))
    fam = [u for u in group if u.set == "family"]
    if fam:
        out += ["", table(["family", "prec", "kernel", "kernel-only ms", "with transfers ms",
                           "copies ms"],
                          [[u.matrix, u.precision, u.best["kernel"], fmt_ms(u.best["median_ms"]),
                            fmt_ms(u.best["host_operand_ms"]), fmt_ms(u.best["host_transfer_ms"])]
                           for u in fam])]
    return "\n".join(out)


def failures_section(units):
    failed = [(u, r) for u in units for r in u.failed]
    if not failed:
        return "## Failures\n\nNone: every measured kernel's result matched the reference."
    out = ["## Failures", "", f"{len(failed)} results failed (wrong result or device error):", ""]
    out.append(table(["set", "matrix", "prec", "kernel", "why"],
                     [[u.set, u.matrix, u.precision, f"{r['backend']}/{r['kernel']}",
                       r["message"].replace("|", "/")[:160]] for u, r in failed]))
    return "\n".join(out)


def not_measured(title, what):
    return f"## {title}\n\nNot measured in this run ({what})."


# ---------------------------------------------------------------- formats

# The formats of issue 4 (and the BRO formats) in table order; others follow.
FORMAT_ORDER = ["csr", "coo", "ell", "ellpack-r", "hyb", "dia", "sell-c-sigma", "blocked",
                "segmented", "dense", "bro-ell", "bro-coo", "bro-hyb"]


def format_wins_section(units):
    """Per family and precision, the fastest kernel of each format against the
    fastest of all (cuSPARSE as one more column)."""
    title = "Which format wins on which family"
    family = [u for u in units if u.set == "family" and u.k == 1 and u.best]
    if not family:
        return not_measured(title, "no generated family in the suite results")
    out = [f"## {title}", "",
           "Each cell: the fastest kernel of that format on that family, as its time over the "
           "fastest kernel of all (1.00 = the winner, in bold; 1.50 = takes 1.5x as long); "
           "'refused': every kernel of the format refused the matrix (padding or size limit); "
           "'-': not measured.", ""]
    # A row refused at plan time has no format: take its kernel's from other rows.
    kernel_formats = {r["kernel"]: r["format"] for u in units for r in u.rows if r.get("format")}

    def format_of(row):
        return row.get("format") or kernel_formats.get(row["kernel"], row["kernel"])

    present = {format_of(r) for u in family for r in u.rows
               if r["backend"] != "cusparse" and r["kernel"] != "auto"}
    formats = [f for f in FORMAT_ORDER if f in present] + sorted(present - set(FORMAT_ORDER))
    for p in PRECISIONS:
        group = sorted((u for u in family if u.precision == p), key=lambda u: u.matrix.lower())
        if not group:
            continue
        rows = []
        for u in group:
            fastest = min([u.best] + ([u.best_vendor] if u.best_vendor else []),
                          key=lambda r: r["median_ms"])
            cells = []
            for f in formats + ["cusparse"]:
                mine = [r for r in u.rows if r["kernel"] != "auto" and (
                    r["backend"] == "cusparse" if f == "cusparse"
                    else r["backend"] != "cusparse" and format_of(r) == f)]
                ok = [r for r in mine if r["status"] == "ok"]
                if ok:
                    ratio = min(r["median_ms"] for r in ok) / fastest["median_ms"]
                    cells.append(f"**{ratio:.2f}**" if ratio <= 1.0 else f"{ratio:.2f}")
                else:
                    cells.append("refused" if any(r["status"] == "skipped" for r in mine) else "-")
            rows.append([u.matrix, kernel_text(fastest)] + cells)
        out += [f"{p}:", "", table(["family", "fastest kernel"] + formats + ["cuSPARSE"], rows,
                                   ["---", "---"] + ["---:"] * (len(formats) + 1)), ""]
    return "\n".join(out).rstrip()


def inspection_section(units):
    """Baskaran's blocked format: its run-time inspection (the format build)
    as a multiple of one of its own products."""
    title = "Blocked format: inspection time"
    measured = []
    for u in units:
        if u.k != 1:
            continue
        row = next((r for r in u.rows if r["kernel"] == "blocked" and r["status"] == "ok" and
                    r["median_ms"] > 0), None)
        if row:
            multiple = row.get("build_in_products")
            if multiple is None:
                multiple = row["build_seconds"] / (row["median_ms"] * 1e-3)
            measured.append((u, row, multiple))
    if not measured:
        return not_measured(title, "no ok result of the blocked kernel")
    out = [f"## {title}", "",
           "Baskaran & Bordawekar's blocked format is found by inspecting the matrix at run time "
           "(their paper: about 15 SpMVs' worth). Here: the format's build on the host (inspection "
           "and conversion) over one product of the blocked kernel on the GPU.", ""]
    rows = []
    for s in SET_ORDER:
        for p in PRECISIONS:
            values = [m for u, _, m in measured if u.set == s and u.precision == p]
            if values:
                rows.append([SET_TITLES.get(s, s), p, len(values), fmt_num(median(values)),
                             fmt_num(min(values)), fmt_num(max(values))])
    out.append(table(["set", "prec", "matrices", "build / product (median)", "min", "max"], rows,
                     ["---", "---"] + ["---:"] * 4))
    fam = [(u, r, m) for u, r, m in measured if u.set == "family"]
    if fam:
        out += ["", table(["family", "prec", "build ms", "product ms", "build / product"],
                          [[u.matrix, u.precision, fmt_ms(r["build_seconds"] * 1e3),
                            fmt_ms(r["median_ms"]), fmt_num(m)] for u, r, m in fam],
                          ["---", "---", "---:", "---:", "---:"])]
    return "\n".join(out)


def ellrt_model_section(lines):
    title = "ELLR-T configuration model vs search"
    if not lines:
        return not_measured(title, "no output of bench_ellrt_model")
    first = lines[0]
    out = [f"## {title}", "",
           f"bench_ellrt_model on {first['device']}: ellr-t timed for every T in 1..32 and block "
           f"size in 64..512 (median of {first['runs']} runs, L2 flushed before each, every "
           "configuration verified first), against the configuration the model chooses. Target: "
           f"the model's time within {100 * (first['target_ratio'] - 1):.0f}% of the best.", ""]

    def config(t):
        return "-" if not t else f"T={t['threads_per_row']} BS={t['block_size']}"

    def ms(t):
        return "-" if not t or t.get("median_ms") is None else fmt_ms(t["median_ms"])

    rows = []
    for line in lines:
        verdict = {"ok": "yes" if line["within_target"] else "**no**"}.get(line["status"],
                                                                           line["status"])
        rows.append([line["name"], line["precision"], line["rows"], line["nnz"],
                     fmt_num(line["mean_row_length"]), config(line["model"]), ms(line["model"]),
                     config(line["best"]), ms(line["best"]), fmt_x(line["model_over_best"]),
                     verdict])
    out.append(table(["matrix", "prec", "rows", "nnz", "mean row", "model", "ms", "best by search",
                      "ms", "model / best", "within target"], rows,
                     ["---", "---", "---:", "---:", "---:", "---", "---:", "---", "---:", "---:",
                      "---"]))
    compared = [x for x in lines if x["model_over_best"] is not None]
    if compared:
        within = sum(1 for x in compared if x["within_target"])
        worst = max(compared, key=lambda x: x["model_over_best"])
        out += ["", f"Within the target on {within} of {len(compared)} matrices; the worst, "
                    f"{worst['name']} {worst['precision']}, at {fmt_x(worst['model_over_best'])} "
                    "of the best time."]
    refused = [x["name"] for x in lines if x["status"] == "refused"]
    if refused:
        out += ["", "ELLPACK-R refused (padding beyond its limit): " + ", ".join(sorted(set(refused)))
                + "."]
    return "\n".join(out)


# -------------------------------------------------------------------- BRO

# The uncompressed format each BRO kernel extends.
BRO_BASE = {"bro-ell": "ell", "bro-coo": "coo", "bro-hyb": "hyb"}


def bro_section(units):
    title = "BRO index compression"
    bro = [(u, r) for u in units if u.k == 1 for r in u.rows
           if r["kernel"].startswith("bro-") and r["status"] == "ok"]
    if not bro:
        return not_measured(title, "no ok result of a bro-* kernel")
    out = [f"## {title}", "",
           "Tang et al. 2013: eta = 1 - C/O (space savings of the index data against the "
           "uncompressed format the BRO format extends), kappa = O/C; bytes per non-zero of the "
           "whole format (what one product reads of A). Times in ms; 'vs base' is the uncompressed "
           "format's time over the BRO kernel's, 'vs cuSPARSE' the best cuSPARSE algorithm's. A "
           "reordered matrix is named NAME [reordering].", ""]

    def best_of(u, keep):
        ok = [r for r in u.rows if r["status"] == "ok" and keep(r)]
        return min(ok, key=lambda r: r["median_ms"], default=None)

    def time_of(row):
        return "-" if row is None else fmt_ms(row["median_ms"])

    rows = []
    for u, r in bro:
        compression = r.get("compression") or {}
        bytes_per_nnz = compression.get("bytes_per_nonzero")
        if bytes_per_nnz is None and u.info.get("nnz"):
            bytes_per_nnz = r["matrix_bytes"] / u.info["nnz"]
        base = best_of(u, lambda x: x["kernel"] == BRO_BASE.get(r["kernel"]))
        csr = best_of(u, lambda x: x["backend"] != "cusparse" and x.get("format") == "csr"
                      and x["kernel"] != "auto")
        vs_base = base["median_ms"] / r["median_ms"] if base else None
        vs_vendor = u.best_vendor["median_ms"] / r["median_ms"] if u.best_vendor else None
        rows.append([u.set, u.matrix, u.precision, r["kernel"], fmt_num(compression.get("eta"), 2),
                     fmt_num(compression.get("kappa"), 2), fmt_num(bytes_per_nnz, 2),
                     time_of(r), fmt_pct(pct_copy(r)), time_of(best_of(u, lambda x: x["kernel"] == "ell")),
                     time_of(best_of(u, lambda x: x["kernel"] == "hyb")), time_of(csr),
                     time_of(u.best_vendor), fmt_x(vs_base), fmt_x(vs_vendor)])
    out.append(table(["set", "matrix", "prec", "kernel", "eta", "kappa", "bytes/nnz", "ms",
                      "% copy", "ell ms", "hyb ms", "best csr ms", "best cuSPARSE ms", "vs base",
                      "vs cuSPARSE"], rows,
                     ["---"] * 4 + ["---:"] * 11))
    return "\n".join(out)


# ------------------------------------------------------------------- SpMM


def matrix_label(document):
    """'stencil27:n=100' -> 'stencil27 n=100'; a file path -> its name."""
    source = document["matrix"]["source"]
    return source.replace(":", " ", 1) if ":" in source else os.path.basename(source)


def spmm_in_core_section(cases):
    title = "SpMM in core"
    documents = [d for _, d in cases if d and d.get("operation") == "spmm" and
                 "out_of_core" not in d]
    if not documents:
        return not_measured(title, "no output of scripts/spmm-report.sh")
    documents.sort(key=lambda d: (matrix_label(d), d["layout"], d["k"],
                                  PRECISIONS.index(d["precision"]) if d["precision"] in PRECISIONS
                                  else 9))
    first = documents[0]
    out = [f"## {title}", "",
           f"C = A*B (alpha {first['alpha']:g}, beta {first['beta']:g}), `spmv bench --k K "
           f"--with-cpu` per case: median of {first['runs']} runs after {first['warmup']} "
           "warm-up, every result verified against the reference first. GB/s by each kernel's "
           "byte model (A once, B once, C written once); the CPU is the cpu backend (OpenMP, "
           f"{first['host_threads']} threads) on the GPU machine's host. Target (issue 6): our "
           "best >= 2.5x the best cuSPARSE algorithm.", ""]
    rows = []
    for d in documents:
        ok = [r for r in d["results"] if r["status"] == "ok"]

        def best(keep):
            return min((r for r in ok if keep(r)), key=lambda r: r["median_ms"], default=None)

        ours = best(lambda r: r["backend"] not in ("cusparse", "cpu"))
        vendor = best(lambda r: r["backend"] == "cusparse")
        cpu = best(lambda r: r["backend"] == "cpu")

        def ratio(slow, fast):
            return slow["median_ms"] / fast["median_ms"] if slow and fast else None

        rows.append([matrix_label(d), d["precision"], d["k"], d["layout"].replace("-major", ""),
                     kernel_text(ours, True), fmt_ms(ours and ours["median_ms"]),
                     fmt_num(ours and ours["gbs"], 0), fmt_pct(pct_copy(ours)),
                     kernel_text(vendor), fmt_ms(vendor and vendor["median_ms"]),
                     fmt_ms(cpu and cpu["median_ms"]), fmt_num(cpu and cpu["gbs"], 0),
                     fmt_x(ratio(vendor, ours)), fmt_x(ratio(cpu, ours))])
    out.append(table(["matrix", "prec", "k", "layout", "our best", "ms", "GB/s", "% copy",
                      "best cuSPARSE", "ms", "CPU ms", "CPU GB/s", "vs cuSPARSE", "vs CPU"], rows,
                     ["---", "---", "---:", "---", "---", "---:", "---:", "---:", "---", "---:",
                      "---:", "---:", "---:", "---:"]))
    failed = [(matrix_label(d), d["k"], d["precision"], r) for d in documents
              for r in d["results"] if r["status"] == "FAILED"]
    if failed:
        out += ["", "FAILED: " + "; ".join(f"{m} k={k} {p} {r['backend']}/{r['kernel']}: "
                                          f"{r['message'][:120]}" for m, k, p, r in failed)]
    return "\n".join(out)


def spmm_out_of_core_section(cases):
    title = "SpMM out of core"
    documents = [(name, d) for name, d in cases if d and "out_of_core" in d]
    if not documents:
        return not_measured(title, "no out-of-core case of scripts/spmm-report.sh")
    out = [f"## {title}", "",
           "B and C in pinned host memory, sent through the device in chunks of L_GPU columns "
           "(Ortega et al. 2013, Table 4). From the sequential run (Algorithm 2): CT (copies in + "
           "out), PT (kernels), its total and %Com = CT / total; then the overlapped run "
           "(Algorithm 3) and AF = sequential / overlapped total. Target (issue 6): AF >= 1.3 where "
           "CT and PT are comparable, the overlapped total within 15% of max(CT, PT).", ""]
    rows = []
    for name, d in documents:
        settings = d["out_of_core"]
        runs = settings["runs"]
        for kernel in dict.fromkeys(r["kernel"] for r in runs):
            seq = next((r for r in runs if r["kernel"] == kernel and r["schedule"] == "sequential"
                        and r["status"] == "ok"), None)
            over = next((r for r in runs if r["kernel"] == kernel and r["schedule"] == "overlapped"
                         and r["status"] == "ok"), None)
            label = f"{name}: {matrix_label(d)}, k={d['k']}, {d['precision']}"
            if not (seq and over):
                status = "; ".join(f"{r['schedule']} {r['status']}" for r in runs
                                   if r["kernel"] == kernel)
                rows.append([label, kernel] + ["-"] * 9 + [status])
                continue
            ct, pt = seq["communication_ms"], seq["processing_ms"]
            rows.append([label, kernel, f"{seq['chunk_columns']}, {seq['chunks']}",
                         settings["streams"], fmt_ms(ct), fmt_ms(pt), fmt_ms(seq["total_ms"]),
                         fmt_num(100 * ct / seq["total_ms"]), fmt_ms(over["total_ms"]),
                         fmt_num(over["acceleration_factor"], 2),
                         fmt_num(over["total_over_max_ct_pt"], 2), "ok"])
    out.append(table(["case", "kernel", "L_GPU, chunks", "streams", "CT", "PT", "total, seq.",
                      "%Com", "total, overlapped", "AF", "total / max(CT, PT)", "status"], rows,
                     ["---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
                      "---:", "---"]))
    return "\n".join(out)


# ------------------------------------------------------- micro-benchmarks


def micro_section(micro, images):
    if not micro:
        return ""
    out = ["## Micro-benchmarks (El Zein 2009, chapters 3 and 4.1, on today's GPU)", "",
           f"Measured {micro['time'][:10]} on {micro['device']['name']}; median of {micro['runs']} "
           f"runs; reads stream through a buffer of {mib(micro['buffer_bytes'])}; copy bandwidth "
           f"{micro['copy_bandwidth_gbs']:.0f} GB/s.", ""]
    reads = micro.get("reads")
    if reads:
        out += ["### Read bandwidth (GB/s) by pattern, workload, threads per block and load",
                "",
                "Coalesced: a block reads a row, its threads side by side; sequential: each thread "
                "reads its own run. Loads of 4, 8 and 16 bytes (float, float2, float4); plain "
                "(ld.global.ca) or through the read-only cache (ld.global.nc) as the thesis's "
                "texture reads.", ""]
        for pattern in ["coalesced", "sequential"]:
            rows = []
            for w in sorted({r["floats_per_thread"] for r in reads}):
                for t in sorted({r["threads_per_block"] for r in reads}):
                    cells = {(r["load_bytes"], r["path"]): r["gbs"] for r in reads
                             if r["pattern"] == pattern and r["floats_per_thread"] == w and
                             r["threads_per_block"] == t}
                    if cells:
                        rows.append([w, t] + [fmt_num(cells.get((b, path)), 0)
                                              for path in ["plain", "read-only"] for b in [4, 8, 16]])
            out += [f"{pattern.capitalize()} reads:", "",
                    table(["floats/thread", "threads/block", "plain 4 B", "plain 8 B", "plain 16 B",
                           "read-only 4 B", "read-only 8 B", "read-only 16 B"], rows,
                          ["---:"] * 8), ""]
            best = max((r for r in reads if r["pattern"] == pattern), key=lambda r: r["gbs"])
            out += [f"Best {pattern}: {best['gbs']:.0f} GB/s "
                    f"({100 * best['gbs'] / micro['copy_bandwidth_gbs']:.0f}% of the copy "
                    f"bandwidth) with {best['load_bytes']}-byte {best['path']} loads, "
                    f"{best['threads_per_block']} threads per block, {best['floats_per_thread']} "
                    "floats per thread.", ""]
    row_reads = micro.get("row_reads")
    if row_reads:
        lengths = sorted({r["row_floats"] for r in row_reads})
        get = {(r["pattern"], r["row_floats"]): r["gbs"] for r in row_reads}
        out += ["### Rows read by a warp (coalesced) or a thread (sequential)", "",
                "The thesis's figure 4.2 measured directly: rows of n floats, one warp per row "
                "(lanes strided by 32) or one thread per row (the widest load dividing the row).",
                "", table(["floats per row"] + [str(n) for n in lengths],
                          [[p] + [fmt_num(get.get((p, n)), 0) for n in lengths]
                           for p in ["coalesced", "sequential"]], ["---"] + ["---:"] * len(lengths)),
                ""]
    copies = micro.get("copies")
    if copies:
        sizes = sorted({r["bytes"] for r in copies})
        get = {(r["direction"], r["page_locked"], r["bytes"]): r["gbs"] for r in copies}
        rows = [[d, "page-locked" if locked else "pageable"] +
                [fmt_num(get.get((d, locked, b)), 2) for b in sizes]
                for d in ["host-to-device", "device-to-host"] for locked in [False, True]]
        out += ["### Host-device copies (GB/s, thesis table 3.2)", "",
                table(["direction", "host memory"] + [human_bytes(b) for b in sizes], rows,
                      ["---", "---"] + ["---:"] * len(sizes)), ""]
    crossover = micro.get("crossover")
    if crossover and crossover.get("rows"):
        out += crossover_section(crossover)
    plots = [("micro_reads.png", "Read bandwidth"), ("micro_rows.png", "Rows by warp or thread"),
             ("micro_crossover.png", "Dense vs sparse")]
    out += [f"![{title}](img/{name})" for name, title in plots if name in images]
    return "\n".join(out)


def human_bytes(b):
    for unit, size in [("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)]:
        if b >= size:
            return f"{b / size:g} {unit}"
    return f"{b} B"


def crossover_points(crossover):
    """Per precision and density: the dense product, the best sparse kernel and
    the best cuSPARSE algorithm (ok rows only)."""
    points = defaultdict(dict)
    for r in crossover["rows"]:
        if r["status"] != "ok":
            continue
        entry = points[(r["precision"], r["density"])]
        entry["nnz"] = r["nnz"]
        if r["kernel"] == "dense-cublas":
            slot = "dense"
        elif r["backend"] == "cusparse":
            slot = "cusparse"
        else:
            slot = "sparse"
        if slot not in entry or r["median_ms"] < entry[slot]["median_ms"]:
            entry[slot] = r
    return points


def crossover_section(crossover):
    points = crossover_points(crossover)
    n = crossover["size"]
    out = [f"### Dense (cuBLAS gemv) vs sparse on {n} x {n} matrices (thesis chapter 3)", "",
           "Constant Row matrices (the same number of random columns in every row) of rising "
           "density; the sparse side is the fastest of our CSR kernels (and the default choice), "
           "cuSPARSE beside it.", ""]
    if not crossover.get("dense_kernel"):
        out += ["The dense-cublas kernel is not in this build: no dense side.", ""]
    rows = []
    for (p, d), e in sorted(points.items(), key=lambda x: (PRECISIONS.index(x[0][0]), x[0][1])):
        dense, sparse, vendor = e.get("dense"), e.get("sparse"), e.get("cusparse")
        winner = "-"
        if dense and sparse:
            winner = "sparse" if sparse["median_ms"] < dense["median_ms"] else "dense"
        rows.append([p, f"{100 * d:g}%", e["nnz"], fmt_ms(dense and dense["median_ms"]),
                     kernel_text(sparse), fmt_ms(sparse and sparse["median_ms"]),
                     fmt_ms(vendor and vendor["median_ms"]), winner])
    out.append(table(["prec", "density", "nnz", "dense ms", "best sparse", "sparse ms",
                      "cuSPARSE ms", "faster"], rows,
                     ["---", "---:", "---:", "---:", "---", "---:", "---:", "---"]))
    for p in PRECISIONS:
        flips = [d for (q, d), e in sorted(points.items()) if q == p and e.get("dense") and
                 e.get("sparse") and e["dense"]["median_ms"] <= e["sparse"]["median_ms"]]
        if flips:
            out += ["", f"{p}: dense is as fast as sparse from a density of {100 * flips[0]:g}% on."]
        elif any(q == p for q, _ in points):
            out += ["", f"{p}: sparse stays faster up to the densest matrix measured."]
    out.append("")
    return out


# ---------------------------------------------------------------- plots


def make_plots(units, micro, image_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(image_dir, exist_ok=True)
    made = []

    def legend(ax, **options):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(**options)

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(image_dir, name), dpi=110)
        plt.close(fig)
        made.append(name)

    colors = {"f64": "tab:blue", "f32": "tab:orange"}
    sets = [s for s in SET_ORDER if any(u.set == s and u.speedup for u in units)]
    if sets:
        fig, axes = plt.subplots(len(sets), 1, figsize=(14, 3.6 * len(sets)), squeeze=False)
        for ax, s in zip(axes[:, 0], sets):
            matrices = sorted({u.matrix for u in units if u.set == s}, key=str.lower)
            width = 0.4
            for i, p in enumerate(PRECISIONS):
                by = {u.matrix: u.speedup for u in units if u.set == s and u.precision == p}
                xs = [j + (i - 0.5) * width for j in range(len(matrices))]
                ax.bar(xs, [by.get(m) or 0 for m in matrices], width, label=p, color=colors[p])
            ax.axhline(1, color="black", linewidth=0.8)
            ax.set_yscale("log")
            ax.set_xticks(range(len(matrices)))
            ax.set_xticklabels(matrices, rotation=90, fontsize=7)
            ax.set_ylabel("speed-up over cuSPARSE")
            ax.set_title(SET_TITLES[s])
            legend(ax)
        save(fig, "speedup_per_matrix.png")

    scatter_units = [u for u in units if u.best and pct_copy(u.best) is not None]
    if scatter_units:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), squeeze=False)
        markers = {"real": "o", "replicated": "s", "family": "^"}
        for ax, p in zip(axes[0], PRECISIONS):
            for s in SET_ORDER:
                g = [u for u in scatter_units if u.precision == p and u.set == s]
                if not g:
                    continue
                ax.scatter([u.info["mean_row_length"] for u in g], [pct_copy(u.best) for u in g],
                           marker=markers[s], color="tab:green", label=f"ours, {s}", alpha=0.8)
                v = [u for u in g if u.best_vendor]
                ax.scatter([u.info["mean_row_length"] for u in v],
                           [pct_copy(u.best_vendor) for u in v], marker=markers[s],
                           facecolors="none", edgecolors="tab:red", label=f"cuSPARSE, {s}")
            ax.set_xscale("log")
            ax.set_xlabel("mean row length")
            ax.set_ylabel("% of copy bandwidth")
            ax.set_title(p)
            legend(ax, fontsize=7)
        save(fig, "bandwidth_vs_row_length.png")

    best_units = [u for u in units if u.best]
    if best_units:
        sets_present = [s for s in SET_ORDER if any(u.set == s for u in best_units)]
        kernels = sorted({u.best["kernel"] for u in best_units})
        panel_height = 1.8 + 0.3 * len(kernels)
        fig, axes = plt.subplots(len(sets_present), 1,
                                 figsize=(14, panel_height * len(sets_present)), squeeze=False)
        for ax, s in zip(axes[:, 0], sets_present):
            g = [u for u in best_units if u.set == s]
            matrices = sorted({u.matrix for u in g},
                              key=lambda m: next(u.info["mean_row_length"] for u in g if u.matrix == m))
            for i, p in enumerate(PRECISIONS):
                pts = [(matrices.index(u.matrix), kernels.index(u.best["kernel"]) + (i - 0.5) * 0.25)
                       for u in g if u.precision == p]
                if pts:
                    ax.scatter(*zip(*pts), color=colors[p], label=p, s=18)
            ax.set_ylim(-0.5, len(kernels) - 0.5)
            ax.set_yticks(range(len(kernels)))
            ax.set_yticklabels(kernels, fontsize=8)
            ax.set_xticks(range(len(matrices)))
            ax.set_xticklabels(matrices, rotation=90, fontsize=7)
            ax.set_title(f"{SET_TITLES[s]}: fastest kernel (matrices by mean row length)")
            legend(ax, fontsize=7)
        save(fig, "best_kernel_per_matrix.png")

    scale = [u for u in units if u.bandwidth_scale] or units
    names = sorted({(r["backend"], r["kernel"]) for u in scale for r in u.rows})
    if names:
        fig, axes = plt.subplots(2, 1, figsize=(14, 9), squeeze=False)
        for ax, p in zip(axes[:, 0], PRECISIONS):
            data, labels = [], []
            for backend, kernel in names:
                values = [r["gflops"] for u in scale if u.precision == p for r in u.rows
                          if r["backend"] == backend and r["kernel"] == kernel and r["status"] == "ok"]
                if values:
                    data.append(values)
                    labels.append(kernel)
            if data:
                ax.boxplot(data)
                ax.set_xticks(range(1, len(labels) + 1))
                ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
            ax.set_ylabel("GFLOP/s")
            ax.set_title(f"{p}: GFLOP/s per kernel over the matrices at memory-bandwidth scale")
        save(fig, "gflops_by_kernel.png")

    chosen = [u for u in units if u.auto_share_of_ideal is not None]
    if chosen:
        fig, ax = plt.subplots(figsize=(10, 4))
        for s in SET_ORDER:
            for p in PRECISIONS:
                g = sorted(u.auto_share_of_ideal for u in chosen if u.set == s and u.precision == p)
                if g:
                    ax.plot([i / max(len(g) - 1, 1) for i in range(len(g))], [100 * v for v in g],
                            marker=".", label=f"{s} {p}")
        ax.set_xlabel("matrices, sorted (fraction)")
        ax.set_ylabel("auto's share of the ideal (%)")
        ax.set_ylim(0, 105)
        legend(ax, fontsize=8)
        save(fig, "ideal_vs_chosen.png")

    if micro and micro.get("reads"):
        reads = micro["reads"]
        workloads = sorted({r["floats_per_thread"] for r in reads})
        fig, axes = plt.subplots(2, len(workloads), figsize=(5 * len(workloads), 8), squeeze=False)
        for row, pattern in enumerate(["coalesced", "sequential"]):
            for col, w in enumerate(workloads):
                ax = axes[row][col]
                for b in [4, 8, 16]:
                    for path, style in [("plain", "-"), ("read-only", "--")]:
                        pts = sorted((r["threads_per_block"], r["gbs"]) for r in reads
                                     if r["pattern"] == pattern and r["floats_per_thread"] == w and
                                     r["load_bytes"] == b and r["path"] == path)
                        if pts:
                            ax.plot(*zip(*pts), style, marker="o", label=f"{b} B {path}")
                ax.set_xscale("log", base=2)
                sizes = sorted({r["threads_per_block"] for r in reads})
                ax.set_xticks(sizes)
                ax.set_xticklabels([str(t) for t in sizes])
                ax.set_title(f"{pattern}, {w} floats per thread")
                ax.set_xlabel("threads per block")
                ax.set_ylabel("GB/s")
                legend(ax, fontsize=7)
        save(fig, "micro_reads.png")
    if micro and micro.get("row_reads"):
        fig, ax = plt.subplots(figsize=(7, 4))
        for pattern in ["coalesced", "sequential"]:
            pts = sorted((r["row_floats"], r["gbs"]) for r in micro["row_reads"]
                         if r["pattern"] == pattern)
            ax.plot(*zip(*pts), marker="o", label=pattern)
        ax.set_xscale("log", base=2)
        lengths = sorted({r["row_floats"] for r in micro["row_reads"]})
        ax.set_xticks(lengths)
        ax.set_xticklabels([str(n) for n in lengths])
        ax.set_xlabel("floats per row")
        ax.set_ylabel("GB/s")
        legend(ax)
        save(fig, "micro_rows.png")
    if micro and micro.get("crossover", {}).get("rows"):
        points = crossover_points(micro["crossover"])
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), squeeze=False)
        for ax, p in zip(axes[0], PRECISIONS):
            for slot, label in [("dense", "dense (cuBLAS gemv)"), ("sparse", "best sparse (ours)"),
                                ("cusparse", "best cuSPARSE")]:
                pts = sorted((d, e[slot]["median_ms"]) for (q, d), e in points.items()
                             if q == p and slot in e)
                if pts:
                    ax.plot([100 * d for d, _ in pts], [t for _, t in pts], marker="o", label=label)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("density (%)")
            ax.set_ylabel("ms")
            ax.set_title(p)
            legend(ax)
        save(fig, "micro_crossover.png")
    return made


# ----------------------------------------------------------------- main


def summary_table(units):
    """The quick table of bench-families.sh: per matrix, our best against cuSPARSE's best."""
    lines = ["| set | matrix | prec | best kernel (params) | ms | % copy | best cuSPARSE | ms | "
             "% copy | speed-up |", "|---|---|---|---|---:|---:|---|---:|---:|---:|"]
    for u in units:
        if not (u.best and u.best_vendor):
            continue
        b, v = u.best, u.best_vendor
        lines.append(f"| {u.set} | {u.matrix} | {u.precision} | {kernel_text(b, True)} | "
                     f"{fmt_ms(b['median_ms'])} | {fmt_pct(pct_copy(b))} | {v['kernel']} | "
                     f"{fmt_ms(v['median_ms'])} | {fmt_pct(pct_copy(v))} | {fmt_x(u.speedup)} |")
    for p in PRECISIONS:
        speedups = [u.speedup for u in units if u.precision == p and u.speedup]
        if speedups:
            lines.append(f"\n{p}: geometric-mean speed-up of the best kernel over the best "
                         f"cuSPARSE algorithm: {fmt_x(geomean(speedups))} over {len(speedups)} "
                         f"matrices; slowest {fmt_x(min(speedups))}")
    for u in units:
        for r in u.failed:
            lines.append(f"FAILED on {u.set}/{u.matrix} {u.precision}: {r['kernel']}")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="folder of `spmv suite` (results.jsonl)")
    parser.add_argument("--micro", help="JSON of `spmv micro` (default RESULTS/micro.json)")
    parser.add_argument("--spmm", help="folder of scripts/spmm-report.sh (default RESULTS/spmm)")
    parser.add_argument("--bro", help="folder of scripts/bro-report.sh (default RESULTS/bro)")
    parser.add_argument("--ellrt",
                        help="JSON lines of bench_ellrt_model (default RESULTS/ellrt_model.jsonl)")
    parser.add_argument("--out", default="docs/benchmarks.md")
    parser.add_argument("--images", default=None, help="plot folder (default: img/ beside --out)")
    parser.add_argument("--notes", default="docs/benchmarks-notes.md",
                        help="hand-written sections appended as they are")
    parser.add_argument("--summary", action="store_true", help="print the summary table only")
    args = parser.parse_args(argv)

    rows = read_results(args.results)
    units = units_of(rows)
    if args.summary:
        if not rows:
            sys.exit(f"{args.results}/results.jsonl holds no results")
        print(summary_table(units))
        return 0
    suite = read_json(os.path.join(args.results, "suite.json"))
    micro = read_json(args.micro or os.path.join(args.results, "micro.json"))
    spmm_cases = read_bench_cases(args.spmm or os.path.join(args.results, "spmm"))
    ellrt = read_json_lines(args.ellrt or os.path.join(args.results, "ellrt_model.jsonl"))
    bro_units = units_of(bench_case_rows(
        read_bench_cases(args.bro or os.path.join(args.results, "bro")), "reordering"))
    if not (rows or micro or spmm_cases or ellrt):
        sys.exit(f"{args.results} holds no results (results.jsonl, micro.json, spmm/, "
                 "ellrt_model.jsonl)")
    image_dir = args.images or os.path.join(os.path.dirname(args.out) or ".", "img")
    images = make_plots(units, micro, image_dir)
    image_rel = os.path.relpath(image_dir, os.path.dirname(args.out) or ".")

    def figure(name, title):
        return f"![{title}]({image_rel}/{name})" if name in images else ""

    device = report_device(rows, micro, spmm_cases)
    title_device = f" on {device['name']}" if device else " on the host"
    parts = [
        f"# Benchmarks{title_device}",
        "",
        "Generated by `bench/report.py` from the results of `scripts/report.sh` (`spmv suite`, "
        "`spmv micro`, scripts/spmm-report.sh, bench_ellrt_model); do not edit by hand: "
        f"hand-written sections live in `{os.path.basename(args.notes)}` and are copied at the end.",
        "",
        setup_section(rows, suite, device),
    ]
    if units:
        parts += [
            coverage_section(units, suite),
            summary_section(units),
            figure("speedup_per_matrix.png", "Speed-up over cuSPARSE per matrix"),
            figure("bandwidth_vs_row_length.png", "% of copy bandwidth vs mean row length"),
            kernel_section(units),
            figure("gflops_by_kernel.png", "GFLOP/s per kernel"),
            figure("best_kernel_per_matrix.png", "Fastest kernel per matrix"),
            ideal_section(units),
            figure("ideal_vs_chosen.png", "Default choice vs ideal"),
            transfer_section(units),
        ]
    else:
        parts.append(not_measured("SpMV suite", "no results.jsonl of `spmv suite`"))
    parts += [format_wins_section(units), inspection_section(units)]
    parts += [set_section(units, s) for s in SET_ORDER]
    parts += [ellrt_model_section(ellrt), bro_section(units + bro_units), spmm_in_core_section(spmm_cases),
              spmm_out_of_core_section(spmm_cases)]
    parts.append(micro_section(micro, set(images)) if micro else
                 not_measured("Micro-benchmarks", "no micro.json of `spmv micro`"))
    if units:
        parts.append(failures_section(units))
    if os.path.exists(args.notes):
        with open(args.notes, encoding="utf-8") as f:
            parts.append(f.read().strip())
    text = "\n\n".join(p for p in parts if p) + "\n"
    text = text.replace("](img/", f"]({image_rel}/")
    temp = args.out + ".tmp"
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(temp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temp, args.out)
    print(f"report: wrote {args.out} and {len(images)} plots in {image_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
