"""The ``ntcir`` command on the 20 CLEF TAR 2017 runs under the four option sets of
tests/data/ntcireval-full (spec ntcir.md §4: under 10 s in total on this machine).

Each of the 80 (run, option set) pairs is one ``ir_measures_pres ntcir QRELS RUN OPTIONS`` as a
user runs it: in-process (``ntcir_cli``, output to memory: reading, ranking, every measure of the
tool, formatting), the total timed; ``--processes`` also times the 80 commands as separate
processes (interpreter start-up included). Every output is compared with the tool's lines,
rebuilt from the reference data, byte for byte.

Usage::

    python bench/bench_ntcir.py [--repeat 3] [--processes]

Numbers: bench/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]
TAR = REPO / "tests" / "data" / "clef-tar-2017"
QRELS = TAR / "qrels" / "test.clef2017.qrels"
REF = REPO / "tests" / "data" / "ntcireval-full" / "clef-tar-2017.tsv.gz"
OPTIONS = {
    "g12": ["-g", "1:2", "-cutoffs", "1,5,10,20,100,1000"],
    "g14b05": ["-g", "1:4", "-beta", "0.5", "-gap", "-rbup", "0.9", "-rbp", "0.8", "-gamma", "0.9"]
    + ["-cutoffs", "10,1000"],
    "g13logb10": ["-g", "1:3", "-logb", "10", "-cutoffs", "10,1000"],
    "g12j": ["-j", "-g", "1:2", "-cutoffs", "10,1000"],
}


def expected() -> Dict[Tuple[str, str], str]:
    """(run, option set) -> the tool's output, rebuilt from the reference rows (README there)."""
    lines: Dict[Tuple[str, str], List[str]] = defaultdict(list)
    heads: Dict[str, str] = {}
    with gzip.open(REF, "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            _, run, query, opts, measure, value, _ = line.rstrip("\n").split("\t")
            out = lines[(run, opts)]
            if measure.startswith("#"):
                heads[measure] = value
                if measure == "#jnonrel":
                    out.append(f"{query} # syslen={heads['#syslen']} jrel={heads['#jrel']} jnonrel={value}")
                elif measure == "#rp":
                    out.append(f"{query} # r1={heads['#r1']} rp={value}")
            else:
                out.append(f"{query} {measure + '=':<21}{value}")
    return {key: "\n".join(v) + "\n" for key, v in lines.items()}


def in_process(pairs: List[Tuple[str, str]]) -> Tuple[float, Dict[Tuple[str, str], str]]:
    sys.path.insert(0, str(REPO))
    import warnings

    from ir_measures_pres.cli.ntcir import ntcir_cli

    outputs = {}
    start = time.perf_counter()
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")  # uos.sis.TMAL30Q_BM25's repeated lines, iiit.run1's 3 topics
        for run, opts in pairs:
            out = io.StringIO()
            ntcir_cli([str(QRELS), str(TAR / "runs" / f"{run}.gz"), *OPTIONS[opts]], out=out)
            outputs[(run, opts)] = out.getvalue()
    return time.perf_counter() - start, outputs


def as_processes(pairs: List[Tuple[str, str]]) -> float:
    start = time.perf_counter()
    for run, opts in pairs:
        args = [
            sys.executable,
            "-m",
            "ir_measures_pres",
            "ntcir",
            str(QRELS),
            str(TAR / "runs" / f"{run}.gz"),
        ]
        subprocess.run(args + OPTIONS[opts], check=True, capture_output=True, cwd=REPO)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (the best is reported)")
    parser.add_argument("--processes", action="store_true", help="also time 80 separate commands")
    args = parser.parse_args()
    want = expected()
    pairs = sorted(want)
    runs = {r for r, _ in pairs}
    lines = sum(v.count("\n") for v in want.values())
    print(f"{len(runs)} runs x {len(OPTIONS)} option sets = {len(pairs)} outputs, {lines} lines")
    times: List[float] = []
    for _ in range(args.repeat):
        seconds, got = in_process(pairs)
        times.append(seconds)
    same = sum(got[key] == want[key] for key in pairs)
    print(
        f"in one process: best {min(times):.2f} s of {args.repeat} ({', '.join(f'{t:.2f}' for t in times)})"
    )
    print(f"identical to the tool's lines: {same} of {len(pairs)}")
    if args.processes:
        print(f"as 80 commands (start-up included): {as_processes(pairs):.2f} s")


if __name__ == "__main__":
    main()
