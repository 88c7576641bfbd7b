"""Benchmark: the robustness experiment at CLEF-IP 2009 scale (Magdy & Jones 2010).

48 runs x 400 topics x 1,000 documents (19.2 M ranked documents), about 6 relevant documents per
topic (1-15) plus 100 judged non-relevant ones, 4 fractions x 3 samples = 12 f-qrels, measures
``PRES@100 PRES@1000 AP@100 AP@1000 R@100 R@1000``. Everything is synthetic and seeded.

    python bench/bench_meta.py                 # in-memory runs, times robustness()
    python bench/bench_meta.py --files /tmp/x  # also writes TREC files and times the CLI on them
    python bench/bench_meta.py --swap          # swap method vs bootstrap discriminative power

``--swap`` (issue #12): on the same collection and 3 measures (``PRES@1000 AP@1000 R@1000``,
1,128 run pairs), the swap method (``sensitivity``, B = 1000, one repetition) against Sakai's
bootstrap discriminative power at the same B, and 5 repetitions against one, side by side,
interleaved, medians of ``--reps`` (default 3); targets: swap / bootstrap <= 2, and a
``--repeats 5`` run (ranking included, as the command runs it) < 5 x a single one.

Prints the time of each phase; the target is < 60 s for the whole robustness() call on a
2-core machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from ir_measures_pres.data.inputs import Columns

N_RUNS, N_TOPICS, DEPTH, CANDIDATES = 48, 400, 1000, 3000
MEASURES = "PRES@100 PRES@1000 AP@100 AP@1000 R@100 R@1000"


def make_collection(seed: int = 2010):
    """Synthetic qrels and runs: each topic has CANDIDATES documents, 1-15 relevant ones; each run
    has a quality q and scores relevant documents higher by q (plus noise)."""
    rng = np.random.default_rng(seed)
    qids = np.array([f"PAC-{i:04d}" for i in range(N_TOPICS)], dtype=object)
    docs = [
        np.array([f"EP-{i:04d}-{j:05d}" for j in range(CANDIDATES)], dtype=object) for i in range(N_TOPICS)
    ]
    n_rel = np.clip(rng.poisson(6, N_TOPICS), 1, 15)
    q_lines, d_lines, l_lines = [], [], []
    rel_sets = []
    for i in range(N_TOPICS):
        judged = rng.choice(CANDIDATES, n_rel[i] + 100, replace=False)
        rel_sets.append(judged[: n_rel[i]])
        q_lines.append(np.repeat(qids[i], len(judged)))
        d_lines.append(docs[i][judged])
        l_lines.append(np.r_[np.ones(n_rel[i], np.int64), np.zeros(100, np.int64)])
    qrels = Columns(np.concatenate(q_lines), np.concatenate(d_lines), np.concatenate(l_lines))
    runs = {}
    for r in range(N_RUNS):
        quality = rng.uniform(0.5, 3.0)
        q_parts, d_parts, s_parts = [], [], []
        for i in range(N_TOPICS):
            signal = np.zeros(CANDIDATES)
            signal[rel_sets[i]] = quality * rng.uniform(0.3, 1.0, len(rel_sets[i]))
            score = signal + rng.normal(0, 1, CANDIDATES)
            top = np.argpartition(-score, DEPTH)[:DEPTH]
            top = top[np.argsort(-score[top])]
            q_parts.append(np.repeat(qids[i], DEPTH))
            d_parts.append(docs[i][top])
            s_parts.append(np.round(score[top], 4))
        runs[f"run{r:02d}"] = Columns(
            np.concatenate(q_parts), np.concatenate(d_parts), np.concatenate(s_parts)
        )
    return qrels, runs


def write_trec(qrels: Columns, runs: dict, outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "runs").mkdir(exist_ok=True)
    with open(outdir / "qrels.txt", "w") as f:
        for q, d, v in zip(qrels.query_ids, qrels.doc_ids, qrels.values.tolist()):
            f.write(f"{q} 0 {d} {v}\n")
    for name, run in runs.items():
        qs, ds, ss = run.query_ids, run.doc_ids, run.values.tolist()
        with open(outdir / "runs" / name, "w") as f:
            f.writelines(
                f"{q} Q0 {d} {k % DEPTH + 1} {s} {name}\n" for k, (q, d, s) in enumerate(zip(qs, ds, ss))
            )


SWAP_MEASURES = "PRES@1000 AP@1000 R@1000"


def bench_swap(qrels: Columns, runs: dict, reps: int) -> None:
    """Swap method vs bootstrap discriminative power, 5 repetitions vs 1 (medians)."""
    from ir_measures_pres.meta import Core
    from ir_measures_pres.meta.discrimination import discriminative_power_from_scores
    from ir_measures_pres.meta.sensitivity import sensitivity_from_scores

    t0 = time.perf_counter()
    core = Core(qrels, runs, SWAP_MEASURES, progress=False)
    scores = core.scores()
    ranking = time.perf_counter() - t0
    pairs = len(runs) * (len(runs) - 1) // 2
    print(f"ranking {len(runs)} runs + per-query scores of 3 measures: {ranking:.1f} s; {pairs} pairs")
    jobs = {
        "bootstrap discriminative power, B=1000, 1 rep": lambda: discriminative_power_from_scores(
            scores, B=1000, seed=1, progress=False
        ),
        "swap method (bootstrap samples), B=1000, 1 rep": lambda: sensitivity_from_scores(
            scores, B=1000, repeats=1, seed=1, progress=False
        ),
        "swap method (disjoint halves), B=1000, 1 rep": lambda: sensitivity_from_scores(
            scores, B=1000, sampling="disjoint", repeats=1, seed=1, progress=False
        ),
        "swap method (bootstrap samples), B=1000, 5 reps": lambda: sensitivity_from_scores(
            scores, B=1000, repeats=5, seed=1, progress=False
        ),
        "bootstrap discriminative power, B=1000, 5 reps": lambda: discriminative_power_from_scores(
            scores, B=1000, seed=1, progress=False, repeats=5
        ),
    }
    times: dict = {k: [] for k in jobs}
    for _ in range(reps):
        for name, job in jobs.items():  # interleaved: a slow minute hits every job alike
            t = time.perf_counter()
            job()
            times[name].append(time.perf_counter() - t)
    med = {k: float(np.median(v)) for k, v in times.items()}
    for k, v in med.items():
        print(f"  {k:50s} {v:7.2f} s  (runs: {', '.join(f'{x:.2f}' for x in times[k])})")
    dp1 = med["bootstrap discriminative power, B=1000, 1 rep"]
    sw1 = med["swap method (bootstrap samples), B=1000, 1 rep"]
    sw5 = med["swap method (bootstrap samples), B=1000, 5 reps"]
    dp5 = med["bootstrap discriminative power, B=1000, 5 reps"]
    print(f"swap / bootstrap at B=1000:               {sw1 / dp1:.2f}  (target <= 2)")
    print(f"swap, 5 reps / 1 rep (experiment only):   {sw5 / sw1:.2f}")
    print(f"bootstrap, 5 reps / 1 rep (experiment):   {dp5 / dp1:.2f}")
    print(f"swap, 5 reps / 1 rep (ranking included):  {(ranking + sw5) / (ranking + sw1):.2f}  (target < 5)")
    print(f"bootstrap, 5 / 1 rep (ranking included):  {(ranking + dp5) / (ranking + dp1):.2f}  (target < 5)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--files", metavar="DIR", help="also write TREC files to DIR and time the CLI on them"
    )
    parser.add_argument(
        "--swap", action="store_true", help="time the swap method against the bootstrap instead"
    )
    parser.add_argument("--reps", type=int, default=3, help="repetitions per timing with --swap (3)")
    args = parser.parse_args()
    from ir_measures_pres.meta import Core, robustness

    if args.swap:
        t0 = time.perf_counter()
        qrels, runs = make_collection()
        print(
            f"generated {N_RUNS} runs x {N_TOPICS} topics x {DEPTH} docs in {time.perf_counter() - t0:.1f} s"
        )
        bench_swap(qrels, runs, args.reps)
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"cpus: {os.cpu_count()}; load average (other processes share the cpus): {load}")
        return

    t0 = time.perf_counter()
    qrels, runs = make_collection()
    t1 = time.perf_counter()
    print(f"generated {N_RUNS} runs x {N_TOPICS} topics x {DEPTH} docs in {t1 - t0:.1f} s", flush=True)

    t2, c2 = time.perf_counter(), time.process_time()
    core = Core(qrels, runs, MEASURES, progress=False)
    t3, c3 = time.perf_counter(), time.process_time()
    res = robustness(fractions=(0.2, 0.4, 0.6, 0.8), samples=3, seed=1, progress=False, core=core)
    t4, c4 = time.perf_counter(), time.process_time()
    print("                                          wall      cpu")
    print(f"ranking {N_RUNS} runs once (Core):         {t3 - t2:6.1f} s {c3 - c2:6.1f} s")
    print(f"full qrels + 12 f-qrels, 6 measures:      {t4 - t3:6.1f} s {c4 - c3:6.1f} s")
    print(f"robustness experiment (in-memory runs):   {t4 - t2:6.1f} s {c4 - c2:6.1f} s  (target < 60 s)")
    print(
        res.summary.pivot(index="fraction", columns="measure", values="min_tau")[res.measures].to_string(
            float_format=lambda v: f"{v:.3f}"
        )
    )

    if args.files:
        out = Path(args.files)
        write_trec(qrels, runs, out)
        cmd = [
            sys.executable,
            "-m",
            "ir_measures_pres.meta",
            "robustness",
            str(out / "qrels.txt"),
            str(out / "runs"),
            "-m",
            MEASURES,
            "--seed",
            "1",
            "-q",
            "-o",
            str(out / "result"),
        ]
        t5 = time.perf_counter()
        before = os.times()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        after = os.times()
        t6 = time.perf_counter()
        cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
        print(f"CLI on TREC files (reading included):     {t6 - t5:6.1f} s {cpu:6.1f} s")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"cpus: {os.cpu_count()}; load average (other processes share the cpus): {load}")


if __name__ == "__main__":
    main()
