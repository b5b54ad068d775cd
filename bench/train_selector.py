#!/usr/bin/env python3
"""Trains the kernel selector from `spmv suite` results and judges it on held-out matrices.

    bench/train_selector.py --spmv build/spmv --out src/select/models/sm90.json RESULTS.jsonl[.gz] ...
    bench/train_selector.py --operation spmm --out src/select/models/sm90-spmm.json RESULTS.jsonl[.gz] ...

For each suite unit (matrix, precision, device) it asks `spmv plan --json` for the selector's
features (the C++ code computes them: one definition), caching them in --features-cache. For
each kernel it fits gradient-boosted regression trees predicting log2 of the kernel's time as a
multiple of the CSR byte model at copy bandwidth, and a setup model (seconds per non-zero).

It then judges the selector like El Zein's thesis (Table 4.10), but on held-out data: every
group of matrices (a generator family, the real matrices, the replicated ones) is left out in
turn, the model is trained on the rest, and the held-out units are chosen for; the loss of the
choice against the best measured kernel (ours and cuSPARSE) is summarised as mean, median and
worst, with the speed-up of the choice over the best cuSPARSE algorithm (geometric mean).
With --operation spmm the units are SpMM products (k > 1, each layout of B and C its own unit), the kernels the
SpMM kernels, the features the SpMV's plus the product's (PRODUCT_FEATURES) and the time is taken over the SpMM's
byte model (roofline_bytes).
Pure Python (no NumPy), so that it runs wherever the build does.
"""
import argparse
import functools
import gzip
import json
import math
import os
import statistics
import subprocess
import sys
import zlib
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

# Boosting settings: shallow trees, chosen so that the held-out loss is low
# on the training suites (see docs/benchmarks.md, selector section).
TREES = 40
DEPTH = 4
LEARNING_RATE = 0.15
MIN_LEAF = 4
# How far (in feature units: mostly log2, so a factor of 2) a matrix may lie outside
# the range a kernel of ours was trained on before the selector stops trusting it.
RANGE_SLACK = 1.0
# Features whose range is open at one end: beyond every training matrix there, nothing physical changes, so the
# trees' flat extrapolation is right and the range does not stop a kernel. Below the range, x is smaller than
# any trained (it stays in cache) and there are fewer columns per row (x is read more often from cache); above
# it, the band is wider than the columns by more, which only says the matrix is taller than it is wide. A tall
# matrix of few columns (LIBSVM's kdd99: 4.9 M rows, 127 columns) lies there. The band is open below too: a band
# narrower against the columns than any trained (2^-18 of them) reads x from a window that is in cache already at
# the trained narrowest; the unseen band of 9 diagonals in 8 M rows (2^-19.8) lay there, and every kernel of ours
# was left out where DIA was 1.74x the best cuSPARSE (call 212).
OPEN_BELOW = ["log2_x_bytes_per_l2", "log2_cols_per_rows", "log2_bandwidth_per_cols"]
OPEN_ABOVE = ["log2_bandwidth_per_cols"]
# Parameters the selector builds a kernel with (the model carries them; the kernel's defaults for the rest).
# csr-hub hands a matrix whose hubs would hold under a fifth of its entries to csr-adaptive. Beyond 8 M entries, on
# the H200's training and unseen units (bench/results/2026-12-02-h200-calls202-/threshold.py), csr-hub was the
# fastest kernel of ours on eleven R-MATs, whose hubs held 34-70% of the entries, and on two wide LPs by at most 2%
# (0-5%); on few huge rows (0-4%) it was 5-9% slower than csr-adaptive (docs/perf-notes.md, "csr-hub hands a matrix
# of few hub entries to csr-adaptive").
SELECTOR_PARAMS = {"csr-hub": {"hub_min_share": 20}}
# The SpMM model's features beyond the matrix's, as src/select/features.cpp computes them (selector_spmm_features):
# log2 k, whether B and C are column-major, and B and C's bytes against the L2.
PRODUCT_FEATURES = ["log2_columns", "column_major", "log2_dense_bytes_per_l2"]
# The SpMV's nearness guard: a kernel of ours is trusted on a matrix only where some training unit it was measured on
# lies within NEAR_SLACK of it in the largest difference over NEAR_FEATURES. The range guard checks each feature
# alone, so a matrix can lie inside every range and far from every unit (mbeacxc: 496 rows of about 100 entries, 3.8
# rows per SM). The model carries each kernel's points (near_points, rounded to 0.01); csr-adaptive, the kernel of
# ours trained most widely, is exempt and stays the fallback beside cuSPARSE. Judged offline on 336 held-out units
# (2026-12-02): worst loss 230% -> 208%, mean 12.4% -> 10.3%, median 2.6% -> 2.3%; slack 0.75 and 1.5 did worse.
NEAR_FEATURES = ["log2_rows_per_multiprocessor", "log2_product_bytes_per_l2", "log2_mean_row_length"]
NEAR_SLACK = 1.0
NEAR_EXEMPT = ["csr-adaptive"]
# Kernels on a dense copy of the matrix, their time modelled over its bytes (roofline_bytes "dense"), not the CSR's:
# cuBLAS's gemv reads every zero, so its time over the CSR bytes grows with 1 / density, a trend trees cannot
# extrapolate to a density outside their training; over the dense bytes it is about flat. Their trees and range guard
# read only DENSE_FEATURES (the model file lists each kernel's features), and the nearness guard leaves them alone:
# gemv depends on the dense copy's size, not on where the entries lie, so the sparse structure's features would only
# let the trees fit noise. With the dense family held out, the judge's worst loss there fell from 208% to 0%
# (2026-12-02).
DENSE_KERNELS = ["dense-cublas"]
DENSE_FEATURES = ["value_bytes", "log2_dense_matrix_bytes_per_l2"]
# Of DENSE_FEATURES, those no other kernel reads.
DENSE_ONLY_FEATURES = ["log2_dense_matrix_bytes_per_l2"]


