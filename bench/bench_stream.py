#!/usr/bin/env python3
"""Runs larger than memory (issue #23): time and peak memory of the whole process tree.

usage: python bench/bench_stream.py DIR [DIR ...] [--which ours,stock,ours-j1] [--json OUT]

Each DIR holds ``qrels.txt`` and ``run.txt`` written by ``bench/make_marco_run.py DIR QUERIES``
(an MS MARCO-shaped run: QUERIES x 100 lines; 50,000 / 200,000 / 500,000 queries are the 5M,
20M and 50M-line points of bench/README.md). For each DIR and each command it runs once:

* ``ours``: ``python -m ir_measures_pres QRELS RUN RR@10 nDCG@10 AP R@100 PRES@100`` (default
  ``--jobs``: one process per CPU, at most 4); ``ours-j1``: the same with ``--jobs 1``;
* ``stock``: the stock ``ir_measures`` CLI, ``python -m ir_measures QRELS RUN RR@10 nDCG@10 AP R@100``
  (it has no PRES).

Measured: wall time, and the peak over time of the memory of the whole process tree (the
command and every process it forks), sampled every 0.1 s from ``/proc``: the sum of each
process's proportional set size (PSS, ``/proc/PID/smaps_rollup``: a page shared by forked
workers is counted once in all), and the sum of their resident sets (RSS, which counts shared
pages once per process: an upper bound). Also the means printed, so that the tools' agreement
can be checked (``--check``: ours' four standard means must equal the stock CLI's).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

MEASURES = ["RR@10", "nDCG@10", "AP", "R@100", "PRES@100"]
STOCK_MEASURES = ["RR@10", "nDCG@10", "AP", "R@100"]


def tree(root: int) -> List[int]:
    """``root`` and its descendants (from /proc/*/stat parent ids)."""
    children: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def memory_kib(pids: List[int]) -> Tuple[int, int]:
    """(sum of PSS, sum of RSS) of ``pids`` in KiB."""
    pss = rss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                    elif line.startswith("Rss:"):
                        rss += int(line.split()[1])
        except OSError:
            continue
    return pss, rss


def measure(cmd: List[str]) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak_pss = peak_rss = 0
    while proc.poll() is None:
        pss, rss = memory_kib(tree(proc.pid))
        peak_pss, peak_rss = max(peak_pss, pss), max(peak_rss, rss)
        time.sleep(0.1)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    means = {}
    for line in out.splitlines():
        name, value = line.split("\t")[-2:]
        means[name] = float(value)
    return {
        "wall_s": round(wall, 2),
        "peak_pss_mib": peak_pss // 1024,
        "peak_rss_mib": peak_rss // 1024,
        "means": means,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--which", default="ours", help="comma-separated: ours, ours-j1, stock")
    parser.add_argument("--json", type=Path, help="append the results here (one JSON line each)")
    parser.add_argument("--check", action="store_true", help="ours' standard means must equal stock's")
    parser.add_argument("--label", default="", help="a name for the tree measured (e.g. main, stream)")
    args = parser.parse_args()
    for d in args.dirs:
        lines = sum(1 for _ in open(d / "run.txt", "rb"))
        results = {}
        for which in args.which.split(","):
            if which == "stock":
                cmd = [
                    sys.executable,
                    "-m",
                    "ir_measures",
                    str(d / "qrels.txt"),
                    str(d / "run.txt"),
                    *STOCK_MEASURES,
                ]
            else:
                cmd = [
                    sys.executable,
                    "-m",
                    "ir_measures_pres",
                    str(d / "qrels.txt"),
                    str(d / "run.txt"),
                    *MEASURES,
                ]
                if which == "ours-j1":
                    cmd += ["--jobs", "1"]
            result = {"dir": str(d), "lines": lines, "which": which, "label": args.label, **measure(cmd)}
            results[which] = result
            print(json.dumps(result), flush=True)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(json.dumps(result) + "\n")
        if args.check and "stock" in results and "ours" in results:
            ours, stock = results["ours"]["means"], results["stock"]["means"]
            same = all(f"{ours[m]:.4f}" == f"{stock[m]:.4f}" for m in STOCK_MEASURES)
            print(f"{d}: standard means {'identical' if same else 'DIFFER'} to the stock CLI's", flush=True)


if __name__ == "__main__":
    main()
