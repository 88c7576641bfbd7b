"""The ``diversity`` command (issue 35, docs/diversity.md): its six scripts on set A's 7 runs
(tests/data/ntcireval-diversity, checked byte for byte against the tool's files) and on a
synthetic collection of 1,000 topics, against the main command's nDCG@10 on the same runs.

Each timing is one ``ir_measures_pres diversity SCRIPT PROB DQRELS RUN --cutoff 10`` as a user
runs it, in-process (``diversity_cli``, output to memory: reading the three files, every
measure, formatting); the main command's ``ir_measures_pres QRELS RUN nDCG@10`` (``run_cli``)
reads a TREC qrels made from the Dqrels (each document's highest level over its intents).

Usage::

    python bench/bench_diversity.py [--repeat 3] [--topics 1000]

Numbers: bench/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]
SET_A = REPO / "tests" / "data" / "ntcireval-diversity" / "setA"
#: set A's runs, as its run list (the tool's ``runl``) names them
RUNS = (SET_A / "runl").read_text().split()
#: script -> (probability file of set A, the tool's evalname and suffix at cutoff 10)
SCRIPTS = {
    "D-NTCIR-eval": ("setA.DINprob", "l10.Dnev"),
    "D-NTCIR-eval2": ("setA.DINprob", "e2l10.Dnev"),
    "DIN-NTCIR-eval": ("setA.DINprob", "l10.DINnev"),
    "D-NTCIR-IAeval": ("setA.Iprob", "l10.nevIA"),
    "D-NTCIR-IAeval2": ("setA.Iprob", "ia2l10.nevIA"),
    "DIN-NTCIR-PQeval": ("setA.DINprob", "l10.nevPQ"),
}


def _quiet(call: Callable[[io.StringIO], int]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        assert call(out) == 0
    return out.getvalue()


def diversity(script: str, prob: Path, dqrels: Path, run: Path) -> str:
    from ir_measures_pres.cli.diversity import diversity_cli

    argv = [script, str(prob), str(dqrels), str(run), "--cutoff", "10"]
    return _quiet(lambda out: diversity_cli(argv, out))


def ndcg10(qrels: Path, run: Path, measure: str = "nDCG@10") -> str:
    from ir_measures_pres.cli.evaluate import run_cli

    return _quiet(lambda out: run_cli([str(qrels), str(run), measure], out))


def several(script: str, prob: Path, dqrels: Path, runs: List[Path], folder: Path) -> str:
    """The runs in one call, each run's file into ``folder`` (``--output-dir``)."""
    from ir_measures_pres.cli.diversity import diversity_cli

    argv = [script, str(prob), str(dqrels), *map(str, runs), "--cutoff", "10", "--output-dir", str(folder)]
    return _quiet(lambda out: diversity_cli(argv, out))


def trec_diversity_qrels(dqrels_text: str) -> str:
    """The Dqrels as TREC diversity qrels: ``topic intent docno rel`` (the intent in the
    iteration column)."""
    return "".join(
        f"{t} {i} {d} {level[1:]}\n" for t, i, d, level in (line.split() for line in dqrels_text.splitlines())
    )


def trec_qrels(dqrels_text: str) -> str:
    """A TREC qrels of the Dqrels: per (topic, document) its highest level over the intents."""
    best: Dict[Tuple[str, str], int] = {}
    for line in dqrels_text.splitlines():
        topic, _, doc, level = line.split()
        key = (topic, doc)
        best[key] = max(best.get(key, 0), int(level[1:]))
    return "".join(f"{t} 0 {d} {v}\n" for (t, d), v in best.items())


def synthetic(folder: Path, topics: int, seed: int = 35) -> Tuple[Path, Path, Path, Path]:
    """A seeded collection in the scripts' formats: ``topics`` topics of 1 to 6 intents (a third
    navigational), about 20 judged documents per intent (L0 to L3), a run of 1,000 documents per
    topic (about a tenth judged). Returns (DINprob, Dqrels, run, TREC qrels)."""
    rng = random.Random(seed)
    prob, dqrels, run = [], [], []
    for t in range(topics):
        tid = f"{t + 1:04d}"
        k = rng.randint(1, 6)
        weights = [rng.random() + 0.05 for _ in range(k)]
        total = sum(weights)
        for i, w in enumerate(weights, start=1):
            prob.append(f"{tid} {i} {w / total:.4f} {'nav' if rng.random() < 0.33 else 'inf'}\n")
        pool = [f"{tid}-{j:05d}" for j in range(20 * k)]
        for i in range(1, k + 1):
            for doc in rng.sample(pool, 20):
                level = rng.choice([0, 1, 1, 2, 3])
                dqrels.append(f"{tid} {i if level else 0} {doc} L{level}\n")
        dqrels = _unique(dqrels)
        docs = pool + [f"{tid}-u{j:05d}" for j in range(1000)]
        for r, doc in enumerate(rng.sample(docs, 1000), start=1):
            run.append(f"{tid} Q0 {doc} {r} {1000 - r} syn\n")
    paths = [folder / n for n in ("syn.DINprob", "syn.Dqrels", "syn.run", "syn.qrels")]
    dq = "".join(dqrels)
    for path, text in zip(paths, ("".join(prob), dq, "".join(run), trec_qrels(dq))):
        path.write_text(text)
    return paths[0], paths[1], paths[2], paths[3]


