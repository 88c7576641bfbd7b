#!/usr/bin/env python3
"""Issue #30, speed: what ``--ci`` and ``--bounds`` cost the main command.

usage: python bench/bench_uncertainty.py [--reps 5] [--data ../shared/data/real/trec-robust-2003]
                                         [--json OUT]

Runs ``python -m ir_measures_pres QRELS RUNS/ AP nDCG@10 P@10 PRES@1000`` on the 17 TREC Robust
2003 runs (100 topics, 1,000 documents each) once per case and repetition, the cases interleaved
within each repetition (this machine is shared: a slow minute hits every case alike), and prints
each case's median wall time and its ratio to the plain call, and the same for the CPU time
(user + system of the command and its forked workers, which other load on the machine moves less).
Targets (issue #30): ``--ci 0.95``
(t) within 1.1x of the plain call, ``--bounds`` within 3x. The means each case prints are checked
to be the plain call's (a case that changed a number would not be a fair comparison).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "real" / "trec-robust-2003"
MEASURES = ["AP nDCG@10 P@10 PRES@1000"]

#: name -> the options added to the plain call (bench/bench_bounds.py times --bounds in one
#: process, --jobs 1; here every case runs with the command's default jobs)
CASES: Dict[str, List[str]] = {
    "plain": [],
    "ci-t": ["--ci", "0.95"],
    "bounds": ["--bounds"],
}
TARGETS = {"ci-t": 1.1, "bounds": 3.0}


def command(data: Path, extra: List[str]) -> List[str]:
    qrels = data / "qrels" / "robust03_qrels.txt"
    return [sys.executable, "-m", "ir_measures_pres", str(qrels), str(data / "runs"), *MEASURES, *extra]


def means(output: str) -> Dict[str, str]:
    """(run, measure) -> the mean as printed (the first three tsv cells of each row)."""
    rows = [line.split("\t") for line in output.splitlines() if line.strip()]
    return {f"{r[0]} {r[1]}": r[2] for r in rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not (args.data / "runs").is_dir():
        sys.exit(f"no runs under {args.data}: pass --data (../shared/data/real/trec-robust-2003)")
    times: Dict[str, List[float]] = {name: [] for name in CASES}
    cpu: Dict[str, List[float]] = {name: [] for name in CASES}  # user + system of the process tree
    printed: Dict[str, Dict[str, str]] = {}
    subprocess.run(command(args.data, []), capture_output=True, check=True)  # warm the file cache
    for _ in range(args.reps):
        for name, extra in CASES.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(command(args.data, extra), capture_output=True, text=True, check=True)
            times[name].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            printed[name] = means(done.stdout)
    plain = statistics.median(times["plain"])
    plain_cpu = statistics.median(cpu["plain"])
    result = {}
    for name in CASES:
        # --bounds adds unj@10's rows: the plain call's rows must be there, unchanged
        if {k: printed[name].get(k) for k in printed["plain"]} != printed["plain"]:
            sys.exit(f"{name}: the means printed differ from the plain call's")
        median = statistics.median(times[name])
        ratio = median / plain
        target = TARGETS.get(name)
        met = "" if target is None else ("met" if ratio <= target else "MISSED")
        verdict = f"  target <= {target:g}x: {met}" if target is not None else ""
        shown = " ".join(f"{t:.2f}" for t in times[name])
        cpu_median = statistics.median(cpu[name])
        print(
            f"{name:8s} wall: median {median:6.2f} s, ratio {ratio:5.3f} (runs: {shown}){verdict}\n"
            f"{'':8s} cpu:  median {cpu_median:6.2f} s, ratio {cpu_median / plain_cpu:5.3f} "
            "(user + system of the command and its workers: less moved by other load)"
        )
        result[name] = {
            "times": times[name],
            "median": median,
            "ratio": ratio,
            "cpu": cpu[name],
            "cpu_median": cpu_median,
            "cpu_ratio": cpu_median / plain_cpu,
        }
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
