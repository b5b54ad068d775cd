#!/usr/bin/env python3
"""Call 196's BMRM table: `spmv train` with the old default (coo on X and a stored X^T) against the new one (X and
X^T each planned), from the JSON files of call196.sh. Both runs stop at the same iteration limit or converge.

    bmrm_table.py RESULTS_DIR
"""
import glob
import json
import os
import sys


def main():
    folder = sys.argv[1]
    print("| data | precision | rows x cols, nnz | kernels before (coo) / now | iterations before / now | "
          "compute s before / now | per iteration ms before / now | transpose (build) s before / now | "
          "total s before / now | objective before / now |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for before_path in sorted(glob.glob(os.path.join(folder, "*-coo.json"))):
        now_path = before_path[: -len("-coo.json")] + "-planned.json"
        if not os.path.exists(now_path):
            continue
        with open(before_path) as f:
            before = json.load(f)
        with open(now_path) as f:
            now = json.load(f)
        data, precision = os.path.basename(before_path)[: -len("-coo.json")].rsplit("-", 1)
        per_iteration = [1e3 * r["times"]["compute"] / max(r["iterations"], 1) for r in (before, now)]
        kernels = f"{before['kernel']} / {now['kernel']} + {now['transposed_kernel'] or '-'}"
        print(f"| {data} | {precision} | {now['rows']} x {now['cols']}, {now['nnz']} | {kernels} | "
              f"{before['iterations']} / {now['iterations']} | "
              f"{before['times']['compute']:.3f} / {now['times']['compute']:.3f} | "
              f"{per_iteration[0]:.3f} / {per_iteration[1]:.3f} | "
              f"{before['times']['transpose']:.3f} / {now['times']['transpose']:.3f} | "
              f"{before['times']['total']:.3f} / {now['times']['total']:.3f} | "
              f"{before['objective']:.6g} / {now['objective']:.6g} |")


if __name__ == "__main__":
    main()
