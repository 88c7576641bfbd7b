"""Q-measure, O-measure, P-measure and P+ against pyNTCIREVAL (PyPI 0.0.3, the Python port of
NTCIREVAL) on seeded random graded topics, to 1e-9.

The topics have levels 0-3, qrels lines with negative labels (in the pool, unjudged), retrieved
documents absent from the qrels, many tied scores, empty runs and queries missing from the run.
The grid: beta in {0, 0.5, 1, 3}; gains default (g(L) = L), {1: 1, 2: 4, 3: 9} and {1: 1, 2: 2,
3: 2} (two levels with one gain: the preferred rank is still decided by level); cutoffs None,
1, 5, 20; judged_only False and True.

How pyNTCIREVAL is fed (it ranks in list order, as NTCIREVAL ranks in file order):

* the list is the run in trec_eval order (score desc, doc id desc), sorted here with Python's
  ``sorted``; unjudged documents (absent from the qrels or labelled < 0) get level ``None``;
  ``judged_only=True`` (NTCIREVAL ``-j``) drops them from the list;
* ``xrelnum`` = number of qrels documents per level 0..3; ``grades`` = the gains of levels 1..3
  (level 0 excluded);
* ``QMeasure(..., cutoff=k)`` is NTCIREVAL's Q@k (normalised by min(k, R)), which is our
  ``QMeasure@k``. O/P/P+ have no cutoff in pyNTCIREVAL: our ``@k`` means "evaluate the top k",
  so pyNTCIREVAL gets the top k of the list. (Setting pyNTCIREVAL's ``cutoff`` attribute instead
  would NOT be the same for P/P+: it finds the preferred rank on the whole list before cutting.)
* an empty list scores 0 (pyNTCIREVAL itself fails on it: ``max()`` of an empty sequence).

No difference between pyNTCIREVAL and docs/measures.md was found on this grid: its preferred
rank is by level (``find_first_max_rank``) and its Q@k divides by min(k, R), as documented there.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import ir_measures
import numpy as np
import pytest
from _readers import Qrels, Run, trec_order
from hypothesis import given, settings
from hypothesis import strategies as st

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres import OMeasure, PMeasure, PPlusMeasure, QMeasure

pyntcireval = pytest.importorskip("pyNTCIREVAL.metrics")

TOL = 1e-9
LMAX = 3
BETAS = (0.0, 0.5, 1.0, 3.0)
GAINS: tuple[dict[int, int] | None, ...] = (None, {1: 1, 2: 4, 3: 9}, {1: 1, 2: 2, 3: 2})
CUTOFFS = (None, 1, 5, 20)
OURS = {"Q": QMeasure, "O": OMeasure, "P": PMeasure, "P+": PPlusMeasure}
SEEDS = (0, 1, 2, 3)


def grades_of(gains: dict[int, int] | None) -> list[float]:
    """pyNTCIREVAL's ``grades``: gains of levels 1..LMAX (the default is g(L) = L)."""
    return [float(level if gains is None else gains[level]) for level in range(1, LMAX + 1)]


def oracle(
    kind: str,
    ranked: list[tuple[str, int | None]],
    xrelnum: list[int],
    gains: dict[int, int] | None,
    beta: float,
    cutoff: int | None,
) -> float:
    """pyNTCIREVAL's value on a ranked list of (doc id, level or None)."""
    grades = grades_of(gains)
    if kind == "Q":
        if not ranked:
            return 0.0
        return pyntcireval.QMeasure(xrelnum, grades, beta, cutoff=cutoff).compute(ranked)
    if cutoff is not None:
        ranked = ranked[:cutoff]
    if not ranked:
        return 0.0
    cls = {"O": pyntcireval.OMeasure, "P": pyntcireval.PMeasure, "P+": pyntcireval.PPlusMeasure}[kind]
    return cls(xrelnum, grades, beta).compute(ranked)


def pyntcireval_list(
    docs: dict[str, float], judged: dict[str, int], judged_only: bool
) -> list[tuple[str, int | None]]:
    """The run in trec_eval order as pyNTCIREVAL's ranked list."""
    out = []
    for doc in trec_order(docs):
        level = judged.get(doc)
        if level is None or level < 0:
            if judged_only:
                continue
            level = None
        out.append((doc, level))
    return out


