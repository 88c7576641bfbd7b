"""Speed of ``--bounds`` (issue #30): the main command on the 17 TREC 2003 Robust runs with
``AP nDCG@10 P@10 PRES@1000``, with and without ``--bounds`` (target: at most 3x).

    python bench/bench_bounds.py [--reps 3] [--data ../shared/data/real/trec-robust-2003]

Each repetition runs both commands as subprocesses (``python -m ir_measures_pres``, the same
interpreter, ``--jobs 1``: one process), interleaved; the medians of wall-clock and of CPU time
(user + system: steadier on a shared machine) and their ratios are printed (bench/README.md).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "real" / "trec-robust-2003"
MEASURES = "AP nDCG@10 P@10 PRES@1000"


def timed(args: list) -> "tuple[float, float]":
    """(wall-clock seconds, CPU seconds: user + system) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stderr.decode())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


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
    for k, what in ((0, "wall-clock"), (1, "CPU (user + system)")):
        p = statistics.median(x[k] for x in plain)
        b = statistics.median(x[k] for x in bounds)
        print(
            f"{what}: without --bounds {p:.2f} s ({', '.join(f'{x[k]:.2f}' for x in plain)}), "
            f"with --bounds {b:.2f} s ({', '.join(f'{x[k]:.2f}' for x in bounds)}): "
            f"ratio {b / p:.2f} (target <= 3)"
        )


if __name__ == "__main__":
    main()
