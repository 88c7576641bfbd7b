"""Every worked example of docs/measures.md, with the expected values written as the arithmetic
of the papers' formulas, evaluated through ir_measures with our measure objects.

* PRES: the rows of Magdy & Jones, SIGIR 2010, Table 2 (n = 4, N_max = 100), the paper's n > N_max
  case (§6.4, PRES_est) and the placement of missing relevant documents.
* R_norm: Rocchio / van Rijsbergen (pessimistic) and Bollmann's pairwise form.
* Sakai's measures: the S/A/B example (runs X and Y) for O, P, P+, Q, Q@1, Q@2.
* Bpref-10 (Buckley & Voorhees, SIGIR 2004) on the small_AB topics, three variants, and
  pytrec_eval's bpref.
"""

from __future__ import annotations

from typing import Any

import ir_measures
import pytest
from pytest import approx

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres import PRES, Bpref10, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm

Q = "q1"


def value(measure: Any, qrels: dict, run: dict, qid: str = Q) -> float:
    """Our value of one query, through ir_measures.iter_calc."""
    found = [m.value for m in ir_measures.iter_calc([measure], qrels, run) if m.query_id == qid]
    assert len(found) == 1
    return found[0]


def run_with_relevant_at(ranks: set[int], length: int) -> dict[str, float]:
    """A run of ``length`` docs, 'r<rank>' (relevant) at ``ranks``, 'n<rank>' elsewhere; scores
    strictly descend with the rank."""
    return {(f"r{i}" if i in ranks else f"n{i}"): float(length - i) for i in range(1, length + 1)}


def qrels_for(run_ranks: set[int], n: int) -> dict[str, dict[str, int]]:
    """n relevant docs: those of the run ('r<rank>') and the rest never retrieved ('missing<i>');
    the run's other docs are judged non-relevant."""
    rel = {f"r{i}": 1 for i in run_ranks}
    rel.update({f"missing{i}": 1 for i in range(n - len(rel))})
    return {Q: rel}


# ------------------------------------------------------------------------------------------------
# PRES
# ------------------------------------------------------------------------------------------------

# (relevant ranks in the run, run length, ranks used by the formula, value in docs/measures.md's
# PRES table, after Magdy & Jones's Table 2)
PRES_TABLE = [
    ({1}, 100, [1, 102, 103, 104], 0.25),
    ({50, 51, 53, 54}, 100, [50, 51, 53, 54], 0.505),
    ({1, 2, 3, 4}, 100, [1, 2, 3, 4], 1.0),
    ({1, 98, 99, 100}, 100, [1, 98, 99, 100], 0.28),
    ({1, 2, 150}, 200, [1, 2, 103, 104], 0.5),  # 150 > N_max: counted missing
    (set(), 100, [101, 102, 103, 104], 0.0),
]


@pytest.mark.parametrize("ranks,length,used,table", PRES_TABLE, ids=[str(sorted(r)) for r, *_ in PRES_TABLE])
def test_pres_paper_table(ranks: set[int], length: int, used: list[int], table: float) -> None:
    """n = 4, N_max = 100: PRES = 1 - (sum(r_i)/n - (n+1)/2) / N_max over the ranks used."""
    n, n_max = 4, 100
    expected = 1 - (sum(used) / n - (n + 1) / 2) / n_max
    assert expected == approx(table, abs=1e-12)
    got = value(PRES @ 100, qrels_for(ranks, n), {Q: run_with_relevant_at(ranks, length)})
    assert got == approx(expected, abs=1e-12)


def test_pres_table_second_form() -> None:
    """The same rows with the second form 1 - [sum_j (r_j - j) + m N_max] / (n N_max)."""
    n, n_max = 4, 100
    assert 1 - ((1 - 1) + 3 * n_max) / (n * n_max) == 0.25
    assert 1 - ((50 - 1) + (51 - 2) + (53 - 3) + (54 - 4)) / (n * n_max) == approx(0.505)
    assert 1 - ((1 - 1) + (98 - 2) + (99 - 3) + (100 - 4)) / (n * n_max) == approx(0.28)
    assert 1 - ((1 - 1) + (2 - 2) + 2 * n_max) / (n * n_max) == 0.5


def test_pres_empty_run_and_missing_query() -> None:
    """An empty run (the query absent from the run) scores 0, as does a run without relevant docs."""
    qrels = {Q: {f"missing{i}": 1 for i in range(4)}, "q2": {"x": 1}}
    assert value(PRES @ 100, qrels, {"q2": {"x": 1.0}}) == 0.0
    assert value(PRES @ 100, qrels, {Q: run_with_relevant_at(set(), 100)}) == 0.0


