#!/usr/bin/env python3
"""Tests bench/report.py on a small synthetic results folder whose figures are
known: the speed-ups, geometric means, ideal-vs-chosen shares, failures and
crossover it must report, the plots it must draw and the notes it must keep.
Exits 77 (CTest: skipped) when matplotlib is missing."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("matplotlib is not installed: report.py cannot draw its plots; skipped")
    sys.exit(77)

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "report.py")
DEVICE = {"name": "NVIDIA TestGPU", "multiprocessors": 132, "l2_bytes": 62914560,
          "memory_bytes": 150 * 2**30, "cuda_runtime_version": "13.0",
          "cuda_driver_version": "13.0", "cusparse_version": "12.6.3"}


def line(set_name, matrix, precision, backend, kernel, ms, chosen=None, status="ok",
         in_cache=False, message="", fmt="csr", build_seconds=0.0, **extra):
    rate = 1.0 / ms if ms else 0.0
    return {**extra, "format": fmt, "build_seconds": build_seconds, "matrix_bytes": 120000,
            **{"time": "2026-11-20T10:00:00Z", "set": set_name,
            "matrix": {"name": matrix, "source": matrix + ".mtx.gz", "copies": 1, "rows": 1000,
                       "cols": 1000, "nnz": 10000, "mean_row_length": 10.0, "row_length_std": 1.0,
                       "max_row_length": 12, "product_bytes": 136004, "cache_bytes": 62914560,
                       "in_cache": in_cache},
            "precision": precision, "operation": "spmv", "k": 1, "layout": "row-major",
            "alpha": 1.0, "beta": 0.0, "warmup": 3, "runs": 30, "flush_caches": True,
            "host_operand_runs": 5, "backend": backend, "kernel": kernel,
            "chosen_kernel": chosen or kernel, "params": {}, "status": status,
            "message": message, "median_ms": ms, "gflops": 200 * rate, "gbs": 1360 * rate,
            "percent_of_copy_bandwidth": 100 * 1360 * rate / 4000.0 if ms else None,
            "verified": status != "skipped",
            "host_operand_ms": ms + 1.0, "host_transfer_ms": 0.9,
            "host_operand_gflops": 0.02 / (ms + 1.0), "device": DEVICE,
            "copy_bandwidth_gbs": 4000.0, "host_threads": 16}}


def synthetic_lines():
    return [
        # real/A f64: best ours csr-merge 1.0 ms, best cuSPARSE 2.0 ms: 2.00x;
        # auto chose csr-vector at 1.5 ms: 67% of the ideal.
        line("real", "A", "f64", "cusparse", "cusparse-csr-alg1", 2.0, in_cache=True),
        line("real", "A", "f64", "cusparse", "cusparse-coo", 3.0, in_cache=True),
        line("real", "A", "f64", "cuda", "auto", 1.5, chosen="csr-vector", in_cache=True),
        line("real", "A", "f64", "cuda", "csr-vector", 1.5, in_cache=True),
        line("real", "A", "f64", "cuda", "csr-merge", 1.0, in_cache=True),
        # real/A f32: 2.00x, auto is the ideal.
        line("real", "A", "f32", "cusparse", "cusparse-csr-alg1", 1.0, in_cache=True),
        line("real", "A", "f32", "cuda", "auto", 0.5, chosen="csr-merge", in_cache=True),
        line("real", "A", "f32", "cuda", "csr-merge", 0.5, in_cache=True),
        # family/F f64: cuSPARSE wins, 0.80x; ell failed verification.
        line("family", "F", "f64", "cusparse", "cusparse-csr-alg1", 4.0),
        line("family", "F", "f64", "cuda", "auto", 5.0, chosen="csr-vector"),
        line("family", "F", "f64", "cuda", "csr-vector", 5.0),
        line("family", "F", "f64", "cuda", "csr-merge", 8.0),
        line("family", "F", "f64", "cuda", "ell", 0.0, status="FAILED",
             message="wrong result: row 3 differs", fmt="ell"),
        # The blocked format: 6 ms per product, 90 ms to build (inspect): 15x.
        line("family", "F", "f64", "cuda", "blocked", 6.0, fmt="blocked", build_seconds=0.09),
        # Refused at plan time: no format recorded (the kernel's name stands for it).
        line("family", "F", "f64", "cuda", "dia", 0.0, status="skipped", fmt="",
             message="DIA would need 57.3x the CSR bytes"),
        # family/F f32: 2.00x.
        line("family", "F", "f32", "cusparse", "cusparse-csr-alg1", 2.0),
        line("family", "F", "f32", "cuda", "auto", 1.0, chosen="csr-merge"),
        line("family", "F", "f32", "cuda", "csr-merge", 1.0),
        # BRO-ELL: 1.25 ms against ell's 1.5 (1.20x) and cuSPARSE's 2.0 (1.60x);
        # once more on the BAR-reordered matrix, without compression figures.
        line("family", "F", "f32", "cuda", "ell", 1.5, fmt="ell"),
        line("family", "F", "f32", "cuda", "bro-ell", 1.25, fmt="bro-ell",
             compression={"eta": 0.62, "kappa": 2.63, "bytes_per_nonzero": 9.5}),
        line("family", "F", "f32", "cuda", "bro-ell", 1.1, fmt="bro-ell", reordering="bar"),
    ]


def bench_result(backend, kernel, ms, gbs, params=None):
    return {"backend": backend, "kernel": kernel, "chosen_kernel": kernel, "format": "csr",
            "params": params or {}, "status": "ok", "message": "", "median_ms": ms, "gbs": gbs,
            "percent_of_copy_bandwidth": 100 * gbs / 4000.0 if backend != "cpu" else None}


def spmm_document(source, k, precision, results, out_of_core=None):
    document = {"matrix": {"source": source, "rows": 1000, "cols": 1000, "nnz": 27000},
                "precision": precision, "operation": "spmm", "k": k, "layout": "row-major",
                "alpha": 1.0, "beta": 0.0, "warmup": 2, "runs": 10, "backend": "cuda",
                "host_threads": 16, "device": DEVICE, "copy_bandwidth_gbs": 4000.0,
                "results": results}
    if out_of_core:
        document["layout"] = "col-major"
        document["out_of_core"] = out_of_core
    return document


def ooc_run(schedule, copy_in, copy_out, processing, total, af=None, floor1=None):
    return {"kernel": "spmm-fastspmm", "params": {}, "schedule": schedule, "status": "ok",
            "message": "", "chunk_columns": 8, "chunks": 4, "copy_in_ms": copy_in,
            "copy_out_ms": copy_out, "communication_ms": copy_in + copy_out,
            "processing_ms": processing, "total_ms": total, "acceleration_factor": af,
            "total_over_max_ct_pt": floor1}


SPMM_CASES = {
    # ours 0.5 ms, best cuSPARSE 1.5 ms (3.00x), CPU 10 ms (20.00x).
    "in-core-stencil27-k8-f64": spmm_document("stencil27:n=100", 8, "f64", [
        bench_result("cusparse", "cusparse-spmm-alg1", 2.0, 500.0),
        bench_result("cusparse", "cusparse-spmm-alg3", 1.5, 700.0),
        bench_result("cuda", "spmm-csr-vec", 0.8, 1300.0),
        bench_result("cuda", "spmm-fastspmm", 0.5, 2000.0, {"columns_per_pass": 8}),
        bench_result("cpu", "cpu-csr", 10.0, 100.0)]),
    # CT 4.7, PT 4.4, sequential 9.1, overlapped 5.0: AF 1.82, 1.06 of max(CT, PT).
    "out-of-core-balanced": spmm_document("uniform:rows=500000,cols=500000,per_row=40", 32, "f64", [
        bench_result("cusparse", "cusparse-spmm-alg1", 20.0, 100.0),
        bench_result("cuda", "spmm-fastspmm", 4.0, 500.0)], {
            "device_memory_cap": 0, "chunk_columns_requested": 8, "streams": 3,
            "runs": [ooc_run("sequential", 2.4, 2.3, 4.4, 9.1),
                     ooc_run("overlapped", 2.5, 2.4, 4.5, 5.0, af=1.82, floor1=1.06)]}),
}


# A scripts/bro-report.sh case: af23560 after RCM; bro-ell 1.0 ms against
# ell 1.5 (1.50x) and the best cuSPARSE 2.0 (2.00x).
BRO_CASES = {
    "af23560-rcm": dict(spmm_document("/data/af23560.mtx.gz", 1, "f64", [
        bench_result("cusparse", "cusparse-csr-alg1", 2.0, 500.0),
        dict(bench_result("cuda", "bro-ell", 1.0, 1000.0), format="bro-ell", matrix_bytes=67500,
             compression={"eta": 0.8, "kappa": 5.0, "eta_vs_csr": 0.7, "kappa_vs_csr": 3.3,
                          "bytes_per_nonzero": 2.5, "effective_arithmetic_intensity": 0.5}),
        dict(bench_result("cuda", "ell", 1.5, 800.0), format="ell"),
        bench_result("cuda", "csr-vector-tuned", 1.2, 900.0)]), operation="spmv", reordering="rcm"),
}


def ellrt_line(name, status, model, best, ratio):
    def timing(t):
        return None if t is None else {"threads_per_row": t[0], "block_size": t[1],
                                       "status": "ok", "message": "", "median_ms": t[2]}
    return {"name": name, "spec": name + ":n=1", "precision": "f64", "device": "NVIDIA TestGPU",
            "rows": 1000, "nnz": 27000, "mean_row_length": 27.0, "max_row_length": 27,
            "target_ratio": 1.1, "runs": 20, "status": status, "message": "",
            "model": timing(model), "best": timing(best), "model_over_best": ratio,
            "within_target": None if ratio is None else ratio <= 1.1, "configurations": []}


ELLRT_LINES = [
    ellrt_line("stencil27", "ok", (1, 256, 0.33), (2, 128, 0.31), 0.33 / 0.31),
    ellrt_line("uniform", "ok", (1, 256, 1.40), (4, 256, 1.00), 1.40),
    ellrt_line("rmat", "refused", None, None, None),
]


def crossover_row(precision, density, kernel, backend, ms):
    return {"precision": precision, "density": density, "per_row": int(density * 100),
            "nnz": int(density * 10000), "backend": backend, "kernel": kernel,
            "chosen_kernel": kernel, "status": "ok", "median_ms": ms, "gflops": 1.0}


MICRO = {
    "time": "2026-11-20T09:00:00Z", "device": DEVICE, "copy_bandwidth_gbs": 4000.0, "runs": 10,
    "buffer_bytes": 503316480,
    "reads": [{"pattern": p, "floats_per_thread": 20, "threads_per_block": t, "load_bytes": b,
               "path": path, "blocks": 1, "bytes": 1, "median_ms": 1.0,
               "gbs": 1000.0 + t + b + (500 if p == "coalesced" else 0)}
              for p in ["coalesced", "sequential"] for t in [32, 64] for b in [4, 8, 16]
              for path in ["plain", "read-only"]],
    "row_reads": [{"pattern": p, "row_floats": n, "bytes": 1, "median_ms": 1.0, "gbs": g}
                  for p, n, g in [("coalesced", 1, 100), ("sequential", 1, 900),
                                  ("coalesced", 64, 3000), ("sequential", 64, 1200)]],
    "copies": [{"direction": d, "page_locked": l, "bytes": 1 << 20, "median_ms": 1.0,
                "gbs": 20.0 if l else 8.0}
               for d in ["host-to-device", "device-to-host"] for l in [False, True]],
    "crossover": {"size": 100, "dense_kernel": "dense-cublas", "rows": [
        crossover_row("f64", 0.01, "dense-cublas", "cuda", 1.0),
        crossover_row("f64", 0.01, "csr-merge", "cuda", 0.1),
        crossover_row("f64", 0.01, "cusparse-csr-alg1", "cusparse", 0.2),
        crossover_row("f64", 0.5, "dense-cublas", "cuda", 1.0),
        crossover_row("f64", 0.5, "csr-merge", "cuda", 1.5),
    ]},
}


class ReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="spmv-report-test-")
        results = os.path.join(cls.dir, "results")
        os.makedirs(results)
        with open(os.path.join(results, "results.jsonl"), "w") as f:
            for entry in synthetic_lines():
                f.write(json.dumps(entry) + "\n")
            f.write('{"time": "cut short')  # an interrupted append: ignored
        suite = {"status": "stopped by the time limit", "replicate_to": 4, "cache_bytes": 62914560,
                 "units": [{"set": "replicated", "matrix": "A", "precision": "f64", "k": 1,
                            "measured": False}]}
        with open(os.path.join(results, "suite.json"), "w") as f:
            json.dump(suite, f)
        with open(os.path.join(results, "micro.json"), "w") as f:
            json.dump(MICRO, f)
        os.makedirs(os.path.join(results, "spmm"))
        for name, document in SPMM_CASES.items():
            with open(os.path.join(results, "spmm", name + ".json"), "w") as f:
                json.dump(document, f, indent=2)
        os.makedirs(os.path.join(results, "bro"))
        for name, document in BRO_CASES.items():
            with open(os.path.join(results, "bro", name + ".json"), "w") as f:
                json.dump(document, f, indent=2)
        with open(os.path.join(results, "ellrt_model.jsonl"), "w") as f:
            f.writelines(json.dumps(x) + "\n" for x in ELLRT_LINES)
        # Only the micro-benchmarks: every other section says it was not measured.
        micro_only = os.path.join(cls.dir, "micro-only")
        os.makedirs(micro_only)
        with open(os.path.join(micro_only, "micro.json"), "w") as f:
            json.dump(MICRO, f)
        cls.micro_only_out = os.path.join(cls.dir, "micro-only-docs", "benchmarks.md")
        subprocess.run([sys.executable, REPORT, micro_only, "--out", cls.micro_only_out,
                        "--notes", "/nonexistent"], check=True, capture_output=True)
        with open(cls.micro_only_out) as f:
            cls.micro_only_text = f.read()
        cls.notes = os.path.join(cls.dir, "notes.md")
        with open(cls.notes, "w") as f:
            f.write("## Hand-written\n\nKept as it is.\n")
        cls.out = os.path.join(cls.dir, "docs", "benchmarks.md")
        subprocess.run([sys.executable, REPORT, results, "--out", cls.out, "--notes", cls.notes],
                       check=True, capture_output=True)
        with open(cls.out) as f:
            cls.text = f.read()
        cls.summary = subprocess.run([sys.executable, REPORT, "--summary", results], check=True,
                                     capture_output=True, text=True).stdout

    def test_header_comes_from_the_data(self):
        self.assertIn("# Benchmarks on NVIDIA TestGPU", self.text)
        self.assertIn("CUDA runtime 13.0, driver 13.0, cuSPARSE 12.6.3", self.text)
        self.assertIn("Measured 2026-11-20", self.text)

    def test_speedups_and_geometric_means(self):
        # % copy: 1360 GB/s at 1 ms against a copy bandwidth of 4000 GB/s is 34%.
        self.assertIn("| A | 1000 | 10000 | 10.0 | in L2 | csr-merge | 34% | cusparse-csr-alg1 17% "
                      "| 2.00x | csr-merge | 68% | cusparse-csr-alg1 34% | 2.00x |", self.text)
        self.assertIn("| F | 1000 | 10000 | 10.0 | csr-vector | 7% | cusparse-csr-alg1 8% | 0.80x",
                      self.text)
        self.assertIn("f64: geometric-mean speed-up of the best kernel over the best cuSPARSE "
                      "algorithm: 1.26x over 2 matrices; slowest 0.80x", self.summary)

    def test_ideal_vs_chosen(self):
        # real f64: ideal 1.0 ms, auto 1.5 ms.
        self.assertIn("| Real matrices as they are | f64 | 1 | 67% | 67% | 0/1 | 0/1 |", self.text)
        self.assertIn("| Real matrices as they are | f32 | 1 | 100% | 100% | 1/1 | 1/1 |", self.text)

    def test_failures_coverage_and_notes(self):
        self.assertIn("| family | F | f64 | cuda/ell | wrong result: row 3 differs |", self.text)
        self.assertIn("Not measured (stopped by the time limit", self.text)
        self.assertIn("replicated/A f64", self.text)
        self.assertTrue(self.text.rstrip().endswith("Kept as it is."))

    def test_micro_sections(self):
        self.assertIn("Best coalesced: 1580 GB/s (40% of the copy bandwidth) with 16-byte plain "
                      "loads, 64 threads per block", self.text)
        self.assertIn("f64: dense is as fast as sparse from a density of 50% on.", self.text)
        self.assertIn("| host-to-device | page-locked | 20.00 |", self.text)

    def test_plots_are_pngs(self):
        images = os.path.join(self.dir, "docs", "img")
        for name in ["speedup_per_matrix.png", "bandwidth_vs_row_length.png",
                     "best_kernel_per_matrix.png", "gflops_by_kernel.png", "ideal_vs_chosen.png",
                     "micro_reads.png", "micro_rows.png", "micro_crossover.png"]:
            with open(os.path.join(images, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
            self.assertIn(f"(img/{name})", self.text)

    def test_format_wins(self):
        # F f64: cuSPARSE 4 ms is the fastest; csr-vector 5 (1.25), ell failed, dia refused,
        # blocked 6 (1.50).
        self.assertIn("| family | fastest kernel | csr | ell | dia | blocked | bro-ell | cuSPARSE |",
                      self.text)
        self.assertIn("| F | cusparse-csr-alg1 | 1.25 | - | refused | 1.50 | - | **1.00** |",
                      self.text)
        self.assertIn("| F | csr-merge | **1.00** | 1.50 | - | - | 1.25 | 2.00 |", self.text)

    def test_blocked_inspection(self):
        self.assertIn("| Generated families | f64 | 1 | 15.0 | 15.0 | 15.0 |", self.text)
        self.assertIn("| F | f64 | 90 | 6 | 15.0 |", self.text)

    def test_bro_section(self):
        self.assertIn("| family | F | f32 | bro-ell | 0.62 | 2.63 | 9.50 | 1.25 | 27% | 1.5 | - | 1 "
                      "| 2 | 1.20x | 1.60x |", self.text)
        # Reordered: its own unit; bytes per non-zero from matrix_bytes / nnz.
        self.assertIn("| family | F [bar] | f32 | bro-ell | - | - | 12.00 | 1.1 |", self.text)
        # A scripts/bro-report.sh case, named after its file and its reordering.
        self.assertIn("| reordering | af23560 [rcm] | f64 | bro-ell | 0.80 | 5.00 | 2.50 | 1 | 25% | 1.5 "
                      "| - | 1.2 | 2 | 1.50x | 2.00x |", self.text)

    def test_ellrt_model_section(self):
        self.assertIn("| stencil27 | f64 | 1000 | 27000 | 27.0 | T=1 BS=256 | 0.33 | T=2 BS=128 | "
                      "0.31 | 1.06x | yes |", self.text)
        self.assertIn("| T=4 BS=256 | 1 | 1.40x | **no** |", self.text)
        self.assertIn("Within the target on 1 of 2 matrices; the worst, uniform f64, at 1.40x",
                      self.text)
        self.assertIn("ELLPACK-R refused (padding beyond its limit): rmat.", self.text)

    def test_spmm_sections(self):
        self.assertIn("| stencil27 n=100 | f64 | 8 | row | spmm-fastspmm (columns_per_pass=8) | 0.5 "
                      "| 2000 | 50% | cusparse-spmm-alg3 | 1.5 | 10 | 100 | 3.00x | 20.00x |",
                      self.text)
        self.assertIn("| out-of-core-balanced: uniform rows=500000,cols=500000,per_row=40, k=32, f64 "
                      "| spmm-fastspmm | 8, 4 | 3 | 4.7 | 4.4 | 9.1 | 51.6 | 5 | 1.82 | 1.06 | ok |",
                      self.text)

    def test_missing_inputs_say_so(self):
        for title in ["SpMV suite", "Which format wins on which family",
                      "Blocked format: inspection time", "ELLR-T configuration model vs search",
                      "BRO index compression", "SpMM in core", "SpMM out of core"]:
            self.assertIn(f"## {title}\n\nNot measured in this run (", self.micro_only_text)
        self.assertIn("# Benchmarks on NVIDIA TestGPU", self.micro_only_text)
        self.assertIn("Best coalesced: 1580 GB/s", self.micro_only_text)


if __name__ == "__main__":
    unittest.main()
