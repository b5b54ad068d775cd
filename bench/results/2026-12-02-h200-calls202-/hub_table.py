#!/usr/bin/env python3
"""csr-hub's hub_min_share on the GPU: per unit of hubcheck.txt and bench/families.txt, auto of call 203 (csr-hub
refused below the share, the plan's next candidate built) and of call 204 (csr-hub hands the matrix to
csr-adaptive), beside csr-hub named (its hubs always kept: what the model's csr-hub choice ran before) and
csr-adaptive, each over the best cuSPARSE algorithm of the same call.

    python3 hub_table.py        (reads call203-results.tgz and call204-results.tgz beside it)
"""
import collections
import io
import json
import pathlib
import tarfile

here = pathlib.Path(__file__).parent


def units(call):
    found = collections.defaultdict(dict)
    with tarfile.open(here / f"call{call}-results.tgz") as archive:
        for member in archive.getmembers():
            if not member.name.endswith("results.jsonl"):
                continue
            for line in io.TextIOWrapper(archive.extractfile(member)):
                r = json.loads(line)
                if r["status"] == "ok":
                    found[(r["matrix"]["name"], r["precision"])][r["kernel"]] = r
    return found


def main():
    refused, handed = units(203), units(204)
    print(f"{'matrix':12} {'prec':4} {'call 203 auto':>26} {'call 204 auto':>26} {'csr-hub':>8} {'csr-adaptive':>12}")
    for key, kernels in handed.items():
        vendor = min(r["median_ms"] for r in kernels.values() if r["backend"] == "cusparse")
        before = refused.get(key, {})
        vendor_before = min((r["median_ms"] for r in before.values() if r["backend"] == "cusparse"), default=None)

        def over(r, best):
            return f"{best / r['median_ms']:.2f}x" if r else "-"
        auto_203 = before.get("auto")
        text_203 = f"{auto_203['chosen_kernel']} {over(auto_203, vendor_before)}" if auto_203 else "-"
        auto_204 = kernels["auto"]
        print(f"{key[0]:12} {key[1]:4} {text_203:>26} {auto_204['chosen_kernel'] + ' ' + over(auto_204, vendor):>26} "
              f"{over(kernels.get('csr-hub'), vendor):>8} {over(kernels.get('csr-adaptive'), vendor):>12}")


if __name__ == "__main__":
    main()