@pytest.mark.parametrize(
    "ranks,pres,pres_est",
    [
        ({1, 2, 3}, 1 - ((1 + 2 + 3 + 7 + 8) / 5 - 6 / 2) / 3, 1.0),
        ({2}, 2 / 15, 2 / 9),
    ],
)
def test_pres_more_relevant_than_n_max(ranks: set[int], pres: float, pres_est: float) -> None:
    """n = 5 > N_max = 3: a perfect run scores N_max / n = 0.6; PRES_est = PRES / min(1, N_max/n)."""
    n, n_max = 5, 3
    # {2}: ranks used 2, 5, 6, 7, 8 -> 1 - ((28/5) - 3)/3 = 2/15
    assert pres == approx(
        1
        - (sum(sorted(ranks) + list(range(n_max + len(ranks) + 1, n_max + n + 1))) / n - (n + 1) / 2) / n_max
    )
    assert pres_est == approx(pres / min(1, n_max / n))
    qrels = qrels_for(ranks, n)
    run = {Q: run_with_relevant_at(ranks, 10)}
    assert value(PRES @ 3, qrels, run) == approx(pres, abs=1e-12)
    assert value(PRES(estimate=True) @ 3, qrels, run) == approx(pres_est, abs=1e-12)
    if ranks == {1, 2, 3}:
        assert pres == approx(0.6) and value(PRES @ 3, qrels, run) == approx(n_max / n)


def test_pres_missing_ranks_108_to_110() -> None:
    """n = 10, N_max = 100, 7 found: the 3 missing go to ranks 108, 109, 110."""
    found = {1, 3, 5, 10, 20, 50, 100}
    n, n_max = 10, 100
    expected = 1 - ((sum(found) + 108 + 109 + 110) / n - (n + 1) / 2) / n_max
    assert value(PRES @ 100, qrels_for(found, n), {Q: run_with_relevant_at(found, 120)}) == approx(expected)


def test_pres_default_n_max_is_1000() -> None:
    """Without @k, N_max = 1000 (PRESeval's default)."""
    ranks = {1, 500, 1500}
    expected = 1 - ((1 + 500 + (1000 + 2 + 1)) / 3 - 2) / 1000
    assert value(PRES, qrels_for(ranks, 3), {Q: run_with_relevant_at(ranks, 2000)}) == approx(expected)


# ------------------------------------------------------------------------------------------------
# R_norm
# ------------------------------------------------------------------------------------------------


def test_rnorm_both_retrieved() -> None:
    """N = 10, n = 2, relevant at {1, 3}: 1 - ((1 + 3) - (1 + 2)) / (2 (10 - 2)) = 15/16; a total
    order with binary grades: Bollmann's form agrees."""
    qrels = qrels_for({1, 3}, 2)
    run = {Q: run_with_relevant_at({1, 3}, 5)}
    expected = 1 - ((1 + 3) - (1 + 2)) / (2 * (10 - 2))
    assert expected == 0.9375
    assert value(R_norm(collection_size=10), qrels, run) == approx(expected, abs=1e-12)
    # Bollmann: r1 above all 8 non-relevant, r3 above 7 of them: S+ = 15, S- = 1, S+max = 16
    assert value(R_norm(collection_size=10, mode="bollmann"), qrels, run) == approx(
        0.5 * (1 + (15 - 1) / 16), abs=1e-12
    )


def test_rnorm_one_retrieved() -> None:
    """N = 10, n = 2, a run of 5 docs with the only retrieved relevant at rank 3.

    Pessimistic: ranks {3, 10} -> 1 - ((3 + 10) - 3) / 16 = 0.375.
    Bollmann: the 5 unretrieved docs (1 relevant, 4 non-relevant) form one tied block.
    Relevant at 3: 2 non-relevant above (S-), 2 below in the run + 4 unretrieved (S+ 6).
    Unretrieved relevant: below the 4 retrieved non-relevant (S- 4), tied with 4 (no credit).
    S+ = 6, S- = 2 + 4 = 6, S+max = 2 * 8 = 16 -> 0.5 (1 + 0/16) = 0.5.
    """
    qrels = qrels_for({3}, 2)
    run = {Q: run_with_relevant_at({3}, 5)}
    assert value(R_norm(collection_size=10), qrels, run) == approx(1 - ((3 + 10) - 3) / 16, abs=1e-12)
    assert value(R_norm(collection_size=10), qrels, run) == approx(0.375, abs=1e-12)
    s_plus, s_minus, s_max = 6, 2 + 4, 2 * 8
    assert value(R_norm(collection_size=10, mode="bollmann"), qrels, run) == approx(
        0.5 * (1 + (s_plus - s_minus) / s_max), abs=1e-12
    )
    assert value(R_norm(collection_size=10, mode="bollmann"), qrels, run) == 0.5


