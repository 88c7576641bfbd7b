"""The branch and bound of the bounds (engine/bounds.py) on long lists with many unjudged documents.

tests/test_bounds.py checks the bounds against every completion of the unjudged labels, which
limits it to a few unjudged documents a query. Here lists are long (40-400 documents, up to 300
unjudged), so the search prunes with every rule it has: the decoupled completions (nDCG, Q), the
ends' values of N / (c R) (AP), and the chords of a concave N (PRES, R@k). The truth is the
reduction proven in the module docstring and checked by tests/test_bounds.py: with m unjudged
documents relevant, the best completion marks the top m, the worst the bottom m. Every one of
these 2 (u + 1) completions is written out as qrels and scored by ir_measures itself
(pytrec_eval; the package's provider for PRES and Q). The concavity the pruning of PRES and R@k
rests on is checked here too, on ir_measures' values.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

import ir_measures
import pytest

import ir_measures_pres  # noqa: F401  (registers PRES and QMeasure with ir_measures)
from ir_measures_pres.engine.bounds import calc_bounds

Qrels = Dict[str, Dict[str, int]]
Run = Dict[str, Dict[str, float]]


def long_case(seed: int) -> Tuple[Qrels, Run]:
    """A few queries of 40-400 documents in score order, unjudged documents in clusters and
    alone (the shapes that make AP rise, fall and rise again along m), some relevant documents
    not retrieved, a query with nothing relevant judged."""
    rng = random.Random(seed)
    qrels: Qrels = {}
    run: Run = {}
    for qi in range(rng.randint(2, 4)):
        q = f"q{qi}"
        n = rng.randint(40, 400)
        p_unjudged = rng.choice([0.2, 0.5, 0.8])
        p_relevant = rng.choice([0.05, 0.2, 0.5])
        judged: Dict[str, int] = {}
        scores: Dict[str, float] = {}
        k = 0
        while k < n:
            width = rng.choice([1, 1, 2, 5, 20])  # a run of documents of one kind
            kind = rng.random()
            for _ in range(min(width, n - k)):
                d = f"d{qi}_{k:04d}"
                scores[d] = float(n - k)
                if kind >= p_unjudged:
                    judged[d] = 1 if rng.random() < p_relevant else 0
                k += 1
        for j in range(rng.randint(0, 30)):  # relevant, not retrieved
            judged[f"x{qi}_{j}"] = 1
        if qi == 1 and rng.random() < 0.3:
            judged = {d: 0 for d in judged}
        qrels[q] = judged
        run[q] = scores
    return qrels, run


def completions(qrels: Qrels, run: Run, q: str) -> Tuple[Qrels, Run]:
    """The query's top-m and bottom-m completions, m = 0 .. u, as queries ``q#top#m`` and
    ``q#bot#m``."""
    order = sorted(run[q], key=lambda d: (-run[q][d], d))
    unjudged = [d for d in order if qrels[q].get(d, -1) < 0]
    u = len(unjudged)
    big_qrels: Qrels = {}
    big_run: Run = {}
    for side, marked_of in (("top", lambda m: unjudged[:m]), ("bot", lambda m: unjudged[u - m :])):
        for m in range(u + 1):
            name = f"{q}#{side}#{m}"
            completed = {d: v for d, v in qrels[q].items() if v >= 0}
            completed.update({d: 0 for d in unjudged})
            completed.update({d: 1 for d in marked_of(m)})
            big_qrels[name] = completed
            big_run[name] = run[q]
    return big_qrels, big_run


def values_along_m(measure: Any, qrels: Qrels, run: Run, q: str) -> Dict[str, List[float]]:
    """ir_measures' value of every top-m and bottom-m completion of ``q``, by side, m = 0 .. u."""
    big_qrels, big_run = completions(qrels, run, q)
    by_name = {m.query_id: m.value for m in ir_measures.iter_calc([measure], big_qrels, big_run)}
    u = (len(big_qrels) // 2) - 1
    return {side: [by_name[f"{q}#{side}#{m}"] for m in range(u + 1)] for side in ("top", "bot")}


MEASURES = ["AP", "AP@100", "PRES", "PRES@100", "R@100", "R@1000", "nDCG@10", "nDCG", "QMeasure"]


@pytest.mark.parametrize("name", MEASURES)
@pytest.mark.parametrize("seed", range(5))
def test_bounds_equal_the_best_and_worst_completion(name: str, seed: int) -> None:
    qrels, run = long_case(seed)
    measure = ir_measures.parse_measure(name)
    got = calc_bounds([measure], qrels, run)[measure]
    for q in run:
        along = values_along_m(measure, qrels, run, q)
        b = got.per_query[q]
        assert b.exact
        assert b.hi == pytest.approx(max(along["top"]), abs=1e-9), (name, seed, q)
        assert b.lo == pytest.approx(min(along["bot"]), abs=1e-9), (name, seed, q)


def steps(values: List[float], relevant: List[int]) -> List[float]:
    """N(m) - N(m - 1) of N = V R (R the relevant documents of completion m)."""
    n = [v * r for v, r in zip(values, relevant)]
    return [b - a for a, b in zip(n, n[1:])]


@pytest.mark.parametrize("name", ["PRES", "PRES@100", "R@100", "R@30"])
@pytest.mark.parametrize("seed", range(5))
def test_the_sum_over_relevant_documents_is_concave_from_the_top(name: str, seed: int) -> None:
    """engine/bounds.py's fact for PRES and R@k: N = V R steps down (or stays) along the top-m
    completions and up along the bottom-m ones, in ir_measures' own values."""
    qrels, run = long_case(seed)
    measure = ir_measures.parse_measure(name)
    for q in run:
        along = values_along_m(measure, qrels, run, q)
        r0 = sum(1 for v in qrels[q].values() if v >= 1)
        relevant = [r0 + m for m in range(len(along["top"]))]
        top, bottom = steps(along["top"], relevant), steps(along["bot"], relevant)
        assert all(s >= -1e-9 for s in top + bottom), (name, seed, q)  # N only grows
        assert all(b <= a + 1e-9 for a, b in zip(top, top[1:])), (name, seed, q)
        assert all(b >= a - 1e-9 for a, b in zip(bottom, bottom[1:])), (name, seed, q)


def test_ap_is_not_concave_from_the_top() -> None:
    """Why AP is pruned by the ends' values only: one unjudged document alone at rank 10 and a
    cluster of them from rank 20 make AP fall and rise again along the top-m completions
    (1 relevant document at rank 1, R = 1: AP(0) = 1, AP(1) = (1 + 2/10) / 2 = 0.6, then the
    cluster's precisions climb back towards 1), and the search still finds the max, AP(0) = 1."""
    docs = [f"d{k:03d}" for k in range(1, 201)]
    run = {"q": {d: float(1000 - k) for k, d in enumerate(docs)}}
    judged = {"d001": 1}
    judged.update({d: 0 for d in docs[1:9]})  # ranks 2-9
    judged.update({d: 0 for d in docs[10:19]})  # ranks 11-19
    qrels = {"q": judged}
    along = values_along_m(ir_measures.AP, qrels, run, "q")["top"]
    assert along[0] == 1.0 and along[1] == pytest.approx((1 + 2 / 10) / 2)
    assert along[2] < along[1] < along[-1] < along[0]  # falls, then rises
    got = calc_bounds([ir_measures.AP], qrels, run)[ir_measures.AP].per_query["q"]
    assert got.hi == pytest.approx(max(along)) and got.hi == 1.0
