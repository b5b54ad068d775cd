#!/usr/bin/env python3
"""bench/train_selector.py computes the SpMM model's product features and byte model from suite results
(product_features, roofline_bytes); the library computes them from the plan (src/select/features.cpp). Both
must agree, or the model would be trained on other inputs than it is asked about: `spmv plan --json --k K`
against the script, for both layouts and precisions. Usage: test_spmm_features.py SPMV"""
import json
import math
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import train_selector  # noqa: E402

SPMV = sys.argv.pop(1) if len(sys.argv) > 1 else "build/spmv"
L2, SMS = 52428800, 132


class SpmmFeatures(unittest.TestCase):
    def plan(self, spec, precision, k, layout):
        out = subprocess.run([SPMV, "plan", "--json", "--gen", spec, "--precision", precision, "--k", str(k),
                              "--layout", layout, "--device-l2", str(L2), "--device-sms", str(SMS),
                              "--device-bandwidth", "1000"], check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    def test_the_script_computes_the_library_s_product_features(self):
        for spec, precision, k, layout in [("stencil5:n=40", "f64", 8, "col"), ("rmat:scale=10", "f32", 3, "row"),
                                           ("uniform:rows=300,cols=5000,per_row=7", "f32", 64, "col")]:
            with self.subTest(spec=spec, precision=precision, k=k, layout=layout):
                plan = self.plan(spec, precision, k, layout)
                names = list(plan["features"])
                self.assertEqual(names[-3:], train_selector.PRODUCT_FEATURES)
                record = {"k": k, "precision": precision, "layout": layout + "-major",
                          "matrix": {"rows": plan["rows"], "cols": plan["cols"]}, "device": {"l2_bytes": L2}}
                library = [plan["features"][n] for n in train_selector.PRODUCT_FEATURES]
                for ours, theirs in zip(train_selector.product_features(record), library):
                    self.assertTrue(math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9), (ours, theirs))

    def test_the_spmm_byte_model_grows_by_b_and_c(self):
        record = {"k": 5, "precision": "f32", "matrix": {"rows": 10, "cols": 20, "product_bytes": 1000}}
        self.assertEqual(train_selector.roofline_bytes(record), 1000 + (10 + 20) * 4 * 4)
        record["k"] = 1
        self.assertEqual(train_selector.roofline_bytes(record), 1000)


if __name__ == "__main__":
    unittest.main()