def features_read(kernel, names):
    """The features the kernel's trees split on and its range guard checks."""
    return DENSE_FEATURES if kernel in DENSE_KERNELS else [n for n in names if n not in DENSE_ONLY_FEATURES]


def near_values(row, names):
    """A feature row's NEAR_FEATURES, the coordinates of the nearness guard."""
    return [row[names.index(n)] for n in NEAR_FEATURES]


def log2_of(value):
    return math.log2(max(value, 1e-12))


def value_bytes(r):
    return 4 if r["precision"] == "f32" else 8


def product_features(r):
    """The SpMM unit's PRODUCT_FEATURES, in that order (features.cpp's selector_spmm_features)."""
    m, k = r["matrix"], r["k"]
    dense_bytes = (m["rows"] + m["cols"]) * k * value_bytes(r)
    return [log2_of(k), 1.0 if r["layout"] == "col-major" else 0.0, log2_of(dense_bytes / r["device"]["l2_bytes"])]


def roofline_bytes(r, byte_model="csr"):
    """The byte model a unit's time is taken over. "csr": the SpMV's product bytes (the CSR, x and y once), or for an
    SpMM the CSR, B and C once (features.cpp's spmm_product_bytes). "dense": a dense copy of the matrix, x and y (B
    and C) once (dense_product_bytes), what a kernel on the dense matrix reads whatever its sparsity."""
    m = r["matrix"]
    if byte_model == "dense":
        return (m["rows"] * m["cols"] + (m["rows"] + m["cols"]) * r["k"]) * value_bytes(r)
    # product_bytes holds x and y once; B and C have k columns
    return m["product_bytes"] + (m["rows"] + m["cols"]) * (r["k"] - 1) * value_bytes(r)


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def read_kernel_changes(path):
    """KERNEL -> the UTC time (ISO 8601) of its last change that alters its speed, from lines
    'KERNEL TIME WHY' (# comments): its measurements from before are dropped on every device."""
    changes = {}
    with open(path) as f:
        for line in f:
            fields = line.split("#")[0].split()
            if fields:
                changes[fields[0]] = fields[1]
    return changes


