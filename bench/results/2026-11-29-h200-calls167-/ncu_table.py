#!/usr/bin/env python3
"""The product kernel's counters from ncu csv files of a call's results archive (calls 168, 170: r/ncu-*.csv): of
each file the launch of the kernel matching PATTERN with the largest grid (the warm-up on the first rows has a
small one).
    ncu_table.py CALL-RESULTS.tgz PATTERN"""
import csv, io, sys, tarfile

columns = [("gpu__time_duration.sum", "us", 1e-3), ("dram__bytes_read.sum", "DRAM MB", 1e-6),
           ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 sectors M", 1e-6),
           ("l1tex__t_sector_hit_rate.pct", "L1 hit %", 1), ("lts__throughput.avg.pct_of_peak_sustained_elapsed",
                                                              "L2 % peak", 1),
           ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM % peak", 1),
           ("sm__warps_active.avg.pct_of_peak_sustained_active", "warps active %", 1),
           ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue active %", 1),
           ("smsp__inst_executed.sum", "warp instructions M", 1e-6),
           ("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "long scoreboard", 1),
           ("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "barrier", 1),
           ("launch__block_size", "block", 1), ("launch__registers_per_thread", "registers", 1)]
print("| file | " + " | ".join(c[1] for c in columns) + " |")
print("|---|" + "---:|" * len(columns))
with tarfile.open(sys.argv[1]) as archive:
    for member in sorted(archive.getmembers(), key=lambda m: m.name):
        name = member.name.rsplit("/", 1)[-1]
        if not (name.startswith("ncu-") and name.endswith(".csv")):
            continue
        text = archive.extractfile(member).read().decode()
        rows = list(csv.DictReader(io.StringIO("".join(l + "\n" for l in text.splitlines() if l.startswith('"')))))
        launches = {}
        for r in rows:
            if sys.argv[2] in r["Kernel Name"]:
                launches.setdefault(r["ID"], {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        if not launches:
            continue
        big = max(launches.values(), key=lambda m: m["launch__grid_size"])
        print(f"| {name[4:-4]} | " + " | ".join(f"{big[m] * scale:.4g}" for m, _, scale in columns) + " |")
