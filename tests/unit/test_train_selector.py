#!/usr/bin/env python3
"""Tests which suite units bench/train_selector.py may judge the selector on: a unit whose ideal is unknown (a
kernel its device usually measures is missing, or was dropped for a change of that kernel) is marked incomplete,
and the others are not. Synthetic results files; pure Python."""
import gzip
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import train_selector  # noqa: E402

H200 = {"name": "NVIDIA H200", "multiprocessors": 132, "l2_bytes": 62914560}
H100 = {"name": "NVIDIA H100", "multiprocessors": 132, "l2_bytes": 52428800}
USUAL = ["csr-adaptive", "dia", "ell", "cusparse-csr-alg1"]


def result(matrix, kernel, device=H200, ms=1.0, time="2026-11-28T10:00:00Z"):
    return {"operation": "spmv", "k": 1, "reordering": "none", "kernel": kernel, "device": device,
            "copy_bandwidth_gbs": 4000.0, "set": "family", "precision": "f64", "time": time,
            "backend": "cusparse" if kernel.startswith("cusparse") else "cuda", "status": "ok", "verified": True,
            "median_ms": ms, "matrix": {"source": matrix, "name": matrix, "copies": 1, "nnz": 1000,
                                        "product_bytes": 20000}}


class IncompleteUnits(unittest.TestCase):
    def read(self, records, kernel_changes=None):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "results.jsonl.gz")
            with gzip.open(path, "wt") as f:
                for r in records:
                    f.write(json.dumps(r) + "\n")
            read = train_selector.read_results([path], folder, kernel_changes or {})
        return {(r["matrix"]["source"], r["device"]["name"]): r["_incomplete"] for r in read}

    def test_a_unit_measured_for_some_kernels_only_is_incomplete(self):
        records = [result(m, k) for m in ("stencil5:n=10", "stencil7:n=10", "uniform:rows=9") for k in USUAL]
        records += [result("stencil27:n=10", k) for k in ("csr-adaptive", "cusparse-csr-alg1")]
        incomplete = self.read(records)
        self.assertTrue(incomplete[("stencil27:n=10", "NVIDIA H200")])
        for matrix in ("stencil5:n=10", "stencil7:n=10", "uniform:rows=9"):
            self.assertFalse(incomplete[(matrix, "NVIDIA H200")])

    def test_each_device_has_its_own_usual_kernels(self):
        # The H100 measured two kernels on every unit: its units are complete, the H200's full ones too.
        records = [result(m, k) for m in ("a", "b", "c") for k in USUAL]
        records += [result(m, k, device=H100) for m in ("a", "b") for k in ("csr-adaptive", "cusparse-csr-alg1")]
        incomplete = self.read(records)
        self.assertEqual(set(incomplete.values()), {False})

    def test_a_unit_whose_changed_kernel_was_not_measured_again_is_incomplete(self):
        records = [result(m, k) for m in ("a", "b", "c") for k in USUAL]
        records += [result(m, "dia", time="2026-11-29T12:00:00Z") for m in ("a", "b")]
        incomplete = self.read(records, {"dia": "2026-11-29T00:00:00Z"})
        self.assertTrue(incomplete[("c", "NVIDIA H200")])
        self.assertFalse(incomplete[("a", "NVIDIA H200")])
        self.assertFalse(incomplete[("b", "NVIDIA H200")])


if __name__ == "__main__":
    unittest.main()