@functools.lru_cache(maxsize=None)  # one look-up per matrix, not per result
def shared_name(path, shared_matrices):
    """The base name of the matrix file `path` in the shared collection: NAME.mtx.gz for a run's NAME.mtx."""
    name = os.path.basename(path)
    if not name.endswith(".gz") and os.path.exists(os.path.join(shared_matrices, name + ".gz")):
        return name + ".gz"
    return name


def read_results(paths, shared_matrices, kernel_changes, operation="spmv"):
    """SpMV results of `spmv suite` (k = 1, not transposed, no reordering), or with operation "spmm" its SpMM
    results (k > 1).

    A kernel measured again on the same unit (matrix, precision, device) replaces its earlier
    measurement: a file supersedes the files before it, so that a kernel changed since an old run
    is trained on its present times. Runs on different days differ by a few percent on every
    kernel alike (small matrices most), so each run's times are put on the scale of the unit's
    latest run: multiplied by the latest run's best cuSPARSE time over that run's own (every
    suite run measures cuSPARSE's algorithms), which keeps each kernel's ratio to cuSPARSE as it
    was measured, side by side. A kernel changed since a run (kernel_changes) keeps only the
    measurements made after the change, on whichever devices they were made; a unit where it
    has none left is marked incomplete (_incomplete): its other kernels still train their
    trees, but it cannot say which kernel is fastest. So is a unit without a kernel that most
    units of its device were measured for."""
    latest = {}
    outdated = set()  # (unit, kernel) of results dropped for a change of their kernel
    vendor_best = {}  # (file index, unit) -> best cuSPARSE time in that file
    for index, path in enumerate(paths):
        with open_text(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("operation") != operation or (r.get("k") == 1) != (operation == "spmv"):
                    continue
                if r.get("reordering", "none") != "none":
                    continue
                r.setdefault("layout", "row-major")
                if r["kernel"] == "auto" or r.get("device") is None or not r.get("copy_bandwidth_gbs"):
                    continue
                # A file is named by its base name and found in the shared collection, compressed there
                # whether or not the run read it compressed.
                r["_is_file"] = r["set"] != "family"
                source = r["matrix"]["source"]
                r["_source"] = shared_name(source, shared_matrices) if r["_is_file"] else source
                r["_run"] = index
                unit = unit_key(r) + (r["device"]["name"],)
                if r["time"] < kernel_changes.get(r["kernel"], ""):
                    outdated.add(unit + (r["kernel"],))  # the kernel has changed since
                    continue
                latest[unit + (r["kernel"],)] = r
                if r["backend"] == "cusparse" and r["status"] == "ok" and r.get("verified"):
                    best = vendor_best.get((index, unit))
                    vendor_best[(index, unit)] = r["median_ms"] if best is None else min(best, r["median_ms"])
    newest_run = {}
    for index, unit in vendor_best:
        newest_run[unit] = max(index, newest_run.get(unit, index))
    for key, r in latest.items():
        unit = key[:-1]
        own, newest = vendor_best.get((r["_run"], unit)), vendor_best.get((newest_run.get(unit), unit))
        if own and newest and r["status"] == "ok":
            r["median_ms"] *= newest / own
    incomplete = {key[:-1] for key in outdated if key not in latest}
    # A unit measured for a few kernels only (a suite run of named kernels) cannot say which is fastest either:
    # it lacks a kernel that most of its device's units have.
    kernels_of = defaultdict(set)
    for key in latest:
        kernels_of[key[:-1]].add(key[-1])
    for device in {unit[-1] for unit in kernels_of}:
        units = [unit for unit in kernels_of if unit[-1] == device]
        count = defaultdict(int)
        for unit in units:
            for kernel in kernels_of[unit]:
                count[kernel] += 1
        usual = {kernel for kernel, n in count.items() if 2 * n > len(units)}
        incomplete |= {unit for unit in units if not usual <= kernels_of[unit]}
    for key, r in latest.items():
        r["_incomplete"] = key[:-1] in incomplete
    return list(latest.values())


def matrix_key(r):
    """The matrix of a unit as its features are cached: source, copies, precision and the device's L2 and SMs."""
    d = r["device"]
    return (r["_source"], r["matrix"]["copies"], r["precision"], d["l2_bytes"], d["multiprocessors"])


def unit_key(r):
    return matrix_key(r) + (r["k"], r["layout"])


def feature_row(features, r, names):
    """The model's inputs for the unit of r: the matrix's features by name, then for an SpMM the product's."""
    row = [features[matrix_key(r)][n] for n in names if n not in PRODUCT_FEATURES]
    return row + product_features(r) if r["k"] > 1 else row


REAL_FOLDS = 5


def group_of(r):
    """The hold-out group: a generator kind (leave one family out), or one of REAL_FOLDS folds of
    the real matrices, a matrix as it is and replicated always in the same fold."""
    if r["set"] == "family":
        return "family:" + r["matrix"]["source"].split(":")[0]
    name = r["matrix"]["name"]
    return f"real fold {zlib.crc32(name.encode()) % REAL_FOLDS + 1}"


def features_of(spmv, key, is_file, shared_matrices):
    source, copies, precision, l2, sms = key
    command = [spmv, "plan", "--json", "--precision", precision, "--copies", str(copies),
               "--device-l2", str(l2), "--device-sms", str(sms), "--device-bandwidth", "1000"]
    command += [os.path.join(shared_matrices, source)] if is_file else ["--gen", source]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    features = json.loads(out)["features"]
    if not features:
        raise SystemExit(f"{' '.join(command)}: the plan has no features")
    return features


def load_features(spmv, records, cache_path, jobs, shared_matrices):
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            for line in f:
                entry = json.loads(line)
                cache[tuple(entry["key"])] = entry["features"]
    wanted = {}
    for r in records:
        key = matrix_key(r)
        if key not in cache:
            wanted[key] = r["_is_file"]
    if wanted:
        print(f"features: computing {len(wanted)} units with {spmv}", file=sys.stderr)
        with ThreadPoolExecutor(jobs) as pool:
            results = pool.map(lambda item: (item[0], features_of(spmv, item[0], item[1], shared_matrices)),
                               wanted.items())
            for key, features in results:
                cache[key] = features
                if cache_path:
                    with open(cache_path, "a") as f:
                        f.write(json.dumps({"key": list(key), "features": features}) + "\n")
    return cache


# ---- gradient-boosted regression trees (squared error) ----

def fit_tree(rows, targets, depth, splits_on):
    """CART on (rows, targets), splitting on the features of index splits_on; returns the tree as parallel arrays
    (children after parents)."""
    tree = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}

    def new_node():
        for k in tree:
            tree[k].append(-1 if k in ("feature", "left", "right") else 0.0)
        return len(tree["value"]) - 1

    def grow(node, index, level):
        values = [targets[i] for i in index]
        tree["value"][node] = sum(values) / len(values)
        if level == depth or len(index) < 2 * MIN_LEAF:
            return
        best = None
        total, total_sq, n = sum(values), sum(v * v for v in values), len(values)
        for f in splits_on:
            order = sorted(index, key=lambda i: rows[i][f])
            left_sum = left_sq = 0.0
            for position in range(1, n):
                t = targets[order[position - 1]]
                left_sum += t
                left_sq += t * t
                if position < MIN_LEAF or n - position < MIN_LEAF:
                    continue
                a, b = rows[order[position - 1]][f], rows[order[position]][f]
                if a == b:
                    continue
                right_sum, right_sq = total - left_sum, total_sq - left_sq
                error = (left_sq - left_sum * left_sum / position) + (right_sq - right_sum * right_sum / (n - position))
                if best is None or error < best[0]:
                    best = (error, f, (a + b) / 2, order[:position], order[position:])
        if best is None or best[0] >= total_sq - total * total / n - 1e-12:
            return
        _, f, threshold, left_index, right_index = best
        left, right = new_node(), new_node()
        tree["feature"][node], tree["threshold"][node] = f, threshold
        tree["left"][node], tree["right"][node] = left, right
        grow(left, left_index, level + 1)
        grow(right, right_index, level + 1)

    grow(new_node(), list(range(len(rows))), 0)
    return tree


