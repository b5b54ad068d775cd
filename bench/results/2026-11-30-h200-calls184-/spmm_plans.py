"""Prints the table of calls 187-188 from the `spmv plan --k K --measure` outputs in DIR: per matrix, k, layout and
precision, the SpMM kernel the measure mode chose and the backend's default SpMM (FastSpMM for k <= 8 where its
ELLPACK-R copy is accepted, else spmm-csr-vec), each measured time against the best cuSPARSE SpMM algorithm's, all
timed by the same plan."""
import pathlib
import re
import sys

print("| matrix | k | layout | precision | chosen | ms | best cuSPARSE | ms | speed-up | default SpMM | ms | speed-up |")
print("|---|---:|---|---|---|---:|---|---:|---:|---|---:|---:|")
for path in sorted(pathlib.Path(sys.argv[1]).glob("plan-*.txt")):
    name, k, layout, precision = re.match(r"plan-(.+)-k(\d+)-(row|col)-(f32|f64)\.txt", path.name).groups()
    text = path.read_text()
    chosen = re.search(r"^choice\s+\S+ (\S+?),", text, re.M)
    # A candidate's line: rank, kernel, backend, format, three predictions, measured ms, setup ms, refusal.
    rows = [line.split() for line in text.splitlines() if re.match(r"\s+\d+\s+\S+\s+(cuda|cusparse)\s", line)]
    measured = {row[1]: float(row[7]) for row in rows if row[7] != "-"}
    vendor = {k: v for k, v in measured.items() if k.startswith("cusparse")}
    if not chosen or not vendor or chosen.group(1) not in measured:
        print(f"| {name} | {k} | {layout} | {precision} | failed: see {path.name} | | | | | | | |")
        continue
    best_vendor = min(vendor, key=vendor.get)
    ours = measured[chosen.group(1)]
    default = "spmm-fastspmm" if int(k) <= 8 and "spmm-fastspmm" in measured else "spmm-csr-vec"
    print(f"| {name} | {k} | {layout} | {precision} | {chosen.group(1)} | {ours:.4f} | {best_vendor} | "
          f"{vendor[best_vendor]:.4f} | {vendor[best_vendor] / ours:.2f}x | {default} | {measured[default]:.4f} | "
          f"{vendor[best_vendor] / measured[default]:.2f}x |")