def test_rnorm_edges() -> None:
    """n = 0 -> 0; n = N -> 1; a missing query gets 0 (pessimistic) or 0.5 (Bollmann)."""
    assert value(R_norm(collection_size=10), {Q: {"a": 0}}, {Q: {"a": 1.0}}) == 0.0
    everything = {Q: {"a": 1, "b": 1}}
    assert value(R_norm(collection_size=2), everything, {Q: {"b": 2.0, "a": 1.0}}) == 1.0
    qrels = {Q: {"a": 1}, "q2": {"b": 1}}
    run = {"q2": {"b": 1.0}}
    assert value(R_norm(collection_size=10), qrels, run) == 0.0
    assert value(R_norm(collection_size=10, mode="bollmann"), qrels, run) == 0.5


def test_pres_is_rnorm_with_n_max_plus_n() -> None:
    """PRES = R_norm with N := N_max + n on the top-N_max list (docs/measures.md, R_norm)."""
    ranks = {2, 7, 30}
    n, n_max = 5, 20
    qrels, run = qrels_for(ranks, n), {Q: run_with_relevant_at(ranks, 40)}
    assert value(PRES @ n_max, qrels, run) == approx(
        value(R_norm(collection_size=n_max + n) @ n_max, qrels, run), abs=1e-12
    )


# ------------------------------------------------------------------------------------------------
# Sakai's example
# ------------------------------------------------------------------------------------------------

SAKAI_QRELS = {Q: {"dS": 3, "dA": 2, "dB": 1, "dN": 0}}
RUN_X = {Q: {"dB": 2.0, "dS": 1.0}}  # B at rank 1, S at rank 2
RUN_Y = {Q: {"dN": 2.0, "dS": 1.0}}  # non-relevant at rank 1, S at rank 2

# gains 3/2/1, R = 3, cgI = 3, 5, 6, 6 ...; BR(r) = (cg(r) + count(r)) / (cgI(r) + r)
X_BR1 = (1 + 1) / (3 + 1)  # = 1/2
X_BR2 = ((1 + 3) + 2) / (5 + 2)  # = 6/7
Y_BR2 = (3 + 1) / (5 + 2)  # = 4/7

SAKAI_TABLE = [
    # run, measure, arithmetic, the value in docs/measures.md's table (4 decimals for Q@2)
    ("X", OMeasure, X_BR1, 1 / 2),
    ("X", PMeasure, X_BR2, 6 / 7),
    ("X", PPlusMeasure, (X_BR1 + X_BR2) / 2, 19 / 28),
    ("X", QMeasure, (X_BR1 + X_BR2) / 3, 19 / 42),
    ("X", QMeasure @ 1, X_BR1 / min(1, 3), 0.5),
    ("X", QMeasure @ 2, (X_BR1 + X_BR2) / min(2, 3), 0.6786),
    ("Y", OMeasure, Y_BR2, 4 / 7),
    ("Y", PMeasure, Y_BR2, 4 / 7),
    ("Y", PPlusMeasure, Y_BR2 / 1, 4 / 7),
    ("Y", QMeasure, Y_BR2 / 3, 4 / 21),
    ("Y", QMeasure @ 1, 0.0, 0.0),
    ("Y", QMeasure @ 2, Y_BR2 / min(2, 3), 0.2857),
]


@pytest.mark.parametrize(
    "run_name,measure,arithmetic,table", SAKAI_TABLE, ids=[f"{r}-{m}" for r, m, *_ in SAKAI_TABLE]
)
def test_sakai_example(run_name: str, measure: Any, arithmetic: float, table: float) -> None:
    assert arithmetic == approx(table, abs=5e-5)  # the table prints 4 decimals for Q@2
    run = RUN_X if run_name == "X" else RUN_Y
    assert value(measure, SAKAI_QRELS, run) == approx(arithmetic, abs=1e-12)


