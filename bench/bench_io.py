#!/usr/bin/env python3
"""Time the TREC readers on a large synthetic run, against ir_measures' reader, and the whole CLI.

usage: python bench/bench_io.py DIR [--repeat N] [--no-ir-measures] [--no-cli]

DIR holds ``qrels.txt`` and ``run.txt`` as written by ``../shared/bench/make_synthetic.py DIR 5000
1000`` (5,000,000 run lines, about 180 MB; made here when missing). Each measurement runs in a
fresh subprocess so that its peak memory (max RSS) is its own:

* ``read_run``: ``ir_measures_pres.io.read_run`` building the columns (str ids, float64 scores);
* ``ir_measures.read_trec_run``: only iterating ir_measures' generator (no container built);
* the CLI: ``python -m ir_measures_pres QRELS RUN "PRES@1000 QMeasure Bpref10"``.

Reported: wall time, CPU time (user + system; on a busy machine this is the fairer number),
lines per second of wall time and of CPU time, peak RSS.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAKE = REPO.parent / "shared" / "bench" / "make_synthetic.py"

OURS = """
import json, resource, sys, time
from ir_measures_pres.io import read_run
t0, c0 = time.perf_counter(), time.process_time()
cols = read_run(sys.argv[1])
print(json.dumps({"lines": len(cols), "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

IR_MEASURES = """
import json, resource, sys, time
import ir_measures
t0, c0 = time.perf_counter(), time.process_time()
n = sum(1 for _ in ir_measures.read_trec_run(sys.argv[1]))
print(json.dumps({"lines": n, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_script(code: str, path: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_cli(qrels: Path, run: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ir_measures_pres", str(qrels), str(run),
                           "PRES@1000 QMeasure Bpref10"], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss_mb": after.ru_maxrss / 1024, "output": done.stdout.strip()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of read_run (best is reported)")
    parser.add_argument("--no-ir-measures", action="store_true", help="skip ir_measures' reader (slow)")
    parser.add_argument("--no-cli", action="store_true", help="skip the whole-CLI measurement")
    args = parser.parse_args()
    run, qrels = args.dir / "run.txt", args.dir / "qrels.txt"
    if not run.exists():
        subprocess.run([sys.executable, str(MAKE), str(args.dir), "5000", "1000"], check=True)
    size_mb = run.stat().st_size / 2**20

    def show(name: str, r: dict, lines: int) -> None:
        print(f"{name:30s} wall {r['wall']:6.2f} s ({lines / r['wall'] / 1e6:4.2f} M lines/s)   "
              f"cpu {r['cpu']:6.2f} s ({lines / r['cpu'] / 1e6:4.2f} M lines/s)   "
              f"peak RSS {r['rss_mb']:6.0f} MB")

    print(f"run: {run} ({size_mb:.0f} MB)")
    best = min((run_script(OURS, run) for _ in range(args.repeat)), key=lambda r: r["wall"])
    lines = best["lines"]
    show("ir_measures_pres read_run", best, lines)
    if not args.no_ir_measures:
        show("ir_measures.read_trec_run", run_script(IR_MEASURES, run), lines)
    if not args.no_cli:
        r = run_cli(qrels, run)
        show("CLI PRES@1000 QMeasure Bpref10", r, lines)
        print(r["output"])


if __name__ == "__main__":
    main()