def xrelnum_of(judged: dict[str, int]) -> list[int]:
    return [sum(v == level for v in judged.values()) for level in range(LMAX + 1)]


def random_topics(seed: int, n_topics: int = 30) -> tuple[Qrels, Run]:
    """Graded topics with unjudged docs, pool-unjudged (-1) lines and heavy score ties. Doc ids
    are unpadded numbers, so string order differs from numeric order."""
    rs = np.random.RandomState(seed)
    qrels: Qrels = {}
    run: Run = {}
    for t in range(n_topics):
        qid = f"q{t}"
        ids = iter(rs.permutation(400).tolist())
        judged: dict[str, int] = {}
        counts = rs.randint(0, 6, size=LMAX + 1)
        if rs.rand() < 0.1:
            counts[1:] = 0  # no relevant document
        for level, count in enumerate(counts):
            for _ in range(count):
                judged[f"d{next(ids)}"] = level
        for _ in range(rs.randint(0, 3)):
            judged[f"d{next(ids)}"] = -1
        if not judged:
            judged[f"d{next(ids)}"] = 0
        qrels[qid] = judged
        if rs.rand() < 0.1:
            continue  # query missing from the run: DEFAULT 0
        pool = list(judged) + [f"d{next(ids)}" for _ in range(rs.randint(0, 25))]
        size = rs.randint(0, len(pool) + 1)
        docs = rs.choice(pool, size=size, replace=False).tolist()
        scores = rs.randint(0, 6, size=size).astype(float) / 2
        run[qid] = dict(zip(docs, scores.tolist()))
    return qrels, run


def _measure(
    kind: str, beta: float, gains: dict[int, int] | None, cutoff: int | None, judged_only: bool
) -> Any:
    params: dict[str, Any] = {"beta": beta, "judged_only": judged_only}
    if gains is not None:
        params["gains"] = gains
    if cutoff is not None:
        params["cutoff"] = cutoff
    return OURS[kind](**params)


GRID = list(itertools.product(BETAS, range(len(GAINS)), CUTOFFS, (False, True)))


@cache
def ours(seed: int, kind: str) -> dict[tuple[Any, str], float]:
    """Our values of one measure kind over the whole grid, in one ir_measures call."""
    qrels, run = random_topics(seed)
    measures = [_measure(kind, b, GAINS[g], c, j) for b, g, c, j in GRID]
    return {(m.measure, m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels, run)}


@pytest.mark.parametrize("kind", list(OURS))
@pytest.mark.parametrize("seed", SEEDS)
def test_matches_pyntcireval(seed: int, kind: str) -> None:
    qrels, run = random_topics(seed)
    got = ours(seed, kind)
    wrong = []
    compared = 0
    for (beta, g, cutoff, judged_only), qid in itertools.product(GRID, qrels):
        gains = GAINS[g]
        judged = qrels[qid]
        ranked = pyntcireval_list(run.get(qid, {}), judged, judged_only)
        expected = oracle(kind, ranked, xrelnum_of(judged), gains, beta, cutoff)
        measure = _measure(kind, beta, gains, cutoff, judged_only)
        value = got[(measure, qid)]
        compared += 1
        if abs(value - expected) > TOL:
            wrong.append(f"{measure} {qid}: ours {value!r} pyNTCIREVAL {expected!r}")
    assert compared == len(GRID) * len(qrels)
    assert not wrong, f"{len(wrong)} of {compared} differ, e.g. " + "; ".join(wrong[:5])


