"""The textbook's measures (issue #22) on the 17 TREC Robust 2003 runs: one ``ir_measures_pres``
call with all of them and AP, nDCG@10 (target: under 2 s), and every value against a naive
per-query loop written from the definitions (target: equal within 1e-12).

    python bench/bench_textbook.py [--reps 5] [--robust ../shared/data/real/trec-robust-2003]

The user-oriented measures read K from a file made here: every third relevant document of each
qrels topic (sorted by id) except the topics 303 and 307, which get none (K ∩ R empty: the
undefined case, left out of the mean with a warning). Times are wall-clock seconds of the whole
command (``python -m ir_measures_pres``: start-up, reading 17 gzipped runs, ranking, scoring,
printing), the median of ``--reps`` repetitions.
"""

from __future__ import annotations

import argparse
import gzip
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_ROBUST = HERE.parents[1] / "shared" / "data" / "real" / "trec-robust-2003"
# the naive loops from the definitions, the same oracle tests/test_textbook.py checks with
sys.path.insert(0, str(HERE.parent / "tests"))
from _naive_textbook import naive, trec_ranking  # noqa: E402


def measures(known: str) -> list[str]:
    return [
        "AP",
        "nDCG@10",
        "APSeen",
        "APSeen@100",
        "F@10",
        "F(beta=2)@100",
        "E@10",
        f"Coverage(known='{known}')@100",
        f"Novelty(known='{known}')@100",
        f"RelativeRecall(known='{known}')@100",
        f"RecallEffort(known='{known}')",
        "CG@10",
        "DCG@10",
        "DCG(logb=3)@100",
    ]


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        q, _, d, v = line.split()
        out[q][d] = int(v)
    return out


def read_run(path: Path) -> dict[str, list[str]]:
    rows: dict[str, dict[str, float]] = defaultdict(dict)
    with gzip.open(path, "rt") as f:
        for line in f:
            q, _, d, _, s, _ = line.split()
            rows[q][d] = float(s)
    return {q: trec_ranking(docs) for q, docs in rows.items()}


def parse(spec: str) -> tuple[str, dict, object]:
    import re

    m = re.fullmatch(r"(\w+)(?:\((.*)\))?(?:@(\d+))?", spec)
    assert m, spec
    params = {}
    for part in filter(None, (m.group(2) or "").split(",")):
        key, value = part.split("=")
        params[key] = value.strip("'")
    return m.group(1), params, int(m.group(3)) if m.group(3) else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--robust", type=Path, default=DEFAULT_ROBUST)
    args = ap.parse_args()
    qrels_path = args.robust / "qrels" / "robust03_qrels.txt"
    runs = sorted((args.robust / "runs").iterdir())
    qrels = read_qrels(qrels_path)
    work = Path(tempfile.mkdtemp(prefix="bench_textbook_"))
    known_path = work / "known.txt"
    known: dict[str, set[str]] = defaultdict(set)
    with known_path.open("w") as f:
        for q, docs in qrels.items():
            if q in ("303", "307"):
                continue
            for d in sorted(d for d, v in docs.items() if v >= 1)[::3]:
                known[q].add(d)
                f.write(f"{q} 0 {d} 1\n")
    specs = measures(str(known_path))
    command = [
        sys.executable,
        "-m",
        "ir_measures_pres",
        str(qrels_path),
        *map(str, runs),
        *specs,
        "-q",
        "-p",
        "-1",
    ]
    # the same call with AP and nDCG@10 alone: what the textbook's measures add to it
    standard = [sys.executable, "-m", "ir_measures_pres", str(qrels_path), *map(str, runs), "AP", "nDCG@10"]
    times: list[float] = []
    base_times: list[float] = []
    out = ""
    for _ in range(args.reps):  # interleaved, so that the machine's load hits both alike
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        out = done.stdout
        start = time.perf_counter()
        subprocess.run(standard, capture_output=True, text=True, check=True)
        base_times.append(time.perf_counter() - start)
    for label, ts in ((f"all {len(specs)} measures", times), ("AP nDCG@10 alone", base_times)):
        print(
            f"one call, {len(runs)} runs, {label}: median {statistics.median(ts):.2f} s "
            f"(min {min(ts):.2f}, max {max(ts):.2f}, {args.reps} reps)"
        )
    # values against the naive loop
    got: dict[tuple[str, str, str], float] = {}
    for line in out.splitlines():
        run, q, m, v = line.split("\t")
        got[(run, q, m)] = float(v)
    worst, compared = 0.0, 0
    for path in runs:
        name = path.name.removesuffix(".gz")
        ranking = read_run(path)
        for spec in specs[2:]:
            base, params, k = parse(spec)
            label = next(
                m
                for (r, q, m) in got
                if r == name
                and m.startswith(base)
                and (m.endswith(f"@{k}") if k else "@" not in m)
                and (("beta" in m) == ("beta" in params))
                and (("logb" in m) == ("logb" in params))
            )
            beta = float(params.get("beta", 1.0))
            logb = float(params.get("logb", 2.0))
            values = []
            for q in qrels:
                want = (
                    naive(base, qrels[q], ranking.get(q, []), known[q], k, beta, logb)
                    if q in ranking
                    else None
                )
                have = got[(name, q, label)]
                if want is None:  # the run lacks the topic: the DEFAULT
                    continue
                if math.isnan(want):
                    assert math.isnan(have), (name, q, label)
                    continue
                worst = max(worst, abs(want - have))
                compared += 1
                values.append(want)
            mean = got[(name, "all", label)]
            if all(q in ranking for q in qrels):
                assert abs(mean - sum(values) / len(values)) < 1e-12, (
                    name,
                    label,
                    mean,
                    sum(values) / len(values),
                    len(values),
                )
    print(f"naive loop: {compared:,} per-query values compared, largest difference {worst:.3g}")
    assert worst <= 1e-12


if __name__ == "__main__":
    main()
