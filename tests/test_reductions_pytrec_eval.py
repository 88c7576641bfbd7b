"""Reductions to pytrec_eval's measures, and naive loops written from the formulas.

On binary qrels the formulas (docs/measures.md, Sakai's measures and Bpref-10) give free
cross-checks against pytrec_eval (through ir_measures), per query to 1e-9:

* Q-measure with beta = 0 is AP: BR(r) = count(r) / r, averaged over the R relevant documents;
* O-measure, P-measure and P+ with beta = 0 are RR (binary: the preferred rank is the first
  relevant document and count(rp) = 1);
* Bpref with offset 0 (``bpref_kernel(..., offset=0)``, variant ``'trec'``) is trec_eval 9 bpref.

Data: trec_eval's test collection (qrels.test has labels -1/0/1: -1 is pool-unjudged;
qrels.rel_level is graded 0-4, used with rel=2) and seeded random binary topics with heavy score
ties, unjudged documents and queries missing from the run.

PRES and R_norm have no reference tool: they are checked against loops written here straight from
the formulas of docs/measures.md (PRES from its mean-rank form; R_norm pessimistic from the rank sums;
Bollmann's R_norm by enumerating every pair of documents of a small collection), on seeded random
graded inputs with ties, unjudged documents, ``judged_only``, ``rel`` and cutoffs.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

import ir_measures
import numpy as np
import pytest
from _readers import Qrels, Run, read_qrels, read_run, trec_order
from conftest import DATA
from ir_measures import AP, RR, Bpref

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres import PRES, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm
from ir_measures_pres.data.qrels import Qrels as PackageQrels
from ir_measures_pres.data.ranking import rank_run
from ir_measures_pres.measures.recall.bpref import bpref_kernel

TOL = 1e-9
TE = DATA / "trec_eval_test"


def per_query(measures: list[Any], qrels: Qrels, run: Run) -> dict[tuple[Any, str], float]:
    return {(m.measure, m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels, run)}


def random_binary(seed: int, n_topics: int = 40) -> tuple[Qrels, Run]:
    """Binary topics (labels -1, 0, 1), unjudged retrieved docs, scores with many ties, a few
    topics without relevant docs, empty runs and queries missing from the run."""
    rs = np.random.RandomState(seed)
    qrels: Qrels = {}
    run: Run = {}
    for t in range(n_topics):
        qid = f"b{t}"
        ids = iter(rs.permutation(300).tolist())
        n_rel = 0 if rs.rand() < 0.1 else rs.randint(1, 8)
        judged = {f"d{next(ids)}": 1 for _ in range(n_rel)}
        judged |= {f"d{next(ids)}": 0 for _ in range(rs.randint(0, 12))}
        judged |= {f"d{next(ids)}": -1 for _ in range(rs.randint(0, 3))}
        if not judged:
            judged[f"d{next(ids)}"] = 0
        qrels[qid] = judged
        if rs.rand() < 0.1:
            continue
        pool = list(judged) + [f"d{next(ids)}" for _ in range(rs.randint(0, 15))]
        size = rs.randint(0, len(pool) + 1)
        docs = rs.choice(pool, size=size, replace=False).tolist()
        run[qid] = dict(zip(docs, (rs.randint(0, 4, size=size) / 4).tolist()))
    return qrels, run


@cache
def binary_collections() -> dict[str, tuple[Qrels, Run]]:
    out = {
        "trec_eval-test": (read_qrels(TE / "qrels.test"), read_run(TE / "results.test")),
        "trec_eval-trunc": (read_qrels(TE / "qrels.test"), read_run(TE / "results.trunc")),
    }
    for seed in range(3):
        out[f"random-{seed}"] = random_binary(seed)
    return out


def _assert_same(ours: Any, theirs: Any, qrels: Qrels, run: Run) -> None:
    got = per_query([ours, theirs], qrels, run)
    wrong = [
        f"{q}: {got[(ours, q)]!r} vs {got[(theirs, q)]!r}"
        for q in qrels
        if abs(got[(ours, q)] - got[(theirs, q)]) > TOL
    ]
    assert not wrong, f"{ours} != {theirs}: " + "; ".join(wrong[:5])


# (ours, pytrec_eval's) pairs that must agree on binary qrels
REDUCTIONS = [
    (QMeasure(beta=0), AP),
    (QMeasure(beta=0, judged_only=True), AP(judged_only=True)),
    (OMeasure(beta=0), RR),
    (PMeasure(beta=0), RR),
    (PPlusMeasure(beta=0), RR),
    (OMeasure(beta=0, judged_only=True), RR(judged_only=True)),
    (PMeasure(beta=0, judged_only=True), RR(judged_only=True)),
    (OMeasure(beta=0, gains={1: 7}), RR),  # beta = 0: the gains do not matter
]
COLLECTIONS = ["trec_eval-test", "trec_eval-trunc", "random-0", "random-1", "random-2"]


@pytest.mark.parametrize("collection", COLLECTIONS)
@pytest.mark.parametrize("ours,theirs", REDUCTIONS, ids=[f"{o}=={t}" for o, t in REDUCTIONS])
def test_beta_zero_reductions(collection: str, ours: Any, theirs: Any) -> None:
    qrels, run = binary_collections()[collection]
    _assert_same(ours, theirs, qrels, run)


def top_k(run: Run, k: int) -> Run:
    """The top k of each query in trec_eval order (scores kept)."""
    return {q: {d: docs[d] for d in trec_order(docs)[:k]} for q, docs in run.items()}


@pytest.mark.parametrize("collection", COLLECTIONS)
@pytest.mark.parametrize("k", (1, 5, 10))
def test_beta_zero_cutoff_is_rr_of_the_top_k(collection: str, k: int) -> None:
    """O/P/P+ (beta = 0) @k == pytrec_eval RR on the run cut to its top k.

    Not compared with ir_measures' ``RR@k``: pytrec_eval does not serve it and ir_measures routes
    it to its msmarco provider, which breaks score ties in another order than trec_eval (on these
    random runs it gives e.g. 0.5 where the trec_eval-ordered top 10 starts with a relevant doc).
    """
    qrels, run = binary_collections()[collection]
    ours = per_query([OMeasure(beta=0) @ k, PMeasure(beta=0) @ k, PPlusMeasure(beta=0) @ k], qrels, run)
    theirs = per_query([RR], qrels, top_k(run, k))
    wrong = [
        f"{m} {q}: {v!r} vs {theirs[(RR, q)]!r}"
        for (m, q), v in ours.items()
        if abs(v - theirs[(RR, q)]) > TOL
    ]
    assert not wrong, "; ".join(wrong[:5])


def _bpref_offset0(qrels: Qrels, run: Run, rel: int) -> dict[str, float]:
    prepared = PackageQrels.from_any(qrels)
    ranked = rank_run(run, prepared)
    r = ranked.qrels_stat(prepared.count(lo=rel))
    n = ranked.qrels_stat(prepared.count(lo=0, hi=rel))
    values = bpref_kernel(ranked, r, n, rel, "trec", offset=0)
    return {prepared.query_ids[i]: float(v) for i, v in zip(ranked.qpos.tolist(), values.tolist())}


BPREF_CASES = [
    ("trec_eval-test", 1),
    ("trec_eval-trunc", 1),
    ("random-0", 1),
    ("random-1", 1),
    ("random-2", 1),
    ("trec_eval-rel_level", 2),
    ("trec_eval-rel_level", 3),
]


@pytest.mark.parametrize("collection,rel", BPREF_CASES)
def test_bpref_offset_zero_is_pytrec_eval_bpref(collection: str, rel: int) -> None:
    """With 10 replaced by 0, variant 'trec' is trec_eval 9 / pytrec_eval bpref."""
    if collection == "trec_eval-rel_level":
        qrels, run = read_qrels(TE / "qrels.rel_level"), read_run(TE / "results.test")
    else:
        qrels, run = binary_collections()[collection]
    ours = _bpref_offset0(qrels, run, rel)
    measure = Bpref(rel=rel) if rel != 1 else Bpref
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    assert set(ours) == {q for q in qrels if q in run}
    wrong = [f"{q}: {v!r} vs {theirs[q]!r}" for q, v in ours.items() if abs(v - theirs[q]) > TOL]
    assert not wrong, "; ".join(wrong[:5])


# ------------------------------------------------------------------------------------------------
# naive loops for PRES and R_norm
# ------------------------------------------------------------------------------------------------


def random_graded(seed: int, n_topics: int = 25) -> tuple[Qrels, Run]:
    """Graded topics (labels -1..3), unjudged retrieved docs, ties, missing queries, empty runs."""
    rs = np.random.RandomState(100 + seed)
    qrels: Qrels = {}
    run: Run = {}
    for t in range(n_topics):
        qid = f"g{t}"
        ids = iter(rs.permutation(300).tolist())
        judged: dict[str, int] = {}
        counts = rs.randint(0, 6, size=5)  # labels -1, 0, 1, 2, 3
        if rs.rand() < 0.1:
            counts[2:] = 0
        for label, count in zip(range(-1, 4), counts):
            judged |= {f"d{next(ids)}": label for _ in range(count)}
        if not judged:
            judged[f"d{next(ids)}"] = 0
        qrels[qid] = judged
        if rs.rand() < 0.1:
            continue
        pool = list(judged) + [f"d{next(ids)}" for _ in range(rs.randint(0, 15))]
        size = rs.randint(0, len(pool) + 1)
        docs = rs.choice(pool, size=size, replace=False).tolist()
        run[qid] = dict(zip(docs, rs.randint(0, 5, size=size).astype(float).tolist()))
    return qrels, run


def naive_list(
    docs: dict[str, float], judged: dict[str, int], judged_only: bool, cutoff: int | None
) -> list[str]:
    ranked = trec_order(docs, judged, judged_only)
    return ranked if cutoff is None else ranked[:cutoff]


def is_relevant(judged: dict[str, int], doc: str, rel: int) -> bool:
    return doc in judged and judged[doc] >= rel


def naive_pres(
    docs: dict[str, float], judged: dict[str, int], n_max: int, rel: int, judged_only: bool, estimate: bool
) -> float:
    """PRES = 1 - (sum_i r_i / n - (n + 1) / 2) / N_max, missing relevant at N_max + k + 1 ... N_max + n."""
    n = sum(v >= rel for v in judged.values())
    if n == 0:
        return 0.0
    ranked = naive_list(docs, judged, judged_only, n_max)
    found = [i + 1 for i, d in enumerate(ranked) if is_relevant(judged, d, rel)]
    k = len(found)
    ranks = found + [n_max + k + j for j in range(1, n - k + 1)]
    value = 1 - (sum(ranks) / n - (n + 1) / 2) / n_max
    return value / min(1.0, n_max / n) if estimate else value


def naive_rnorm(
    docs: dict[str, float],
    judged: dict[str, int],
    big_n: int,
    rel: int,
    judged_only: bool,
    cutoff: int | None,
) -> float:
    """R_norm = 1 - (sum_i r_i - sum_{i<=n} i) / (n (N - n)), missing relevant at N - m + 1 ... N."""
    n = sum(v >= rel for v in judged.values())
    if n == 0:
        return 0.0
    if n == big_n:
        return 1.0
    ranked = naive_list(docs, judged, judged_only, cutoff)
    found = [i + 1 for i, d in enumerate(ranked) if is_relevant(judged, d, rel)]
    m = n - len(found)
    ranks = found + list(range(big_n - m + 1, big_n + 1))
    return 1 - (sum(ranks) - n * (n + 1) / 2) / (n * (big_n - n))


def naive_bollmann(
    docs: dict[str, float],
    judged: dict[str, int],
    big_n: int,
    rel: int,
    judged_only: bool,
    cutoff: int | None,
) -> float:
    """Bollmann: enumerate every pair of the N documents of the collection. The system position
    of a listed doc is its rank; every other doc (relevant not listed, listed-elsewhere, filler)
    sits in one tied block at infinity. grade = label if label >= rel, else 0.
    R_norm = (1 + (S+ - S-) / S+max) / 2 over the pairs with different grades."""
    n = sum(v >= rel for v in judged.values())
    if n == 0:
        return 0.0
    ranked = naive_list(docs, judged, judged_only, cutoff)

    def grade(d: str) -> int:
        return judged[d] if is_relevant(judged, d, rel) else 0

    collection = [(grade(d), float(i)) for i, d in enumerate(ranked)]
    listed = set(ranked)
    collection += [(v, math.inf) for d, v in judged.items() if v >= rel and d not in listed]
    assert len(collection) <= big_n
    collection += [(0, math.inf)] * (big_n - len(collection))
    s_plus = s_minus = s_max = 0
    for (g1, p1), (g2, p2) in itertools.combinations(collection, 2):
        if g1 == g2:
            continue
        if g1 < g2:
            p1, p2 = p2, p1
        s_max += 1
        if p1 < p2:
            s_plus += 1
        elif p1 > p2:
            s_minus += 1
    if s_max == 0:
        return 1.0
    return 0.5 * (1 + (s_plus - s_minus) / s_max)


def _compare_naive(measures: dict[Any, Any], qrels: Qrels, run: Run) -> None:
    """measures: our measure -> naive(docs, judged); a query missing from the run or with an
    empty list scores what the naive formula gives an empty ranking (docs/conventions.md)."""
    got = per_query(list(measures), qrels, run)
    wrong = []
    for measure, naive in measures.items():
        for qid, judged in qrels.items():
            expected = naive(run.get(qid) or {}, judged)
            if abs(got[(measure, qid)] - expected) > TOL:
                wrong.append(f"{measure} {qid}: ours {got[(measure, qid)]!r} naive {expected!r}")
    assert not wrong, f"{len(wrong)} differ: " + "; ".join(wrong[:5])


SEEDS = (0, 1, 2)
CUTOFFS = (None, 1, 3, 10)


@pytest.mark.parametrize("seed", SEEDS)
def test_pres_naive(seed: int) -> None:
    qrels, run = random_graded(seed)
    measures = {}
    for n_max, rel, judged_only, estimate in itertools.product(
        (1, 3, 10, 1000), (1, 2), (False, True), (False, True)
    ):
        measure = PRES(cutoff=n_max, rel=rel, judged_only=judged_only, estimate=estimate)
        measures[measure] = lambda d, j, a=(n_max, rel, judged_only, estimate): naive_pres(d, j, *a)
    _compare_naive(measures, qrels, run)


def _collection_size(qrels: Qrels, run: Run, extra: int) -> int:
    """The smallest N that holds every query's run and its unretrieved relevant docs, plus extra."""
    return extra + max(
        len(run.get(q, {})) + sum(v >= 1 and d not in run.get(q, {}) for d, v in judged.items())
        for q, judged in qrels.items()
    )