def predict_tree(tree, row):
    node = 0
    while tree["feature"][node] >= 0:
        f = tree["feature"][node]
        node = tree["left"][node] if row[f] < tree["threshold"][node] else tree["right"][node]
    return tree["value"][node]


def fit_boosted(rows, targets, splits_on):
    base = statistics.median(targets)
    residual = [t - base for t in targets]
    trees = []
    for _ in range(TREES):
        tree = fit_tree(rows, residual, DEPTH, splits_on)
        trees.append(tree)
        residual = [r - LEARNING_RATE * predict_tree(tree, row) for r, row in zip(residual, rows)]
    return base, trees


def predict_boosted(model, row):
    return model["base"] + model["learning_rate"] * sum(predict_tree(t, row) for t in model["trees"])


# ---- the model file ----

def roofline_seconds(r, byte_model="csr"):
    return roofline_bytes(r, byte_model) / (r["copy_bandwidth_gbs"] * 1e9)


def byte_model_of(kernel):
    return "dense" if kernel in DENSE_KERNELS else "csr"


def log2_slowdown(r):
    return math.log2(r["median_ms"] * 1e-3 / roofline_seconds(r, byte_model_of(r["kernel"])))


def setup_model(records, field="setup_seconds"):
    """Seconds per non-zero (median over large matrices) and fixed seconds (median over small)."""
    large = [r[field] / r["matrix"]["nnz"] for r in records if r["matrix"]["nnz"] >= 1_000_000]
    small = [r[field] for r in records if r["matrix"]["nnz"] < 100_000]
    per_nnz = statistics.median(large) if large else 0.0
    return per_nnz, (statistics.median(small) if small else 0.0)


