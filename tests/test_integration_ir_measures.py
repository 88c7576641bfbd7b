"""The package inside ir_measures: parsing, round trips, and the public calc functions on a mixed
list of our measures and standard ones.

Standard measures must come out exactly as pytrec_eval gives them alone; ours must match naive
loops written here from the formulas of docs/measures.md over the trec_eval test collection
(tests/data/trec_eval_test), with Bpref-10 also checked against trec_eval 8.1's own output.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from statistics import mean

import ir_measures
import pandas as pd
import pytest
from _readers import read_qrels, read_run, trec_eval_values, trec_order
from conftest import DATA
from ir_measures import AP, Qrel, R, ScoredDoc, nDCG

import ir_measures_pres
from ir_measures_pres import PRES, Bpref10, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm

QRELS_FILE = DATA / "trec_eval_test" / "qrels.test"
RUN_FILE = DATA / "trec_eval_test" / "results.test"

OURS = [PRES @ 100, QMeasure @ 1000, Bpref10]
STANDARD = [AP, nDCG @ 10, R @ 100]
MIXED = [PRES @ 100, QMeasure @ 1000, Bpref10, AP, nDCG @ 10, R @ 100]

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]

# --------------------------------------------------------------------------------------------
# naive oracles, straight from the papers' formulas
# --------------------------------------------------------------------------------------------


def naive_pres(labels: dict[str, int], order: list[str], n_max: int, rel: int = 1) -> float:
    """Magdy & Jones: missing relevant documents at ranks N_max + k + 1 ... N_max + n."""
    n = sum(v >= rel for v in labels.values())
    if n == 0:
        return 0.0
    ranks = [r for r, d in enumerate(order[:n_max], 1) if labels.get(d, -1) >= rel]
    k = len(ranks)
    ranks += [n_max + k + i for i in range(1, n - k + 1)]
    return 1 - (sum(ranks) / n - (n + 1) / 2) / n_max


def naive_q(labels: dict[str, int], order: list[str], cutoff: int | None = None, beta: float = 1.0) -> float:
    """Sakai's Q (NTCIREVAL's Q@k), gains g(L) = L: (1/min(k, R)) sum over relevant r <= k of BR(r)."""
    ideal = sorted((v for v in labels.values() if v >= 1), reverse=True)
    big_r = len(ideal)
    if big_r == 0:
        return 0.0
    cg = count = 0
    total = 0.0
    for r, d in enumerate(order if cutoff is None else order[:cutoff], 1):
        level = labels.get(d, 0)
        if level >= 1:
            cg += level
            count += 1
            cgi = sum(ideal[: min(r, big_r)])
            total += (beta * cg + count) / (beta * cgi + r)
    return total / (big_r if cutoff is None else min(cutoff, big_r))


def naive_bpref10(labels: dict[str, int], order: list[str], rel: int = 1) -> float:
    """Bpref-10, variant 'trec': 1 - min(a, 10 + R) / min(N, 10 + R), unjudged docs skipped."""
    big_r = sum(v >= rel for v in labels.values())
    big_n = sum(0 <= v < rel for v in labels.values())
    if big_r == 0:
        return 0.0
    cap = 10 + big_r
    above = 0
    total = 0.0
    for d in order:
        v = labels.get(d)
        if v is None or v < 0:
            continue
        if v >= rel:
            total += 1.0 if above == 0 else 1 - min(above, cap) / min(big_n, cap)
        else:
            above += 1
    return total / big_r


NAIVE = {
    str(PRES @ 100): lambda labels, order: naive_pres(labels, order, 100),
    str(QMeasure @ 1000): lambda labels, order: naive_q(labels, order, cutoff=1000),
    str(Bpref10): naive_bpref10,
}


def expected_ours(qrels: Qrels, run: Run) -> dict[tuple[str, str], float]:
    """(measure, query) -> naive value; a qrels query missing from the run gets 0 (DEFAULT)."""
    out = {}
    for name, fn in NAIVE.items():
        for qid, labels in qrels.items():
            out[(name, qid)] = fn(labels, trec_order(run[qid])) if run.get(qid) else 0.0
    return out


def per_query(metrics) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for m in metrics:
        key = (str(m.measure), m.query_id)
        assert key not in out, f"{key} reported twice"
        out[key] = m.value
    return out


def check_against_references(values: dict[tuple[str, str], float], qrels: Qrels, run: Run) -> None:
    """Ours equal the naive loops; standard ones equal pytrec_eval alone, exactly."""
    standard = per_query(ir_measures.pytrec_eval.iter_calc(STANDARD, qrels, run))
    ours = {k: v for k, v in values.items() if k[0] in NAIVE}
    assert ours == pytest.approx(expected_ours(qrels, run), abs=1e-12)
    assert {k: v for k, v in values.items() if k[0] not in NAIVE} == standard
    assert {m for m, _ in values} == {str(m) for m in MIXED}
    assert {q for _, q in values} == set(qrels)


@pytest.fixture(scope="module")
def qrels() -> Qrels:
    return read_qrels(QRELS_FILE)


@pytest.fixture(scope="module")
def run() -> Run:
    return read_run(RUN_FILE)


def other_run(run: Run) -> Run:
    """A second, different run: the scores negated (the ranking reversed)."""
    return {q: {d: -s for d, s in docs.items()} for q, docs in run.items()}


# --------------------------------------------------------------------------------------------
# parsing and canonical strings
# --------------------------------------------------------------------------------------------

PARSE_CASES = [
    ("PRES", PRES),
    ("PRES@100", PRES @ 100),
    ("PRES(cutoff=100)", PRES @ 100),
    ("PRES(estimate=True,judged_only=True)@100", PRES(estimate=True, judged_only=True) @ 100),
    ("PRES(judged_only=True, estimate=True)@100", PRES(estimate=True, judged_only=True) @ 100),
    ("PRES(rel=2)@10", PRES(rel=2) @ 10),
    ("R_norm(collection_size=1000)", R_norm(collection_size=1000)),
    ("Rnorm(collection_size=1000)", R_norm(collection_size=1000)),
    ("R_norm(collection_size=1000,mode='bollmann')@100", R_norm(collection_size=1000, mode="bollmann") @ 100),
    (
        'Rnorm(mode="bollmann", judged_only=False, collection_size=1000)',
        R_norm(collection_size=1000, mode="bollmann"),
    ),
    ("QMeasure", QMeasure),
    ("Q_measure", QMeasure),
    ("QMeasure@10", QMeasure @ 10),
    ("Q_measure(beta=0.5)@10", QMeasure(beta=0.5) @ 10),
    ("QMeasure(beta=1)", QMeasure),
    ("QMeasure(gains={1: 1, 2: 4, 3: 9})", QMeasure(gains={1: 1.0, 2: 4.0, 3: 9.0})),
    ("QMeasure(gains={0: 0, 1: 1, 2: 4, 3: 9})", QMeasure(gains={1: 1, 2: 4, 3: 9})),
    ("OMeasure", OMeasure),
    ("O_measure(judged_only=True)", OMeasure(judged_only=True)),
    ("PMeasure", PMeasure),
    ("P_measure(beta=0)@5", PMeasure(beta=0.0) @ 5),
    ("PPlusMeasure", PPlusMeasure),
    ("P_plus(gains={1: 1, 2: 3})@5", PPlusMeasure(gains={1: 1, 2: 3}) @ 5),
    ("Bpref10", Bpref10),
    ("Bpref_10", Bpref10),
    ("Bpref10(variant='old')", Bpref10(variant="old")),
    ("Bpref_10(variant='paper', rel=2)", Bpref10(rel=2, variant="paper")),
]


@pytest.mark.parametrize(("text", "expected"), PARSE_CASES, ids=[t for t, _ in PARSE_CASES])
def test_parse_measure_knows_every_name_and_alias(text: str, expected: ir_measures.Measure) -> None:
    parsed = ir_measures.parse_measure(text)
    assert parsed == expected
    assert hash(parsed) == hash(expected)
    assert type(parsed) is type(expected)
    assert parsed.NAME == expected.NAME
    assert ir_measures_pres.PresProvider().supports(parsed)


@pytest.mark.parametrize("text", [t for t, _ in PARSE_CASES])
def test_str_round_trips_through_parse_measure(text: str) -> None:
    measure = ir_measures.parse_measure(text)
    again = ir_measures.parse_measure(str(measure))
    assert again == measure
    assert str(again) == str(measure)
    assert repr(again) == repr(measure)


CANONICAL = [
    "PRES",
    "PRES@100",
    "PRES(estimate=True,judged_only=True)@100",
    "R_norm(collection_size=1000)",
    "R_norm(collection_size=1000,mode='bollmann',rel=2)@100",
    "QMeasure",
    "QMeasure(beta=0.5,gains={1:1.0,2:4.0})@10",
    "OMeasure(judged_only=True)",
    "PMeasure(beta=0.0)",
    "PPlusMeasure@5",
    "Bpref10",
    "Bpref10(variant='old')",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_strings_stay_identical(text: str) -> None:
    assert str(ir_measures.parse_measure(text)) == text


def test_spellings_of_one_measure_are_one_dict_key() -> None:
    spellings = [
        "PRES(judged_only=True,estimate=True)@100",
        "PRES(estimate=True,judged_only=True)@100",
        "PRES(cutoff=100,estimate=True,judged_only=True,rel=1)",
    ]
    keys = {ir_measures.parse_measure(s) for s in spellings}
    assert len(keys) == 1
    gains = {
        ir_measures.parse_measure(s)
        for s in [
            "QMeasure(gains={0: 0, 1: 1, 2: 4})",
            "QMeasure(gains={2: 4, 1: 1})",
            "Q_measure(gains={1: 1.0, 2: 4.0})",
        ]
    }
    assert len(gains) == 1


# --------------------------------------------------------------------------------------------
# calc functions on a mixed list
# --------------------------------------------------------------------------------------------


def test_iter_calc_on_a_mixed_list(qrels: Qrels, run: Run) -> None:
    values = per_query(ir_measures.iter_calc(MIXED, qrels, run))
    check_against_references(values, qrels, run)


def test_calc_aggregate_on_a_mixed_list(qrels: Qrels, run: Run) -> None:
    agg = ir_measures.calc_aggregate(MIXED, qrels, run)
    assert set(agg) == set(MIXED)
    standard = ir_measures.pytrec_eval.calc_aggregate(STANDARD, qrels, run)
    for m in STANDARD:
        assert agg[m] == standard[m]
    expected = expected_ours(qrels, run)
    for m in OURS:
        assert agg[m] == pytest.approx(mean(expected[(str(m), q)] for q in qrels), abs=1e-12)


def test_bpref10_matches_trec_eval_8_1_on_its_test_collection(qrels: Qrels, run: Run) -> None:
    """trec_eval 8.1 ``bpref_top10pRnonrel`` (float32 arithmetic, 4 decimals: tolerance 5e-5)."""
    reference = trec_eval_values(DATA / "trec_eval_test" / "v8.1" / "out.test.aq", "bpref_top10pRnonrel")
    values = per_query(ir_measures.iter_calc(MIXED, qrels, run))
    for qid in qrels:
        assert values[(str(Bpref10), qid)] == pytest.approx(reference[qid], abs=5e-5)
    assert ir_measures.calc_aggregate(MIXED, qrels, run)[Bpref10] == pytest.approx(reference["all"], abs=5e-5)


def test_calc_and_evaluator_on_a_mixed_list(qrels: Qrels, run: Run) -> None:
    result = ir_measures.calc(MIXED, qrels, run)
    check_against_references(per_query(result.per_query), qrels, run)
    assert result.aggregated == ir_measures.calc_aggregate(MIXED, qrels, run)
    evaluator = ir_measures.evaluator(MIXED, qrels)
    assert evaluator.calc_aggregate(run) == result.aggregated
    check_against_references(per_query(evaluator.iter_calc(run)), qrels, run)
    again = evaluator.calc(run)
    assert again.aggregated == result.aggregated
    assert per_query(again.per_query) == per_query(result.per_query)


def test_an_evaluator_reused_on_two_runs_and_twice_on_one(qrels: Qrels, run: Run) -> None:
    evaluator = ir_measures.evaluator(MIXED, qrels)
    second = other_run(run)
    for r in (run, second, run, run, second):
        check_against_references(per_query(evaluator.iter_calc(r)), qrels, r)
    # the second run really scores differently (the test would be vacuous otherwise)
    assert evaluator.calc_aggregate(run)[PRES @ 100] != evaluator.calc_aggregate(second)[PRES @ 100]


def _qrels_frame(qrels: Qrels) -> pd.DataFrame:
    return pd.DataFrame(
        [(q, d, v) for q, docs in qrels.items() for d, v in docs.items()],
        columns=["query_id", "doc_id", "relevance"],
    )


def _run_frame(run: Run) -> pd.DataFrame:
    return pd.DataFrame(
        [(q, d, s) for q, docs in run.items() for d, s in docs.items()],
        columns=["query_id", "doc_id", "score"],
    )


def _run_tuples(run: Run) -> list[ScoredDoc]:
    return [ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]


def _qrels_tuples(qrels: Qrels) -> list[Qrel]:
    return [Qrel(q, d, v) for q, docs in qrels.items() for d, v in docs.items()]


def _one_shot(items: list) -> Iterator:
    yield from items


INPUT_KINDS = {
    "dict": (lambda q: q, lambda r: r),
    "frame": (_qrels_frame, _run_frame),
    "namedtuples": (_qrels_tuples, _run_tuples),
    "generator": (lambda q: _one_shot(_qrels_tuples(q)), lambda r: _one_shot(_run_tuples(r))),
    "trec_file_readers": (
        lambda q: ir_measures.read_trec_qrels(str(QRELS_FILE)),
        lambda r: ir_measures.read_trec_run(str(RUN_FILE)),
    ),
}


@pytest.mark.parametrize("kind", list(INPUT_KINDS))
def test_every_input_type_gives_the_same_numbers(kind: str, qrels: Qrels, run: Run) -> None:
    make_qrels, make_run = INPUT_KINDS[kind]
    expected_agg = ir_measures.calc_aggregate(MIXED, qrels, run)
    expected_per_query = per_query(ir_measures.iter_calc(MIXED, qrels, run))
    check_against_references(expected_per_query, qrels, run)
    assert ir_measures.calc_aggregate(MIXED, make_qrels(qrels), make_run(run)) == expected_agg
    assert per_query(ir_measures.iter_calc(MIXED, make_qrels(qrels), make_run(run))) == expected_per_query
    evaluator = ir_measures.evaluator(MIXED, make_qrels(qrels))
    assert evaluator.calc_aggregate(make_run(run)) == expected_agg
    assert evaluator.calc_aggregate(make_run(run)) == expected_agg  # a fresh one-shot run each time


def test_qrels_queries_missing_from_the_run_get_the_default(qrels: Qrels, run: Run) -> None:
    bollmann = R_norm(collection_size=100_000, mode="bollmann")
    pessimistic = R_norm(collection_size=100_000)
    partial = {q: docs for q, docs in run.items() if q != "303"}
    measures = [*MIXED, bollmann, pessimistic]
    values = per_query(ir_measures.iter_calc(measures, qrels, partial))
    for m in MIXED:
        assert values[(str(m), "303")] == 0.0
    assert values[(str(bollmann), "303")] == 0.5
    assert values[(str(pessimistic), "303")] == 0.0
    mixed_names = {str(m) for m in MIXED}
    check_against_references({k: v for k, v in values.items() if k[0] in mixed_names}, qrels, partial)
    agg = ir_measures.calc_aggregate(measures, qrels, partial)
    present = [values[(str(bollmann), q)] for q in ("301", "302")]
    assert agg[bollmann] == pytest.approx(mean([*present, 0.5]))
    for m in OURS:  # the mean runs over every qrels query, the missing one included
        assert agg[m] == pytest.approx(mean(values[(str(m), q)] for q in qrels), abs=1e-12)


# --------------------------------------------------------------------------------------------
# DataFrame details: integer ids, duplicate lines
# --------------------------------------------------------------------------------------------


def test_integer_ids_in_a_dataframe_work_for_our_measures() -> None:
    """Query 1: doc 9 (level 1), 10 (level 0), 11 (level 2). Docs 9 and 10 tie; ids compare as
    their decimal text, so "9" > "10" and 9 ranks first: [9, 10, 11].
    PRES@10 (n = 2, ranks 1, 3): 1 - ((1 + 3)/2 - 3/2)/10 = 0.95.
    Q (ideal gains 2, 1; cgI = 2, 3): BR(1) = (1 + 1)/(2 + 1), BR(3) = (3 + 2)/(3 + 3); Q = 0.75.
    Bpref10 (R = 2, N = 1): 9 adds 1, 11 has one non-relevant above: 1 - 1/1 = 0 -> 0.5.
    (Numeric order would put 10 first: PRES 0.9, Q 0.6167.) Query 2 is missing: DEFAULT 0."""
    qrels = pd.DataFrame({"query_id": [1, 1, 1, 2], "doc_id": [9, 10, 11, 5], "relevance": [1, 0, 2, 1]})
    run = pd.DataFrame({"query_id": [1, 1, 1, 3], "doc_id": [10, 9, 11, 5], "score": [1.0, 1.0, 0.5, 2.0]})
    measures = [PRES @ 10, QMeasure, Bpref10]
    values = per_query(ir_measures.iter_calc(measures, qrels, run))
    assert values == pytest.approx(
        {
            ("PRES@10", "1"): 0.95,
            ("QMeasure", "1"): ((1 + 1) / (2 + 1) + (3 + 2) / (3 + 3)) / 2,
            ("Bpref10", "1"): 0.5,
            ("PRES@10", "2"): 0.0,
            ("QMeasure", "2"): 0.0,
            ("Bpref10", "2"): 0.0,
        }
    )
    as_text = per_query(
        ir_measures.iter_calc(
            measures,
            qrels.astype(str).astype({"relevance": int}),
            run.astype({"query_id": str, "doc_id": str}),
        )
    )
    assert as_text == values


def test_duplicate_lines_in_a_dataframe_run_last_wins_with_one_warning() -> None:
    """d1 appears twice for q1, scored 1.0 then 5.0: the last line wins, so the ranking is
    d1, d2, d3 and every measure is perfect (first-wins would put d1 third: PRES@10 = 0.8,
    AP = 1/3)."""
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 0}, "q2": {"x": 1}}
    run = pd.DataFrame(
        {
            "query_id": ["q1", "q1", "q1", "q1", "q2", "q2"],
            "doc_id": ["d1", "d2", "d3", "d1", "x", "x"],
            "score": [1.0, 3.0, 2.0, 5.0, 2.0, 1.0],
        }
    )
    measures = [PRES @ 10, QMeasure, Bpref10, AP]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = per_query(ir_measures.iter_calc(measures, qrels, run))
    ours = [w for w in caught if "duplicate" in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert values == {(str(m), q): 1.0 for m in measures for q in ("q1", "q2")}


def test_fast_calc_aggregate_equals_ir_measures_bookkeeping():
    """PresEvaluator.calc_aggregate skips the per-query Metric objects; ir_measures' own
    Evaluator.calc_aggregate (fed by iter_calc) must give identical numbers, including queries
    the run lacks, an empty ranked list and a query the qrels lack."""
    from ir_measures.providers.base import Evaluator

    qrels = {"1": {"a": 1, "b": 0, "c": 2}, "2": {"x": 1}, "3": {"y": 1}, "4": {"z": 0}}
    run = {"1": {"a": 0.5, "c": 0.7, "q": 0.9}, "2": {}, "5": {"a": 1.0}, "4": {"z": 1.0}}
    measures = [
        PRES @ 10,
        R_norm(collection_size=100),
        R_norm(mode="bollmann", collection_size=100),
        QMeasure,
        OMeasure @ 2,
        PMeasure,
        PPlusMeasure,
        Bpref10,
    ]
    evaluator = ir_measures_pres.engine.provider.PresProvider().evaluator(measures, qrels)
    fast = evaluator.calc_aggregate(run)
    slow = Evaluator.calc_aggregate(evaluator, run)
    assert list(fast) == list(slow)
    assert fast == slow
    # a measure listed twice is one measure (ir_measures' bookkeeping would count its queries
    # twice but its DEFAULTs once)
    assert evaluator.calc_aggregate(run) == ir_measures_pres.engine.provider.PresProvider().evaluator(
        measures + measures, qrels
    ).calc_aggregate(run)
    # and on a real collection, where run order and summation order matter to the last bit
    qrels, run = read_qrels(QRELS_FILE), read_run(RUN_FILE)
    evaluator = ir_measures.evaluator(OURS + [R_norm(collection_size=5000), PPlusMeasure], qrels)
    assert evaluator.calc_aggregate(run) == Evaluator.calc_aggregate(evaluator, run)
