"""The ``tar`` command against the official CLEF TAR tool, side by side (spec tar.md §6.7).

Evaluates the 20 CLEF TAR 2017 runs of tests/data/clef-tar-2017 against both binary qrels
(abstract and content level): ours in one call (``engine.tar.evaluate_many``: each file read once,
the 40 outputs formatted as the ``tar`` command prints them), the official ``tar_eval.py`` once
per file (40 processes), as its users run it. The ``tar`` command itself takes one qrels per
call: two calls (one per qrels, 20 runs each) are timed too.
The runs are decompressed into a temporary folder first (the tool cannot read gzip; not timed).
With ``--tool`` the script also checks that both print the same bytes (notices included:
``--notices stdout``).

Usage::

    python bench/bench_tar.py                          # our timings only
    python bench/bench_tar.py --tool /path/to/tar/scripts [--python python3] [--repeat 3]

``--tool`` is the ``scripts`` folder of a clone of github.com/CLEF-TAR/tar (it holds
``tar_eval.py``, ``measures/`` and ``seeker/``); the tool is not part of this repository.
Numbers: bench/README.md.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "clef-tar-2017"
QRELS = {
    "abstract": DATA / "qrels" / "qrel_abs_test.txt",
    "content": DATA / "qrels" / "qrel_content_test.txt",
}


def ours(runs: List[Path], jobs: int = 1) -> Tuple[float, Dict[Tuple[str, str], str]]:
    """Seconds for one call evaluating every run against both qrels (each file read once, the
    tool's lines formatted; ``jobs`` processes), and the output per (qrels, run)."""
    sys.path.insert(0, str(REPO))
    from ir_measures_pres.engine.tar import evaluate_many
    from ir_measures_pres.printers import tar

    start = time.perf_counter()
    results = evaluate_many(list(QRELS.values()), runs, edition="2017", jobs=jobs)
    outputs: Dict[Tuple[str, str], str] = {}
    for level, per_run in zip(QRELS, results):
        for run, (rows, notices) in zip(runs, per_run):
            outputs[(level, run.name)] = tar.lines(rows, notices, "2017", with_notices=True)
    return time.perf_counter() - start, outputs


def official(tool: Path, python: str, plain_runs: List[Path]) -> Tuple[float, Dict[Tuple[str, str], str]]:
    outputs: Dict[Tuple[str, str], str] = {}
    start = time.perf_counter()
    for level, qrels in QRELS.items():
        for run in plain_runs:
            done = subprocess.run(
                [python, "tar_eval.py", str(qrels), str(run)], cwd=tool, capture_output=True, text=True
            )
            outputs[(level, run.name)] = done.stdout
    return time.perf_counter() - start, outputs


def _command(runs: List[Path]) -> float:
    """Seconds for the ``tar`` command as a user runs it: one process per qrels, all runs."""
    start = time.perf_counter()
    for qrels in QRELS.values():
        args = [sys.executable, "-m", "ir_measures_pres", "tar", "--edition", "2017", str(qrels)]
        subprocess.run(args + [str(r) for r in runs], cwd=REPO, capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tool", type=Path, help="the scripts/ folder of github.com/CLEF-TAR/tar")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the tool (Python 3)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    args = parser.parse_args()

    gz_runs = sorted((DATA / "runs").glob("*.gz"))
    with tempfile.TemporaryDirectory() as tmp:
        plain = []
        for run in gz_runs:
            target = Path(tmp) / run.name[: -len(".gz")]
            with gzip.open(run) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            plain.append(target)
        lines = sum(sum(1 for _ in open(p, "rb")) for p in plain)
        print(f"{len(plain)} runs, {lines:,} lines, 2 qrels ({2 * len(plain)} evaluations)")

        from ir_measures_pres.cli._command import jobs_of

        jobs = jobs_of(0)
        best_one = min(ours(plain)[0] for _ in range(args.repeat))
        print(f"ir_measures_pres, one call (evaluate_many, 20 runs x 2 qrels, one process): {best_one:.2f} s")
        best_ours = min(ours(plain, jobs)[0] for _ in range(args.repeat))
        print(f"ir_measures_pres, one call (evaluate_many, jobs={jobs}): {best_ours:.2f} s")
        command = min(_command(plain) for _ in range(args.repeat))
        print(f"ir_measures_pres tar command, two processes (one per qrels): {command:.2f} s")
        if args.tool is None:
            print("official tool: not run (give --tool PATH/TO/tar/scripts)")
            return
        best_tool, tool_out = min(
            (official(args.tool, args.python, plain) for _ in range(args.repeat)), key=lambda x: x[0]
        )
        _, our_out = ours(plain, jobs)
        same = sum(tool_out[k] == our_out[k] for k in tool_out)
        print(f"official tar_eval.py (one process per file): {best_tool:.2f} s")
        print(f"ratio ours (jobs={jobs}) / official: {best_ours / best_tool:.3f} (target <= 0.1)")
        print(f"ratio ours (one process) / official: {best_one / best_tool:.3f}")
        print(f"ratio tar command (two processes) / official: {command / best_tool:.3f}")
        print(f"identical outputs: {same} of {len(tool_out)}")


if __name__ == "__main__":
    main()