def fastest_somewhere(records):
    """The kernels measured fastest on at least one unit (matrix, precision, device)."""
    by_unit = defaultdict(list)
    for r in records:
        if r["status"] == "ok" and r.get("verified") and not r["_incomplete"]:
            by_unit[unit_key(r) + (r["device"]["name"],)].append(r)
    return {min(rs, key=lambda r: r["median_ms"])["kernel"] for rs in by_unit.values()}


def train(records, features, names, near_guard):
    # A kernel of ours that was never the fastest on any training matrix has no
    # evidence that it ever wins: as a candidate it could only be chosen by a
    # miss of its trees. cuSPARSE's algorithms stay: they are the fallback.
    winners = fastest_somewhere(records)
    verified = [r for r in records if r["status"] == "ok" and r.get("verified")]
    by_kernel = defaultdict(list)
    for r in verified:
        if r["backend"] == "cusparse" or r["kernel"] in winners:
            by_kernel[(r["backend"], r["kernel"], r["format"])].append(r)
    # The cusparse operators of these results (before this version) uploaded
    # their CSR outside the setup timer: charge them the CSR upload of ours.
    csr_upload = setup_model([r for r in verified if r["kernel"] == "csr-scalar"], "upload_seconds")
    kernels = []
    for (backend, kernel, fmt), rs in sorted(by_kernel.items()):
        rows = [feature_row(features, r, names) for r in rs]
        targets = [log2_slowdown(r) for r in rs]
        base, trees = fit_boosted(rows, targets, [names.index(n) for n in features_read(kernel, names)])
        per_nnz, fixed = setup_model(rs)
        if backend == "cusparse":
            per_nnz, fixed = per_nnz + csr_upload[0], fixed + csr_upload[1]
        model = {"kernel": kernel, "backend": backend, "format": fmt, "base": base,
                 "learning_rate": LEARNING_RATE, "setup_seconds_per_nnz": per_nnz,
                 "setup_seconds_fixed": fixed, "trees": trees}
        # How far the fit misses on its own data (root mean square, log2): the
        # selector charges an erratic kernel for it (risk in choose()).
        misses = [(predict_boosted(model, row) - t) ** 2 for row, t in zip(rows, targets)]
        model["uncertainty_log2"] = math.sqrt(statistics.mean(misses))
        # Where the trees were fitted: beyond it they extrapolate flat, which can be wildly wrong.
        model["feature_min"] = [min(col) for col in zip(*rows)]
        model["feature_max"] = [max(col) for col in zip(*rows)]
        model["features"] = features_read(kernel, names)
        if near_guard and backend != "cusparse" and kernel not in NEAR_EXEMPT + DENSE_KERNELS:
            model["near_points"] = sorted({tuple(round(v, 2) for v in near_values(row, names)) for row in rows})
        if kernel in SELECTOR_PARAMS:
            model["params"] = SELECTOR_PARAMS[kernel]
        if byte_model_of(kernel) != "csr":
            model["byte_model"] = byte_model_of(kernel)
        kernels.append(model)
    return kernels