def _unique(lines: List[str]) -> List[str]:
    """The lines, a repeated (topic, intent, docno) (an L0 line of intent 0) kept once."""
    seen = set()
    out = []
    for line in lines:
        key = tuple(line.split()[:3])
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out


def best_of(repeat: int, work: Callable[[], object]) -> Tuple[float, List[float]]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), times


def _report(what: str, best: float, times: List[float]) -> None:
    print(f"{what} best {best:.3f} s  ({', '.join(f'{t:.3f}' for t in times)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--topics", type=int, default=1000)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    dqrels = SET_A / "setA.Dqrels.gz"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        qrels = folder / "setA.qrels"
        qrels.write_text(trec_qrels(gzip.open(dqrels, "rt").read()))
        same = 0
        for script, (prob, name) in SCRIPTS.items():
            for run in RUNS:
                expected = gzip.open(SET_A / "out" / f"{run}.{name}.gz", "rt").read()
                same += diversity(script, SET_A / prob, dqrels, SET_A / f"{run}.gz") == expected
        print(f"set A: {same} of {len(SCRIPTS) * len(RUNS)} outputs identical to the tool's files")
        for script, (prob, _) in SCRIPTS.items():
            best, times = best_of(
                args.repeat,
                lambda: [diversity(script, SET_A / prob, dqrels, SET_A / f"{r}.gz") for r in RUNS],  # noqa: B023
            )
            print(f"set A, 7 runs, {script:<17} best {best:.3f} s  ({', '.join(f'{t:.3f}' for t in times)})")
        best, times = best_of(args.repeat, lambda: [ndcg10(qrels, SET_A / f"{r}.gz") for r in RUNS])
        print(f"set A, 7 runs, main nDCG@10     best {best:.3f} s  ({', '.join(f'{t:.3f}' for t in times)})")
        out_dir = folder / "files"
        out_dir.mkdir()
        run_paths = [SET_A / f"{r}.gz" for r in RUNS]
        best, times = best_of(
            args.repeat, lambda: several("D-NTCIR-eval", SET_A / "setA.DINprob", dqrels, run_paths, out_dir)
        )
        _report("set A, 7 runs in one call, D-NTCIR-eval", best, times)
        prob_s, dqrels_s, run_s, qrels_s = synthetic(folder, args.topics)
        lines = sum(1 for _ in run_s.open())
        judged = sum(1 for _ in dqrels_s.open())
        print(f"synthetic: {args.topics} topics, {lines} run lines, {judged} Dqrels lines")
        for script in SCRIPTS:
            best, times = best_of(args.repeat, lambda: diversity(script, prob_s, dqrels_s, run_s))  # noqa: B023
            print(f"synthetic, {script:<17} best {best:.3f} s  ({', '.join(f'{t:.3f}' for t in times)})")
        best, times = best_of(args.repeat, lambda: ndcg10(qrels_s, run_s))
        print(f"synthetic, main nDCG@10     best {best:.3f} s  ({', '.join(f'{t:.3f}' for t in times)})")
        # the registered measure through the main command: intents from dqrels=, then from the
        # qrels' iteration column (a TREC diversity qrels file)
        registered = f"Dsharp_nDCG(probs='{prob_s}',dqrels='{dqrels_s}')@10"
        best, times = best_of(args.repeat, lambda: ndcg10(qrels_s, run_s, registered))
        _report("synthetic, main Dsharp_nDCG@10 (dqrels=)", best, times)
        div_qrels = folder / "syn.div-qrels"
        div_qrels.write_text(trec_diversity_qrels(dqrels_s.read_text()))
        from_qrels = f"Dsharp_nDCG(probs='{prob_s}')@10"
        best, times = best_of(args.repeat, lambda: ndcg10(div_qrels, run_s, from_qrels))
        _report("synthetic, main Dsharp_nDCG@10 (qrels' intents)", best, times)


if __name__ == "__main__":
    main()
