"""Speed of ``--bounds`` (issue #30): the main command on the 17 TREC 2003 Robust runs with
``AP nDCG@10 P@10 PRES@1000``, with and without ``--bounds`` (target: at most 3x).

    python bench/bench_bounds.py [--reps 3] [--data ../shared/data/real/trec-robust-2003]

Each repetition runs both commands as subprocesses (``python -m ir_measures_pres``, the same
interpreter), interleaved; the medians and their ratio are printed (bench/README.md).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "real" / "trec-robust-2003"
MEASURES = "AP nDCG@10 P@10 PRES@1000"


def timed(args: list) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr.decode())
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--jobs", default="1", help="the command's --jobs (default 1: one process)")
    opts = parser.parse_args()
    qrels = opts.data / "qrels" / "robust03_qrels.txt"
    runs = opts.data / "runs"
    base = [sys.executable, "-m", "ir_measures_pres", str(qrels), str(runs), MEASURES, "--jobs", opts.jobs]
    plain, bounds = [], []
    for _ in range(opts.reps):
        plain.append(timed(base))
        bounds.append(timed(base + ["--bounds"]))
    p, b = statistics.median(plain), statistics.median(bounds)
    print(f"without --bounds: {p:.2f} s (runs: {', '.join(f'{x:.2f}' for x in plain)})")
    print(f"with --bounds:    {b:.2f} s (runs: {', '.join(f'{x:.2f}' for x in bounds)})")
    print(f"ratio: {b / p:.2f} (target <= 3)")


if __name__ == "__main__":
    main()