def within_training_range(kernel, row, names):
    """Within the range guard (each feature the kernel reads, alone) and the nearness guard (NEAR_FEATURES
    together)."""
    own = kernel["features"]
    in_range = all((lo - RANGE_SLACK <= v or name in OPEN_BELOW) and (v <= hi + RANGE_SLACK or name in OPEN_ABOVE)
                   for name, v, lo, hi in zip(names, row, kernel["feature_min"], kernel["feature_max"]) if name in own)
    if not in_range or "near_points" not in kernel:
        return in_range
    x = near_values(row, names)
    return any(max(abs(a - b) for a, b in zip(p, x)) <= NEAR_SLACK for p in kernel["near_points"])


def choose(kernels, names, row, unit, refused, expected_products, margin, risk):
    """The selector's rule (src/core/plan.cpp): least setup + E * product, the product predicted
    pessimistically (2^(risk * uncertainty) times the fit), skipping refusals and kernels of ours
    for matrices outside their training range (cuSPARSE is the fallback); a kernel of ours
    replaces the best cuSPARSE one only when predicted `margin` cheaper."""
    best = best_vendor = None
    for k in kernels:
        if k["kernel"] in refused or (k["backend"] != "cusparse" and not within_training_range(k, row, names)):
            continue
        product = roofline_seconds(unit, k.get("byte_model", "csr")) * 2 ** (predict_boosted(k, row)
                                                                          + risk * k["uncertainty_log2"])
        cost = k["setup_seconds_fixed"] + k["setup_seconds_per_nnz"] * unit["matrix"]["nnz"] + expected_products * product
        if best is None or cost < best[0]:
            best = (cost, k["kernel"])
        if k["backend"] == "cusparse" and (best_vendor is None or cost < best_vendor[0]):
            best_vendor = (cost, k["kernel"])
    if best_vendor and best[0] > (1 - margin) * best_vendor[0]:
        return best_vendor[1]
    return best[1]


