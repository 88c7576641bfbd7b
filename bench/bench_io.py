#!/usr/bin/env python3
"""Time the TREC readers on a large synthetic run, against ir_measures' reader, and the whole CLI.

usage: python bench/bench_io.py DIR [--repeat N] [--no-ir-measures] [--no-cli] [--stock-cli]

DIR holds ``qrels.txt`` and ``run.txt`` as written by ``../shared/bench/make_synthetic.py DIR 5000
1000`` (5,000,000 run lines, about 180 MB; made here when missing). Each measurement runs in a
fresh subprocess so that its peak memory (max RSS) is its own:

* ``read_run``: ``ir_measures_pres.data.readers.read_run`` building the columns (float64 scores), with str
  document ids (the default) and with bytes ids (``doc_ids="bytes"``, what the CLI uses);
* ``ir_measures.read_trec_run``: only iterating ir_measures' generator (no container built);
* the CLI: ``python -m ir_measures_pres QRELS RUN "PRES@1000 QMeasure Bpref10"``, the best of
  ``--repeat`` runs; with ``--stock-cli`` also ``python -m ir_measures QRELS RUN AP`` (once) and the
  ratio of the two wall times.

Reported: wall time, CPU time (user + system; on a busy machine this is the fairer number),
lines per second of wall time and of CPU time, peak RSS.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MAKE = REPO.parent / "shared" / "bench" / "make_synthetic.py"

OURS = """
import json, resource, sys, time
import ir_measures_pres.data.readers as trec_io
t0, c0 = time.perf_counter(), time.process_time()
cols = trec_io.read_run(sys.argv[1], doc_ids=sys.argv[2])
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


def run_script(code: str, *args: object) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_command(*args: str) -> dict:
    """Wall time, CPU time and peak RSS of a command, measured by a small wrapper process (its
    children's rusage holds only this command)."""
    code = (
        "import json, resource, subprocess, sys, time; t0 = time.perf_counter(); "
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True); "
        "wall = time.perf_counter() - t0; r = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(json.dumps({'wall': wall, 'cpu': r.ru_utime + r.ru_stime, 'rss_mb': r.ru_maxrss / 1024, "
        "'output': done.stdout.strip()}))"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dir", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (best is reported)")
    parser.add_argument("--no-ir-measures", action="store_true", help="skip ir_measures' reader (slow)")
    parser.add_argument("--no-cli", action="store_true", help="skip the whole-CLI measurement")
    parser.add_argument(
        "--stock-cli",
        action="store_true",
        help="also time the stock 'python -m ir_measures QRELS RUN AP' (slow)",
    )
    args = parser.parse_args()
    run, qrels = args.dir / "run.txt", args.dir / "qrels.txt"
    if not run.exists():
        subprocess.run([sys.executable, str(MAKE), str(args.dir), "5000", "1000"], check=True)
    size_mb = run.stat().st_size / 2**20

    def show(name: str, r: dict, lines: int) -> None:
        print(
            f"{name:34s} wall {r['wall']:6.2f} s ({lines / r['wall'] / 1e6:4.2f} M lines/s)   "
            f"cpu {r['cpu']:6.2f} s ({lines / r['cpu'] / 1e6:4.2f} M lines/s)   "
            f"peak RSS {r['rss_mb']:6.0f} MB"
        )

    def best(measure: Any, *measure_args: object) -> dict:
        return min((measure(*measure_args) for _ in range(args.repeat)), key=lambda r: r["wall"])

    print(f"run: {run} ({size_mb:.0f} MB)")
    lines = 0
    for mode in ("str", "bytes"):
        r = best(run_script, OURS, run, mode)
        lines = r["lines"]
        show(f"read_run doc_ids={mode}", r, lines)
    if not args.no_ir_measures:
        show("ir_measures.read_trec_run", run_script(IR_MEASURES, run), lines)
    if not args.no_cli:
        r = best(
            run_command,
            sys.executable,
            "-m",
            "ir_measures_pres",
            str(qrels),
            str(run),
            "PRES@1000 QMeasure Bpref10",
        )
        show("CLI PRES@1000 QMeasure Bpref10", r, lines)
        print(r["output"])
        if args.stock_cli:
            stock = run_command(sys.executable, "-m", "ir_measures", str(qrels), str(run), "AP")
            show("stock CLI: ir_measures ... AP", stock, lines)
            print(f"ratio CLI / stock CLI (wall): {r['wall'] / stock['wall']:.3f}")


if __name__ == "__main__":
    main()
