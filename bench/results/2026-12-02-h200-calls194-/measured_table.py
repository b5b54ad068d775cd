#!/usr/bin/env python3
"""Call 200's table: A^T's plan in the measure mode (spmv plan --explicit-transpose --measure --json), per matrix
and precision: the model's choice, the measured winner, every timed candidate and the products the measure mode ran.

    measured_table.py PLAN.json ...   (files named NAME-PRECISION.json)
"""
import json
import os
import sys


def main():
    print("| matrix | precision | model's first for A^T | measured choice | timed candidates, ms per product | "
          "products run | measurement ms |")
    print("|---|---|---|---|---|---:|---:|")
    for path in sys.argv[1:]:
        name, precision = os.path.basename(path)[: -len(".json")].rsplit("-", 1)
        with open(path) as f:
            plan = json.load(f)["transposed"]
        model_choice = plan["candidates"][0]["kernel"]  # ranked by the model's predicted cost
        timed = [f"{c['kernel']} {1e3 * c['measured_seconds']:.4f}" for c in plan["candidates"]
                 if c["measured_seconds"] is not None]
        print(f"| {name} | {precision} | {model_choice} | {plan['options']['kernel']} ({plan['tuning']}) | "
              f"{', '.join(timed)} | {plan['measured_products']} | {1e3 * plan['measurement_seconds']:.1f} |")


if __name__ == "__main__":
    main()