def judge(records, features, names, expected_products, margin, risk, near_guard):
    """Leave-one-group-out: per group, train on the others and choose for the held-out units. Returns the outcome
    per judged unit, and the units left unjudged because their chosen kernel was not measured (or not verified)
    there: (matrix, precision, device, chosen)."""
    units = defaultdict(dict)
    for r in records:
        if not r["_incomplete"]:  # no ideal to judge against
            units[unit_key(r) + (r["device"]["name"],)][r["kernel"]] = r
    groups = sorted({group_of(r) for r in records})
    outcome, unjudged = [], []
    for group in groups:
        kernels = train([r for r in records if group_of(r) != group], features, names, near_guard)
        for key, by_kernel in units.items():
            sample = next(iter(by_kernel.values()))
            if group_of(sample) != group:
                continue
            ok = {k: r for k, r in by_kernel.items() if r["status"] == "ok" and r.get("verified")}
            cusparse = [r["median_ms"] for k, r in ok.items() if r["backend"] == "cusparse"]
            if not ok or not cusparse:
                continue
            refused = {k for k, r in by_kernel.items() if r["status"] != "ok"}
            row = feature_row(features, sample, names)
            chosen = choose(kernels, names, row, sample, refused, expected_products, margin, risk)
            if chosen not in ok:
                unjudged.append((unit_name(sample), sample["precision"], key[-1], chosen))
                continue
            ideal = min(r["median_ms"] for r in ok.values())
            # Each kernel's prediction (log2 over the roofline, and its risk charge) beside its
            # measurement, for explaining a bad choice.
            predictions = {k["kernel"]: (predict_boosted(k, row), risk * k["uncertainty_log2"],
                                         within_training_range(k, row, names),
                                         log2_slowdown(ok[k["kernel"]])
                                         if k["kernel"] in ok else None) for k in kernels}
            outcome.append({"predictions": predictions, "group": group, "set": sample["set"], "device": key[-1],
                            "precision": sample["precision"], "matrix": unit_name(sample), "chosen": chosen,
                            "product": product_name(sample),
                            "loss": ok[chosen]["median_ms"] / ideal - 1,
                            "vs_cusparse": min(cusparse) / ok[chosen]["median_ms"],
                            "ideal_vs_cusparse": min(cusparse) / ideal})
    return outcome, unjudged


def product_name(r):
    """"" for the SpMV, else k and the layout ("k=16 col-major")."""
    return "" if r["k"] == 1 else f"k={r['k']} {r['layout']}"


def unit_name(r):
    """The matrix's name, with k and the layout for an SpMM unit."""
    name = r["matrix"]["name"]
    return name if r["k"] == 1 else f"{name} k={r['k']} {r['layout']}"