def test_random_topics_exercise_the_edges() -> None:
    """The generated data has what the oracle test claims to cover."""
    kinds = set()
    for seed in SEEDS:
        qrels, run = random_topics(seed)
        for qid, judged in qrels.items():
            docs = run.get(qid)
            if docs is None:
                kinds.add("missing query")
                continue
            if not docs:
                kinds.add("empty run")
            if any(d not in judged for d in docs):
                kinds.add("unjudged retrieved")
            if any(judged.get(d, 0) < 0 for d in docs):
                kinds.add("pool-unjudged retrieved")
            if len(set(docs.values())) < len(docs):
                kinds.add("ties")
            if not any(v >= 1 for v in judged.values()):
                kinds.add("no relevant")
            levels = [judged.get(d, 0) for d in docs]
            if max(judged.values()) >= 1 and max(levels, default=0) < max(judged.values()):
                kinds.add("top level not retrieved")
            if len(docs) > 20:
                kinds.add("longer than the largest cutoff")
    assert kinds == {
        "missing query",
        "empty run",
        "unjudged retrieved",
        "pool-unjudged retrieved",
        "ties",
        "no relevant",
        "top level not retrieved",
        "longer than the largest cutoff",
    }


def test_cutoff_is_top_k_not_pyntcireval_cutoff_attribute() -> None:
    """Documented difference: our O/P/P+ ``@k`` evaluate the top k (docs/conventions.md,
    Cutoffs), so the preferred rank is found within the top k. pyNTCIREVAL's P/P+ take no cutoff;
    setting their ``cutoff`` attribute finds rp on the whole list first, then stops at k.

    List: L1 at rank 1, L0 at 2, L3 at 3; R = 2 (xrelnum [1, 1, 0, 1]); gains 1/2/3, ideal list
    L3, L1: cgI = 3, 4, 4. Top 2: rp = 1, BR(1) = (1 + 1) / (3 + 1) = 0.5 for P and P+.
    """
    qrels = {"q": {"a": 1, "b": 0, "c": 3}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    ranked: list[tuple[str, int | None]] = [("a", 1), ("b", 0), ("c", 3)]
    got = {m.measure: m.value for m in ir_measures.iter_calc([PMeasure @ 2, PPlusMeasure @ 2], qrels, run)}
    assert got[PMeasure @ 2] == pytest.approx((1 + 1) / (3 + 1), abs=TOL)
    assert got[PPlusMeasure @ 2] == pytest.approx((1 + 1) / (3 + 1), abs=TOL)
    assert oracle("P", ranked, [1, 1, 0, 1], None, 1.0, 2) == got[PMeasure @ 2]
    p_attr = pyntcireval.PMeasure([1, 1, 0, 1], [1.0, 2.0, 3.0], 1.0)
    p_attr.cutoff = 2
    assert p_attr.compute(ranked) == 0.0  # rp = 3 lies beyond the cutoff
    pplus_attr = pyntcireval.PPlusMeasure([1, 1, 0, 1], [1.0, 2.0, 3.0], 1.0)
    pplus_attr.cutoff = 2
    assert pplus_attr.compute(ranked) == pytest.approx(0.5 / 2, abs=TOL)  # BR(1) over count(rp) = 2


# a smaller property test: one topic, any beta, ids from a mixed alphabet (byte order of ties)
_IDS = st.text(alphabet="aAzZ09_-é中", min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(
    judged=st.dictionaries(_IDS, st.integers(-1, LMAX), min_size=1, max_size=12),
    extra=st.lists(_IDS, max_size=5),
    scores=st.lists(st.integers(0, 3), min_size=20, max_size=20),
    beta=st.floats(0, 5, allow_nan=False),
    gains=st.sampled_from(GAINS),
    cutoff=st.sampled_from(CUTOFFS),
    judged_only=st.booleans(),
)
def test_matches_pyntcireval_property(
    judged: dict[str, int],
    extra: list[str],
    scores: list[int],
    beta: float,
    gains: dict[int, int] | None,
    cutoff: int | None,
    judged_only: bool,
) -> None:
    docs = list(dict.fromkeys(list(judged) + extra))
    run = {"q": {d: float(s) for d, s in zip(docs, scores)}}
    qrels = {"q": judged}
    ranked = pyntcireval_list(run["q"], judged, judged_only)
    measures = {kind: _measure(kind, beta, gains, cutoff, judged_only) for kind in OURS}
    got = {m.measure: m.value for m in ir_measures.iter_calc(list(measures.values()), qrels, run)}
    for kind, measure in measures.items():
        expected = oracle(kind, ranked, xrelnum_of(judged), gains, beta, cutoff)
        assert got[measure] == pytest.approx(expected, abs=TOL), (kind, ranked)
