#!/usr/bin/env python3
"""A large run read in byte ranges (``ir_measures_pres/data/byteranges.py``: parsed by workers;
``ir_measures_pres/data/topic_ranges.py``: ranges of whole queries parsed *and scored* by
workers): the commands it speeds up, against their peers measured in the same run, and against
a tree before it.

usage: python bench/bench_ranges.py DIR [--base TREE] [--reps N] [--only NAME,...]

DIR holds ``qrels.txt`` and ``run.txt`` of ``../shared/bench/make_synthetic.py DIR 5000 1000``
(5,000,000 run lines, 183 MB). ``--base TREE``: a checkout of the package before the change (its
directory holding ``ir_measures_pres/``), timed in the same rounds. Each command runs in a fresh
process (wall time and peak resident memory of it and its workers, by ``wait4``); the rows of
one round run one after the other, the rounds ``--reps`` times, and medians are printed. Parts:

* ``cli``: ``ir_measures_pres QRELS RUN "PRES@1000 QMeasure Bpref10"`` (this tree, the base)
  and the stock ``ir_measures QRELS RUN AP``; the ratio ours / stock;
* ``trec_eval``: ``ir_measures_pres trec_eval [-m all_trec | -q -c -M 1000 -m all_trec] QRELS RUN``
  (this tree, the base);
  trec_eval 10.0's C binary is not installed here: its times on this machine (5.4-5.6 s default
  measures, 6.2-6.5 s ``-m all_trec``, 5.5-5.9 s ``-q -c -M 1000 -m all_trec``, issue 43) are quoted as the
  reference;
* ``gz``: the main command and ``trec_eval -m all_trec`` on the run gzipped (``run.txt.gz``,
  made once with level 1 when missing), this tree and the base;
* ``read``: ``read_run(RUN, doc_ids="bytes")`` alone on one core and in ranges, and pyarrow's
  CSV reader on the same file (two threads; the optional fast path that was weighed);
* ``robust``: the 17 TREC Robust 2003 runs in one call (``../shared/data/real``), this tree and
  the base.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
ROBUST = TREE.parent / "shared" / "data" / "real" / "trec-robust-2003"
# seconds, issue 43 (the C binary is not installed here)
C_TREC_EVAL = {"default": (5.4, 5.6), "all_trec": (6.2, 6.5), "-q -c -M 1000 all_trec": (5.5, 5.9)}

READ = """
import sys, time
import ir_measures_pres.data.byteranges as byteranges
from ir_measures_pres.data.readers import read_run
if sys.argv[2] == "one core":
    byteranges.PARALLEL_MIN_BYTES = 1 << 62
t0 = time.perf_counter()
read_run(sys.argv[1], doc_ids="bytes")
print(time.perf_counter() - t0)
"""

ARROW = """
import sys, time
import pyarrow as pa, pyarrow.csv as csv
pa.set_cpu_count(2)
t0 = time.perf_counter()
table = csv.read_csv(sys.argv[1], read_options=csv.ReadOptions(column_names=list("qirdst")),
                     parse_options=csv.ParseOptions(delimiter=" "),
                     convert_options=csv.ConvertOptions(column_types={"q": pa.string(), "d": pa.string(),
                                                                      "s": pa.float64()}))