def summarise(outcome, out):
    def line(label, rows):
        losses = [o["loss"] for o in rows]
        gm = math.exp(statistics.mean(math.log(o["vs_cusparse"]) for o in rows))
        ideal = math.exp(statistics.mean(math.log(o["ideal_vs_cusparse"]) for o in rows))
        worst = min(rows, key=lambda o: o["vs_cusparse"])
        print(f"| {label} | {len(rows)} | {100 * statistics.mean(losses):.1f}% | {100 * statistics.median(losses):.1f}% "
              f"| {100 * max(losses):.0f}% | {gm:.2f}x | {ideal:.2f}x | {worst['vs_cusparse']:.2f}x ({worst['matrix']}) |",
              file=out)
    print("| held-out group | units | mean loss | median loss | worst loss | chosen vs best cuSPARSE (geomean) "
          "| ideal vs best cuSPARSE | worst chosen vs cuSPARSE |", file=out)
    print("|---|---:|---:|---:|---:|---:|---:|---|", file=out)
    for group in sorted({o["group"] for o in outcome}):
        line(group, [o for o in outcome if o["group"] == group])
    for kind in ("family", "real", "replicated"):
        if any(o["set"] == kind for o in outcome):
            line(f"all {kind}", [o for o in outcome if o["set"] == kind])
    products = sorted({o["product"] for o in outcome})
    if len(products) > 1:
        for product in products:
            line(f"all {product}", [o for o in outcome if o["product"] == product])
    line("all", outcome)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="spmv suite results.jsonl (or .gz)")
    parser.add_argument("--spmv", default="build/spmv", help="the spmv tool (for the features)")
    parser.add_argument("--shared-matrices", default="../shared/data/matrices",
                        help="where the real matrices named by the results are")
    parser.add_argument("--features-cache", default="bench/selector/features.jsonl")
    parser.add_argument("--kernel-changes", default="bench/selector/kernel-changes.txt",
                        help="'KERNEL TIME WHY' lines: the kernel's results from before TIME are dropped")
    parser.add_argument("--operation", choices=["spmv", "spmm"], default="spmv",
                        help="the product the model is for: SpMV (k = 1) or SpMM (k > 1, with PRODUCT_FEATURES)")
    parser.add_argument("--out", help="write the model here")
    parser.add_argument("--architecture", default="sm_90")
    parser.add_argument("--judge", help="write the held-out judgement (markdown) here")
    parser.add_argument("--expected-products", type=float, default=1e9,
                        help="the products the judgement weighs setup against (default: setup ignored)")
    parser.add_argument("--margin", type=float, default=0.0,
                        help="how much cheaper a kernel of ours must be predicted than the best cuSPARSE one")
    parser.add_argument("--risk", type=float, default=1.0,
                        help="how many of its fit's misses (log2) a kernel's prediction is charged")
    parser.add_argument("--explain", type=int, default=0,
                        help="print every kernel's prediction beside its measurement for the N worst held-out choices")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    records = read_results(args.results, args.shared_matrices, read_kernel_changes(args.kernel_changes),
                           args.operation)
    if not records:
        raise SystemExit(f"no {args.operation} results in {' '.join(args.results)}")
    features = load_features(args.spmv, records, args.features_cache, args.jobs, args.shared_matrices)
    names = list(next(iter(features.values())).keys())
    if args.operation == "spmm":
        names += PRODUCT_FEATURES
    near_guard = args.operation == "spmv"
    if args.out:
        kernels = train(records, features, names, near_guard)
        provenance = "; ".join(os.path.join(os.path.basename(os.path.dirname(p)), os.path.basename(p)) for p in args.results)
        model = {"format": "spmv-selector-model/2", "architecture": args.architecture,
                 "provenance": provenance, "vendor_margin": args.margin, "risk": args.risk, "range_slack": RANGE_SLACK,
                 "open_below": OPEN_BELOW, "open_above": OPEN_ABOVE,
                 "features": names,
                 "kernels": kernels}
        if near_guard:
            model.update({"near_features": NEAR_FEATURES, "near_slack": NEAR_SLACK})
        with open(args.out + ".tmp", "w") as f:
            json.dump(model, f, separators=(",", ":"))
        os.replace(args.out + ".tmp", args.out)
        print(f"model: {len(kernels)} kernels, {len(records)} results -> {args.out}", file=sys.stderr)
    if args.judge:
        outcome, unjudged = judge(records, features, names, args.expected_products, args.margin, args.risk,
                                  near_guard)
        with open(args.judge, "w") as f:
            summarise(outcome, f)
            f.write("\n")
            if unjudged:
                f.write(f"- not judged: {len(unjudged)} units whose chosen kernel was not measured there: "
                        + ", ".join(f"{m} {p} {d} ({k})" for m, p, d, k in sorted(unjudged)) + "\n")
            for o in sorted(outcome, key=lambda o: o["vs_cusparse"])[:15]:
                f.write(f"- worst: {o['matrix']} {o['precision']} {o['device']}: chose {o['chosen']}, "
                        f"loss {100 * o['loss']:.0f}%, {o['vs_cusparse']:.2f}x cuSPARSE\n")
        print(open(args.judge).read())
        for o in sorted(outcome, key=lambda o: -o["loss"])[:args.explain]:
            print(f"{o['matrix']} {o['precision']} {o['device']} ({o['group']}): chose {o['chosen']}, "
                  f"loss {100 * o['loss']:.0f}%; log2 time over the roofline, predicted + risk charge vs measured:")
            for kernel, (predicted, charge, familiar, measured) in sorted(o["predictions"].items(),
                                                                          key=lambda item: sum(item[1][:2])):
                print(f"  {kernel:20s} {predicted:6.2f} + {charge:.2f}  "
                      f"{'refused' if measured is None else f'{measured:6.2f}'}"
                      f"{'' if familiar else '  (outside its training range)'}")


if __name__ == "__main__":
    main()