@pytest.mark.parametrize("extra", (0, 1, 20))
@pytest.mark.parametrize("seed", SEEDS)
def test_rnorm_naive(seed: int, extra: int) -> None:
    """Both modes; extra = 0 makes N tight for the largest query (no filler docs there)."""
    qrels, run = random_graded(seed)
    big_n = _collection_size(qrels, run, extra)
    measures = {}
    for rel, judged_only, cutoff in itertools.product((1, 2), (False, True), CUTOFFS):
        params: dict[str, Any] = {"collection_size": big_n, "rel": rel, "judged_only": judged_only}
        if cutoff is not None:
            params["cutoff"] = cutoff
        args = (big_n, rel, judged_only, cutoff)
        measures[R_norm(**params)] = lambda d, j, a=args: naive_rnorm(d, j, *a)
        measures[R_norm(mode="bollmann", **params)] = lambda d, j, a=args: naive_bollmann(d, j, *a)
    _compare_naive(measures, qrels, run)


def test_bollmann_equals_classical_on_binary_total_orders() -> None:
    """With binary grades and a total order (every relevant doc retrieved, so no relevant
    doc is tied with a non-relevant one) Bollmann's form equals the classical formula."""
    rs = np.random.RandomState(7)
    for _ in range(30):
        length = rs.randint(1, 20)
        labels = rs.randint(0, 2, size=length)
        docs = {f"d{i}": float(length - i) for i in range(length)}
        judged = {f"d{i}": int(v) for i, v in enumerate(labels)}
        big_n = length + rs.randint(0, 10)
        n = int(labels.sum())
        if n == 0 or n == big_n:
            continue
        classical = naive_rnorm(docs, judged, big_n, 1, False, None)
        assert naive_bollmann(docs, judged, big_n, 1, False, None) == pytest.approx(classical, abs=TOL)
        got = per_query([R_norm(collection_size=big_n, mode="bollmann")], {"q": judged}, {"q": docs})
        assert next(iter(got.values())) == pytest.approx(classical, abs=TOL)


def test_random_inputs_exercise_the_edges() -> None:
    kinds = set()
    for seed in SEEDS:
        for qrels, run in (random_graded(seed), random_binary(seed)):
            for qid, judged in qrels.items():
                if qid not in run:
                    kinds.add("missing")
                    continue
                docs = run[qid]
                kinds |= {"empty"} if not docs else set()
                kinds |= {"ties"} if len(set(docs.values())) < len(docs) else set()
                kinds |= {"unjudged"} if any(d not in judged for d in docs) else set()
                kinds |= {"negative"} if any(judged.get(d, 0) < 0 for d in docs) else set()
                kinds |= {"no relevant"} if not any(v >= 1 for v in judged.values()) else set()
    assert kinds == {"missing", "empty", "ties", "unjudged", "negative", "no relevant"}
