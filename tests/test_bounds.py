"""Bounds over unjudged documents (issue #30, spec judgements.md §3.2) against brute force.

Every completion of the unjudged labels of small random runs (every assignment of 0 or the
relevant level to the retrieved documents the qrels do not judge, or judge with a negative
value) is written out as qrels and scored by ir_measures itself (pytrec_eval for the standard
measures, the package's provider for PRES, R_norm and Q): lo and hi must be the min and the max
over them (exact), and for graded nDCG and Q the true range over every graded completion must
lie inside the outer bounds.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Dict, List, Tuple

import ir_measures
import pytest

import ir_measures_pres
from ir_measures_pres.engine.bounds import BoundsError, calc_bounds

Qrels = Dict[str, Dict[str, int]]
Run = Dict[str, Dict[str, float]]


def random_case(seed: int, grades: int, max_unjudged: int = 8) -> Tuple[Qrels, Run]:
    """A few queries; each retrieves 6-24 documents, of which at most ``max_unjudged`` are
    unjudged (absent from the qrels, or judged -1); some relevant documents are not retrieved."""
    rng = random.Random(seed)
    qrels: Qrels = {}
    run: Run = {}
    for qi in range(rng.randint(2, 4)):
        q = f"q{qi}"
        n = rng.randint(6, 24)
        docs = [f"d{qi}_{k}" for k in range(n)]
        scores = {d: float(rng.randint(0, 12)) for d in docs}  # ties, broken by doc id
        u = rng.randint(0, min(max_unjudged, n))
        unjudged = set(rng.sample(docs, u))
        judged = {d: rng.choice([0, 0] + list(range(1, grades + 1))) for d in docs if d not in unjudged}
        for d in rng.sample(sorted(unjudged), rng.randint(0, min(2, u))):
            judged[d] = -1  # in the pool, not judged: unjudged (docs/conventions.md)
        for k in range(rng.randint(0, 4)):  # judged, not retrieved
            judged[f"x{qi}_{k}"] = rng.choice([0] + list(range(1, grades + 1)))
        if rng.random() < 0.15:
            judged = {d: min(v, 0) for d, v in judged.items()}  # no relevant document judged
        qrels[q] = judged
        run[q] = scores
    if rng.random() < 0.5:
        qrels["q_missing"] = {"m1": 1, "m2": 0}  # a qrels query the run lacks: DEFAULT
    return qrels, run


def unjudged_of(qrels: Qrels, run: Run, q: str) -> List[str]:
    return sorted(d for d in run.get(q, {}) if qrels[q].get(d, -1) < 0)


def brute_force(measure: Any, qrels: Qrels, run: Run, values: List[int]) -> Dict[str, Tuple[float, float]]:
    """Per qrels query, (min, max) of ``measure`` over every assignment of ``values`` to its
    unjudged retrieved documents, each completion a query of one ir_measures call."""
    big_qrels: Qrels = {}
    big_run: Run = {}
    owner: Dict[str, str] = {}
    for q in qrels:
        unj = unjudged_of(qrels, run, q)
        for k, labels in enumerate(itertools.product(values, repeat=len(unj))):
            name = f"{q}#{k}"
            completed = {d: v for d, v in qrels[q].items() if d not in unj}
            completed.update(zip(unj, labels))
            big_qrels[name] = completed
            if q in run:
                big_run[name] = dict(run[q])
            owner[name] = q
    out: Dict[str, Tuple[float, float]] = {}
    for metric in ir_measures.iter_calc([measure], big_qrels, big_run):
        q = owner[metric.query_id]
        lo, hi = out.get(q, (float("inf"), float("-inf")))
        out[q] = (min(lo, metric.value), max(hi, metric.value))
    return out


EXACT = [
    "AP",
    "AP@5",
    "nDCG@10",
    "nDCG",
    "P@10",
    "R@10",
    "Rprec",
    "RR",
    "Success@3",
    "PRES@20",
    "PRES@5",
    "PRES",
    "PRES(estimate=True)@5",
    "QMeasure",
    "QMeasure@8",
    "QMeasure(beta=0.5)",
    "R_norm(collection_size=60)",
    "R_norm(collection_size=60)@10",
]


@pytest.mark.parametrize("name", EXACT)
@pytest.mark.parametrize("seed", range(6))
def test_exact_bounds_equal_brute_force(name: str, seed: int) -> None:
    qrels, run = random_case(seed, grades=1)
    measure = ir_measures.parse_measure(name)
    got = calc_bounds([measure], qrels, run)[measure]
    truth = brute_force(measure, qrels, run, [0, 1])
    value = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        assert b.exact, (q, b)
        assert b.lo == pytest.approx(lo, abs=1e-9), (name, seed, q)
        assert b.hi == pytest.approx(hi, abs=1e-9), (name, seed, q)
        assert b.value == pytest.approx(value[q], abs=1e-9), (name, seed, q)
    n = len(truth)
    assert got.lo == pytest.approx(sum(lo for lo, _ in truth.values()) / n, abs=1e-9)
    assert got.hi == pytest.approx(sum(hi for _, hi in truth.values()) / n, abs=1e-9)
    assert got.exact


@pytest.mark.parametrize("name", ["AP", "PRES@20", "nDCG@10", "R@10", "P@10", "QMeasure"])
@pytest.mark.parametrize("seed", range(100, 104))
def test_graded_qrels_binary_measures_exact(name: str, seed: int) -> None:
    """Graded qrels (levels 0-2): a binary measure's completions are 0 or rel; the top grade
    instead of rel changes nothing for AP, PRES, R, P. nDCG and Q are graded: outer bounds
    that contain every completion over the grades 0, 1, 2."""
    qrels, run = random_case(seed, grades=2, max_unjudged=5)
    measure = ir_measures.parse_measure(name)
    got = calc_bounds([measure], qrels, run)[measure]
    graded = name.startswith(("nDCG", "QMeasure"))
    truth = brute_force(measure, qrels, run, [0, 1, 2] if graded else [0, 1])
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        if graded:
            assert b.lo <= lo + 1e-9 and hi <= b.hi + 1e-9, (name, seed, q, b, lo, hi)
            assert b.exact == (not unjudged_of(qrels, run, q)), (q, b)
        else:
            assert b.exact
            assert (b.lo, b.hi) == pytest.approx((lo, hi), abs=1e-9), (name, seed, q)


@pytest.mark.parametrize("seed", range(200, 204))
def test_graded_q_above_a_level(seed: int) -> None:
    """QMeasure(rel=2) on levels 0-3: levels 2 and 3 are relevant with two gains (outer bounds),
    and a query may hold only level-1 documents (none relevant as judged)."""
    qrels, run = random_case(seed, grades=3, max_unjudged=4)
    measure = ir_measures.parse_measure("QMeasure(rel=2)")
    got = calc_bounds([measure], qrels, run)[measure]
    truth = brute_force(measure, qrels, run, [0, 1, 2, 3])
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        assert b.lo <= lo + 1e-9 and hi <= b.hi + 1e-9, (seed, q, b, lo, hi)


@pytest.mark.parametrize(
    "name", ["DCG@10", "CG@5", "NTCIR_RBP(p=0.8)", "NTCIR_RBP(p=0.5)@6", "P(rel=2)@5", "RR"]
)
@pytest.mark.parametrize("seed", range(300, 304))
def test_extremes_exact_with_grades(name: str, seed: int) -> None:
    """Measures that do not depend on R and never decrease when a label rises: exact over every
    graded completion (levels 0 .. the qrels' top grade), lo = all unjudged non-relevant, hi =
    all at the top grade; a seed whose qrels judge nothing relevant (303) makes NTCIR_RBP's
    g_max come from the completion itself."""
    qrels, run = random_case(seed, grades=2, max_unjudged=5)
    measure = ir_measures_pres.measures.catalogue.parse_measures(name)[0]
    got = calc_bounds([measure], qrels, run)[measure]
    # graded: every grade of the qrels' scale (0 .. its largest value, at least 1); binary: 0 or rel
    top = max([v for labels in qrels.values() for v in labels.values()] + [1])
    rel = measure.params.get("rel", 1)
    values = [0, rel] if measure.NAME in ("P", "RR") else list(range(top + 1))
    truth = brute_force(measure, qrels, run, values)
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        assert b.exact
        assert (b.lo, b.hi) == pytest.approx((lo, hi), abs=1e-9), (name, seed, q)


def test_beta_zero_q_is_exact_with_grades() -> None:
    """Q with beta = 0 ignores the grades (it is AP's form): exact with graded qrels."""
    qrels, run = random_case(7, grades=2, max_unjudged=5)
    measure = ir_measures.parse_measure("QMeasure(beta=0)")
    got = calc_bounds([measure], qrels, run)[measure]
    truth = brute_force(measure, qrels, run, [0, 1, 2])
    for q, (lo, hi) in truth.items():
        assert got.per_query[q].exact
        assert (got.per_query[q].lo, got.per_query[q].hi) == pytest.approx((lo, hi), abs=1e-9)


def test_extremes_by_hand() -> None:
    """P@4 and RR of a list d1 (unjudged) d2 (relevant) d3 (unjudged) d4 (non-relevant): P@4 from
    1/4 (unjudged non-relevant) to 3/4 (unjudged relevant), RR from 1/2 to 1/1."""
    qrels = {"q": {"d2": 1, "d4": 0}}
    run = {"q": {"d1": 4.0, "d2": 3.0, "d3": 2.0, "d4": 1.0}}
    got = calc_bounds("P@4 RR", qrels, run)
    p = got[ir_measures.parse_measure("P@4")].per_query["q"]
    assert (p.value, p.lo, p.hi, p.exact) == (1 / 4, 1 / 4, 3 / 4, True)
    rr = got[ir_measures.parse_measure("RR")].per_query["q"]
    assert (rr.value, rr.lo, rr.hi) == (1 / 2, 1 / 2, 1.0)


def test_ap_by_hand() -> None:
    """AP of d1 (unjudged) d2 (relevant) d3 (unjudged), R = 1 judged: the completions
    {}: 1/2; {d1}: (1 + 1) / 2 = 1; {d3}: (1/2 + 2/3) / 2 = 7/12; {d1, d3}: (1 + 1 + 1) / 3 = 1.
    lo = 1/2, hi = 1."""
    qrels = {"q": {"d2": 1}}
    run = {"q": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    b = calc_bounds("AP", qrels, run)[ir_measures.AP].per_query["q"]
    assert (b.value, b.lo, b.hi) == pytest.approx((1 / 2, 1 / 2, 1.0))


def test_bottom_completion_can_be_the_minimum() -> None:
    """AP of d1 (relevant) then 9 judged non-relevant, then d11 (unjudged): marking d11 relevant
    gives (1 + 2/11) / 2 = 13/22 < 1, the minimum; with no unjudged relevant AP is 1."""
    qrels = {"q": {"d01": 1, **{f"d{k:02d}": 0 for k in range(2, 11)}}}
    run = {"q": {f"d{k:02d}": float(20 - k) for k in range(1, 12)}}
    b = calc_bounds("AP", qrels, run)[ir_measures.AP].per_query["q"]
    assert (b.lo, b.hi) == pytest.approx((13 / 22, 1.0))


@pytest.mark.parametrize(
    "name, words",
    [
        ("Bpref", "skips unjudged"),
        ("Bpref10", "skips unjudged"),
        ("AP(judged_only=True)", "judged_only=True"),
        ("PRES(judged_only=True)@10", "judged_only=True"),
        ("OMeasure", "no bounds"),
        ("ERR@10", "no bounds"),
        ("R_norm(collection_size=100,mode='bollmann')", "pessimistic only"),
    ],
)
def test_refused(name: str, words: str) -> None:
    qrels, run = random_case(1, grades=1)
    with pytest.raises(BoundsError, match=words.replace("(", r"\(").replace(")", r"\)")):
        calc_bounds([ir_measures.parse_measure(name)], qrels, run)


def test_rbp_residual() -> None:
    """Moffat and Zobel's residual: d1 unjudged, d2 relevant, d3 unjudged, d4 non-relevant,
    p = 0.5: RBP = 0.5 * 0.5 = 0.25, the unjudged weights 0.5 * (1 + 0.25) = 0.625, the tail
    0.5^4 = 0.0625: residual 0.6875 (trec_eval 10's rbp_resid is the same here: something is
    unjudged)."""
    qrels = {"q": {"d2": 1, "d4": 0}}
    run = {"q": {"d1": 4.0, "d2": 3.0, "d3": 2.0, "d4": 1.0}}
    m = ir_measures_pres.measures.ntcir.NTCIR_RBP(p=0.5)
    b = calc_bounds([m], qrels, run)[m].per_query["q"]
    assert (b.value, b.lo, b.hi) == pytest.approx((0.25, 0.25, 0.875))
    assert b.residual == pytest.approx(0.6875)
    # nothing unjudged: M&Z keep the tail p^n (trec_eval 10's rbp_resid is 0 there)
    judged = {"q": {"d1": 0, "d2": 1, "d3": 0, "d4": 0}}
    b = calc_bounds([m], judged, run)[m].per_query["q"]
    assert (b.lo, b.hi, b.residual) == pytest.approx((0.25, 0.25, 0.0625))


# --------------------------------------------------------------------------------------------
# graded measures with gains maps, rel= and cutoffs: every completion over the whole scale
# --------------------------------------------------------------------------------------------


def scale_levels(measure: Any, qrels: Qrels) -> List[int]:
    """The levels an unjudged document may be judged, written out from the definition: 0 ..
    the qrels' largest value (at least rel and 1), less the levels >= rel (>= 1 for NTCIR's
    measures) that the package's measures' ``gains`` leave out (they refuse such a level)."""
    rel = measure.params.get("rel", 1)
    top = max([v for labels in qrels.values() for v in labels.values()] + [rel, 1])
    gains = measure.params.get("gains")
    if gains is None or measure.NAME == "nDCG":  # ir_measures' nDCG: gains.get(level, level)
        return list(range(top + 1))
    low = 1 if measure.NAME == "NTCIR_RBP" else rel
    return [v for v in range(top + 1) if v < low or v in gains]


def random_graded(seed: int, qrels: Qrels) -> Any:
    """A graded measure with a random gains map (nDCG's need not rise with the level and may
    give a level 0; ours rise, and may leave out a level the qrels do not hold), rel= and a
    cutoff."""
    rng = random.Random(seed)
    name = rng.choice(["nDCG", "QMeasure", "DCG", "CG", "NTCIR_RBP"])
    present = {v for labels in qrels.values() for v in labels.values() if v >= 1}
    params: Dict[str, Any] = {}
    cutoff = rng.choice([None, 3, 5, 10])
    if cutoff is not None:
        params["cutoff"] = cutoff
    if name == "nDCG":
        params["gains"] = {v: rng.choice([0, 1, 2, 3, 5, 10]) for v in range(1, 4) if rng.random() < 0.8}
        measure = ir_measures.nDCG(**params)
        return measure
    if name != "NTCIR_RBP":
        params["rel"] = rng.choice([1, 1, 2])
    low = params.get("rel", 1)
    if rng.random() < 0.7:
        levels = sorted({v for v in present if v >= low} | {v for v in range(1, 4) if rng.random() < 0.6})
        values = sorted(rng.choice([0.5, 1.0, 2.0, 3.0, 7.0]) for _ in levels)
        params["gains"] = dict(zip(levels, values))
    if name == "QMeasure":
        params["beta"] = rng.choice([0.0, 0.5, 1.0, 2.0])
    if name == "DCG":
        params["logb"] = rng.choice([2.0, 3.0])
    if name == "NTCIR_RBP":
        params["p"] = rng.choice([0.5, 0.8])
    (singleton,) = ir_measures_pres.measures.catalogue.parse_measures(name)
    return singleton(**params)


@pytest.mark.parametrize("seed", range(400, 520))
def test_graded_gains_contain_every_completion(seed: int) -> None:
    """Every completion over every level of the scale, scored by ir_measures (pytrec_eval for
    nDCG, the provider for ours), lies in [lo, hi]; extremes, and nDCG and Q with one relevant
    gain, are exact (lo and hi are the min and the max); the value lies inside, unclamped."""
    qrels, run = random_case(seed, grades=3, max_unjudged=4)
    measure = random_graded(seed, qrels)
    got = calc_bounds([measure], qrels, run)[measure]
    truth = brute_force(measure, qrels, run, scale_levels(measure, qrels))
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        assert b.lo <= lo + 1e-9 and hi <= b.hi + 1e-9, (str(measure), seed, q, b, lo, hi)
        assert b.lo <= b.value + 1e-12 and b.value <= b.hi + 1e-12, (str(measure), seed, q, b)
        if b.exact:
            assert (b.lo, b.hi) == pytest.approx((lo, hi), abs=1e-9), (str(measure), seed, q, b, lo, hi)
        if measure.NAME in ("DCG", "CG", "NTCIR_RBP"):
            assert b.exact


def test_a_gain_that_falls_with_the_level() -> None:
    """The issue's case: nDCG@4 with gains {1: 10, 2: 1}; d2 (level 2) and d4 (level 1) judged,
    x (level 2) not retrieved, d1 and d3 unjudged. Judged 1 (gain 10), d1 and d3 give, by hand:
    DCG = 10/log2(2) + 1/log2(3) + 10/log2(4) + 10/log2(5) = 10 + 0.6309 + 5 + 4.3068; the ideal
    (10, 10, 10, 1, 1 cut at 4) = 10 + 6.3093 + 5 + 0.4307: 0.9170, above the top label's."""
    from math import log2

    qrels = {"q": {"d2": 2, "d4": 1, "x": 2}}
    run = {"q": {"d1": 4.0, "d2": 3.0, "d3": 2.0, "d4": 1.0}}
    measure = ir_measures.nDCG(gains={0: 0, 1: 10, 2: 1}) @ 4
    dcg = 10 / log2(2) + 1 / log2(3) + 10 / log2(4) + 10 / log2(5)
    ideal = 10 / log2(2) + 10 / log2(3) + 10 / log2(4) + 1 / log2(5)
    judged_1 = {"q": {**qrels["q"], "d1": 1, "d3": 1}}
    assert next(ir_measures.iter_calc([measure], judged_1, run)).value == pytest.approx(dcg / ideal)
    b = calc_bounds([measure], qrels, run)[measure].per_query["q"]
    assert b.hi >= dcg / ideal - 1e-12 and not b.exact


@pytest.mark.parametrize(
    "name", ["nDCG@5", "nDCG", "QMeasure", "QMeasure(beta=2)@5", "DCG@5", "NTCIR_RBP(p=0.8)"]
)
@pytest.mark.parametrize("seed", range(600, 612))
def test_a_level_the_qrels_do_not_hold(name: str, seed: int) -> None:
    """Qrels on the scale 0 .. 2 that hold no level 1 (every 1 judged 2): an unjudged document
    may still be judged 1, and with default gains (g(L) = L) nDCG and Q are graded: every
    completion over 0, 1, 2 lies inside, the value too."""
    qrels, run = random_case(seed, grades=2, max_unjudged=4)
    qrels = {q: {d: 2 if v == 1 else v for d, v in labels.items()} for q, labels in qrels.items()}
    measure = ir_measures_pres.measures.catalogue.parse_measures(name)[0]
    got = calc_bounds([measure], qrels, run)[measure]
    truth = brute_force(measure, qrels, run, scale_levels(measure, qrels))
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        assert b.lo <= lo + 1e-9 and hi <= b.hi + 1e-9, (name, seed, q, b, lo, hi)
        assert b.lo <= b.value + 1e-12 and b.value <= b.hi + 1e-12, (name, seed, q, b)
        if b.exact:
            assert (b.lo, b.hi) == pytest.approx((lo, hi), abs=1e-9), (name, seed, q, b, lo, hi)


@pytest.mark.parametrize(
    "name", EXACT + ["nDCG@5", "QMeasure(rel=2)", "DCG@10", "CG@5", "NTCIR_RBP(p=0.8)", "P(rel=2)@5"]
)
def test_the_value_lies_inside_unclamped(name: str) -> None:
    """No bound is clamped to the value (the value is the completion that judges nothing
    relevant): every kind, exact and outer, holds it on its own, to rounding."""
    measure = ir_measures_pres.measures.catalogue.parse_measures(name)[0]
    for seed in range(500, 520):
        qrels, run = random_case(seed, grades=2)
        for q, b in calc_bounds([measure], qrels, run)[measure].per_query.items():
            assert b.lo <= b.value + 1e-12 and b.value <= b.hi + 1e-12, (name, seed, q, b)


@pytest.mark.parametrize(
    "name",
    [
        "AP(rel=2)",
        "AP(rel=2)@5",
        "R(rel=2)@5",
        "Rprec(rel=2)",
        "P(rel=2)@5",
        "RR(rel=2)",
        "Success(rel=2)@3",
        "PRES(rel=2)@10",
        "R_norm(collection_size=60,rel=2)@10",
    ],
)
@pytest.mark.parametrize("seed", range(700, 704))
def test_binary_measures_above_a_level_over_every_level(name: str, seed: int) -> None:
    """rel=2 on qrels of levels 0-3: every completion over the whole scale (levels 0 .. 3, each
    relevant from 2 up) scored by ir_measures; exact."""
    qrels, run = random_case(seed, grades=3, max_unjudged=4)
    measure = ir_measures_pres.measures.catalogue.parse_measures(name)[0]
    got = calc_bounds([measure], qrels, run)[measure]
    truth = brute_force(measure, qrels, run, scale_levels(measure, qrels))
    for q, (lo, hi) in truth.items():
        b = got.per_query[q]
        assert b.exact and (b.lo, b.hi) == pytest.approx((lo, hi), abs=1e-9), (name, seed, q, b, lo, hi)