def test_sakai_example_explicit_gains_and_level0() -> None:
    """gains {0: 0, 1: 1, 2: 2, 3: 3} and {1: 1, 2: 2, 3: 3} are the default g(L) = L."""
    for gains in ({0: 0, 1: 1, 2: 2, 3: 3}, {1: 1, 2: 2, 3: 3}):
        assert value(QMeasure(gains=gains), SAKAI_QRELS, RUN_X) == approx(19 / 42, abs=1e-12)
        assert value(PPlusMeasure(gains=gains), SAKAI_QRELS, RUN_X) == approx(19 / 28, abs=1e-12)


def test_sakai_beta_zero_is_binary() -> None:
    """beta = 0: BR(r) = count(r) / r. X: Q = (1/1 + 2/2)/3 = AP; O = 1 (RR); P = BR(2) = 1."""
    assert value(QMeasure(beta=0), SAKAI_QRELS, RUN_X) == approx((1 / 1 + 2 / 2) / 3, abs=1e-12)
    assert value(OMeasure(beta=0), SAKAI_QRELS, RUN_X) == 1.0
    assert value(PMeasure(beta=0), SAKAI_QRELS, RUN_Y) == approx(1 / 2, abs=1e-12)


# ------------------------------------------------------------------------------------------------
# Bpref-10, small_AB
# ------------------------------------------------------------------------------------------------

# topic A: R = 2, N = 20; run n n n r u n n r n  (u unjudged) -> a = 3, 5; N_ret = 6
# topic B: R = 3, N = 4;  run n r n u n r (third relevant not retrieved) -> a = 1, 3; N_ret = 3
BPREF_QRELS = {
    "A": {"r1": 1, "r2": 1} | {f"n{i}": 0 for i in range(1, 21)},
    "B": {"r1": 1, "r2": 1, "r3": 1} | {f"n{i}": 0 for i in range(1, 5)},
}
_A = ["n1", "n2", "n3", "r1", "u1", "n4", "n5", "r2", "n6"]
_B = ["n1", "r1", "n2", "u9", "n3", "r2"]
BPREF_RUN = {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in (("A", _A), ("B", _B))}

BPREF_TABLE = [
    # measure, A, B
    (
        ir_measures.Bpref,  # trec_eval 9: 1 - min(a, R) / min(N, R)
        ((1 - min(3, 2) / min(20, 2)) + (1 - min(5, 2) / min(20, 2))) / 2,
        ((1 - min(1, 3) / min(4, 3)) + (1 - min(3, 3) / min(4, 3))) / 3,
    ),
    (
        Bpref10,  # 'trec': 1 - min(a, 10+R) / min(N, 10+R)
        ((1 - 3 / 12) + (1 - 5 / 12)) / 2,
        ((1 - 1 / 4) + (1 - 3 / 4)) / 3,
    ),
    (
        Bpref10(variant="old"),  # 1 - min(a, 10+R) / min(N_ret, 10+R)
        ((1 - 3 / 6) + (1 - 5 / 6)) / 2,
        ((1 - 1 / 3) + (1 - 3 / 3)) / 3,
    ),
    (
        Bpref10(variant="paper"),  # 1 - min(a, 10+R) / (10+R)
        ((1 - 3 / 12) + (1 - 5 / 12)) / 2,
        ((1 - 1 / 13) + (1 - 3 / 13)) / 3,
    ),
]
# the values printed in docs/measures.md and by trec_eval 8.1 (4 decimals)
BPREF_PRINTED = [(0.0, 0.2222), (0.6667, 0.3333), (0.3333, 0.2222), (0.6667, 0.5641)]


@pytest.mark.parametrize("row", range(len(BPREF_TABLE)), ids=[str(m) for m, *_ in BPREF_TABLE])
def test_bpref_small_ab(row: int) -> None:
    measure, expect_a, expect_b = BPREF_TABLE[row]
    printed_a, printed_b = BPREF_PRINTED[row]
    assert (expect_a, expect_b) == (approx(printed_a, abs=5e-5), approx(printed_b, abs=5e-5))
    got = {m.query_id: m.value for m in ir_measures.iter_calc([measure], BPREF_QRELS, BPREF_RUN)}
    assert got == {"A": approx(expect_a, abs=1e-12), "B": approx(expect_b, abs=1e-12)}


def test_bpref10_names_and_aliases() -> None:
    """The name and its alias (docs/measures.md) parse to the same measures."""
    assert ir_measures.parse_measure("Bpref10") == Bpref10
    assert ir_measures.parse_measure("Bpref_10(variant='old')") == Bpref10(variant="old")
