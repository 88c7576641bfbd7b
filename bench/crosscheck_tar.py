"""Cross-check the ``tar`` command against the official CLEF TAR tools on generated inputs.

The official 2017 result files (tests/data/clef-tar-2017/official_tar_eval) cover the 2017
tool on real runs only. This script runs both official tools and ``ir_measures_pres tar`` on:

* the 20 CLEF 2017 runs with their interaction codes (2017 tool), and the same runs with column
  2 replaced by seeded threshold flags (none, one, two flags, or one on the last line; at most
  5000 lines per topic for Task 1, where the tool crashes beyond) for the 2018 tool, tasks 1
  and 2;
* three qrels: the two binary ones, and the graded one with a seeded 2.5 % of its values set to
  -1, 3 or 4 (documents outside the candidate set),

and compares the outputs byte for byte (notices included, ``--notices stdout``).

Usage::

    python bench/crosscheck_tar.py --tool PATH/TO/CLEF-TAR/tar/scripts [--python python3]

The tools are not part of this repository (github.com/CLEF-TAR/tar). Result when last run
(the tools' Python sources at commit dbc13d02, CPython 3.11.7): ``identical: 180 of 180``
(2017 tool: 20 runs x 3 qrels; 2018 tool: 20 runs x 3 qrels x tasks 1 and 2). Again on
2026-11-24, after issue #13's changes to the readers and tar.py: ``identical: 180 of 180``
(a copy of the tools made from tar_eval.py / tar_eval_2018.py 7b87a1a, measures/ 81ce7f0,
59213a3, 7b87a1a and eval_measures_2018.py 0df8ca3, seeker/ d31df7e).
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "clef-tar-2017"


def make_inputs(tmp: Path, seed: int = 7) -> Tuple[List[Path], List[Path], List[Path], List[Path]]:
    """(qrels files, 2017 runs, 2018 task 1 runs, 2018 task 2 runs), written under ``tmp``."""
    rng = random.Random(seed)
    mixed = tmp / "qrels_mixed.txt"
    with open(DATA / "qrels" / "test.clef2017.qrels") as src, open(mixed, "w") as out:
        for line in src:
            q, _, d, v = line.split()
            r = rng.random()
            v = "-1" if r < 0.01 else "3" if r < 0.02 else "4" if r < 0.025 else v
            out.write(f"{q} 0 {d} {v}\n")
    qrels = [DATA / "qrels" / "qrel_abs_test.txt", DATA / "qrels" / "qrel_content_test.txt", mixed]
    runs17, runs1, runs2 = [], [], []
    for gz in sorted((DATA / "runs").glob("*.gz")):
        plain = tmp / gz.name[: -len(".gz")]
        plain.write_bytes(gzip.decompress(gz.read_bytes()))
        runs17.append(plain)
        topics: dict = {}
        for parts in (line.split() for line in plain.read_text().splitlines()):
            topics.setdefault(parts[0], []).append(parts)
        for task, target in ((1, runs1), (2, runs2)):
            path = tmp / f"{plain.name}.task{task}"
            with open(path, "w") as out:
                for lines in topics.values():
                    lines = lines[:5000] if task == 1 else lines
                    flags = [0] * len(lines)
                    kind = rng.choice(["none", "one", "two", "last"])
                    if kind == "one":
                        flags[rng.randrange(len(lines))] = 1
                    elif kind == "two":
                        for _ in range(2):
                            flags[rng.randrange(len(lines))] = 1
                    elif kind == "last":
                        flags[-1] = 1
                    for p, flag in zip(lines, flags):
                        out.write(f"{p[0]} {flag} {p[2]} {p[3]} {p[4]} {p[5]}\n")
            target.append(path)
    return qrels, runs17, runs1, runs2


def same(tool_cmd: List[str], tool: Path, ours: List[str]) -> bool:
    theirs = subprocess.run(tool_cmd, cwd=tool, capture_output=True, text=True).stdout
    mine = subprocess.run(ours, cwd=REPO, capture_output=True, text=True).stdout
    return theirs == mine


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tool", type=Path, required=True, help="the scripts/ folder of github.com/CLEF-TAR/tar"
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter for the tools (Python 3)")
    args = parser.parse_args()
    ours = [sys.executable, "-m", "ir_measures_pres", "tar", "--notices", "stdout"]
    with tempfile.TemporaryDirectory() as tmp:
        qrels, runs17, runs1, runs2 = make_inputs(Path(tmp))
        checks = [
            ([args.python, "tar_eval.py", str(q), str(r)], ours + ["--edition", "2017", str(q), str(r)])
            for q in qrels
            for r in runs17
        ]
        for task, runs in ((1, runs1), (2, runs2)):
            checks += [
                (
                    [args.python, "tar_eval_2018.py", str(task), str(q), str(r)],
                    ours + ["--edition", "2018", "--task", str(task), str(q), str(r)],
                )
                for q in qrels
                for r in runs
            ]
        failed = [c for c in checks if not same(c[0], args.tool, c[1])]
        print(f"identical: {len(checks) - len(failed)} of {len(checks)}")
        for tool_cmd, _ in failed:
            print("differs:", " ".join(tool_cmd[1:]))
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
