"""The ``sampled`` command on the 17 TREC Robust 2003 runs against the main command's ``AP`` on the
same runs (issue #29: within 1.5 times), side by side in one process run.

Each repetition runs, as a user would, one after the other (their order alternating):

* ``ir_measures_pres sampled qrels.sampled <17 runs> --variant cds -q`` (sample_eval.pl's lines),
* ``ir_measures_pres qrels.sampled.4col <17 runs> AP`` (the same judgements without strata),

each a separate process (``python -m ir_measures_pres``, interpreter start-up included), and
reports the medians and their ratio. The ``sampled`` output is checked against the tool's files
(../shared/data/sampled-judgements/sample_eval/cds), byte for byte, block by block.

Usage::

    python bench/bench_sampled.py [--reps 5] [--variant cds|trecvid]

Numbers: bench/README.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Tuple

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
SAMPLED = SHARED / "sampled-judgements"
RUNS = SHARED / "real" / "trec-robust-2003" / "runs"


def timed(args: List[str]) -> Tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *args], capture_output=True, text=True, check=True
    )
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--variant", choices=["cds", "trecvid"], default="cds")
    args = parser.parse_args()
    runs = sorted(RUNS.glob("input.*.gz"))
    if len(runs) != 17 or not (SAMPLED / "qrels.sampled").exists():
        sys.exit(f"needs ../shared/data beside the clone (found {len(runs)} runs under {RUNS})")
    sampled = ["sampled", str(SAMPLED / "qrels.sampled"), *map(str, runs), "--variant", args.variant, "-q"]
    main_ap = [str(SAMPLED / "qrels.sampled.4col"), *map(str, runs), "AP"]
    expected = "".join(
        f"runid\t\tall\t\t{p.name[:-3]}\n"
        + (SAMPLED / "sample_eval" / args.variant / f"{p.name[:-3]}.sampleval").read_text()
        for p in runs
    )
    times: dict = {"sampled": [], "AP": []}
    for rep in range(args.reps):
        order = [("sampled", sampled), ("AP", main_ap)]
        for name, argv in order if rep % 2 == 0 else order[::-1]:
            seconds, out = timed(argv)
            times[name].append(seconds)
            if name == "sampled" and out != expected:
                sys.exit("the sampled command's output differs from sample_eval.pl's files")
        print(f"rep {rep + 1}: sampled {times['sampled'][-1]:.2f} s, AP {times['AP'][-1]:.2f} s", flush=True)
    s, a = statistics.median(times["sampled"]), statistics.median(times["AP"])
    print(f"median of {args.reps}: sampled ({args.variant}, -q) {s:.2f} s, main command AP {a:.2f} s")
    print(f"ratio sampled / AP: {s / a:.2f} (target <= 1.5); output identical to the tool's: yes")


if __name__ == "__main__":
    main()