print(time.perf_counter() - t0)
"""


def child(cmd: List[str], tree: Optional[Path], inner: bool = False) -> Tuple[float, float, float]:
    """(wall seconds, peak MiB, CPU seconds of it and its workers) of one command; ``inner``: the
    seconds it prints instead of the wall time."""
    # bytecode caches written and used, as an installed package has them (this machine's
    # environment sets PYTHONDONTWRITEBYTECODE, which makes every command compile its sources)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONWARNINGS"] = "ignore"
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    t0 = time.perf_counter()
    # run from a neutral folder: ``python -m`` puts the working folder first on the path, which
    # would import this checkout's package in place of ``tree``'s
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=tempfile.gettempdir()
    )
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{' '.join(cmd[:5])} failed")
    if inner:
        wall = float(out.decode().split()[-1])
    return wall, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dir", type=Path)
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--only", default="cli,trec_eval,gz,read,robust")
    args = parser.parse_args()
    qrels, run = str(args.dir.resolve() / "qrels.txt"), str(args.dir.resolve() / "run.txt")
    py = sys.executable
    trees: Dict[str, Optional[Path]] = {"ours": TREE}
    if args.base is not None:
        trees["base"] = args.base.resolve()
    rows: Dict[str, Tuple[List[str], Optional[Path], bool]] = {}
    parts = args.only.split(",")
    if "cli" in parts:
        rows["stock ir_measures AP"] = ([py, "-m", "ir_measures", qrels, run, "AP"], None, False)
        for label, tree in trees.items():
            cmd = [py, "-m", "ir_measures_pres", qrels, run, "PRES@1000 QMeasure Bpref10"]
            rows[f"{label}: PRES@1000 QMeasure Bpref10"] = (cmd, tree, False)
    if "trec_eval" in parts:
        for label, tree in trees.items():
            rows[f"{label}: trec_eval (default)"] = (
                [py, "-m", "ir_measures_pres", "trec_eval", qrels, run],
                tree,
                False,
            )
            cmd = [py, "-m", "ir_measures_pres", "trec_eval", "-m", "all_trec", qrels, run]
            rows[f"{label}: trec_eval -m all_trec"] = (cmd, tree, False)
            cmd = [py, "-m", "ir_measures_pres", "trec_eval", "-q", "-c", "-M", "1000", "-m", "all_trec"]
            cmd += [qrels, run]
            rows[f"{label}: trec_eval -q -c -M 1000 -m all_trec"] = (cmd, tree, False)
    if "gz" in parts:  # the same run gzipped (made once, gzip -1, beside the run)
        packed = args.dir.resolve() / "run.txt.gz"
        if not packed.exists():
            with open(run, "rb") as plain, gzip.open(packed, "wb", compresslevel=1) as out:
                shutil.copyfileobj(plain, out, 1 << 20)
        for label, tree in trees.items():
            cmd = [py, "-m", "ir_measures_pres", qrels, str(packed), "PRES@1000 QMeasure Bpref10"]
            rows[f"{label}: gzipped, PRES@1000 QMeasure Bpref10"] = (cmd, tree, False)
            cmd = [py, "-m", "ir_measures_pres", "trec_eval", "-m", "all_trec", qrels, str(packed)]
            rows[f"{label}: gzipped, trec_eval -m all_trec"] = (cmd, tree, False)
    if "read" in parts:
        rows["read_run, one core"] = ([py, "-c", READ, run, "one core"], TREE, True)
        rows["read_run, ranges"] = ([py, "-c", READ, run, "ranges"], TREE, True)
        rows["pyarrow read_csv (2 threads)"] = ([py, "-c", ARROW, run], None, True)
    if "robust" in parts:
        robust_qrels = str(ROBUST / "qrels" / "robust03_qrels.txt")
        for label, tree in trees.items():
            cmd = [py, "-m", "ir_measures_pres", robust_qrels, str(ROBUST / "runs"), "AP nDCG@10 PRES@1000"]
            rows[f"{label}: 17 Robust 2003 runs"] = (cmd, tree, False)
    times: Dict[str, List[Tuple[float, float, float]]] = {name: [] for name in rows}
    for rep in range(args.reps):
        for name, (cmd, tree, inner) in rows.items():
            times[name].append(child(cmd, tree, inner))
        print(f"round {rep + 1} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print(f"cores: {os.cpu_count()}, medians of {args.reps} (min-max); cpu: user + system, workers included")
    med = {name: statistics.median(w for w, _, _ in got) for name, got in times.items()}
    for name, got in times.items():
        walls = [w for w, _, _ in got]
        peak = max(m for _, m, _ in got)
        cpu = statistics.median(c for _, _, c in got)
        print(
            f"{name:40s} {med[name]:6.2f} s ({min(walls):.2f}-{max(walls):.2f})  cpu {cpu:5.2f} s  "
            f"peak {peak:5.0f} MiB"
        )
    stock = med.get("stock ir_measures AP")
    for label in trees:
        if stock:
            print(f"{label}: CLI ratio to stock = {med[f'{label}: PRES@1000 QMeasure Bpref10'] / stock:.3f}")
        for what, key in (
            ("default", "trec_eval (default)"),
            ("all_trec", "trec_eval -m all_trec"),
            ("-q -c -M 1000 all_trec", "trec_eval -q -c -M 1000 -m all_trec"),
        ):
            if f"{label}: {key}" in med:
                low, high = C_TREC_EVAL[what]
                t = med[f"{label}: {key}"]
                print(f"{label}: trec_eval {what} / C binary's {low}-{high} s = {t / high:.2f}-{t / low:.2f}")


if __name__ == "__main__":
    main()
