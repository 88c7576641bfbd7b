"""The textbook's measures (issue #22, docs/textbook.md): the chapter's worked example written out
as arithmetic, naive loops straight from the definitions on random rankings, and the undefined
cases.

Expected values come from the chapter (Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval,
retrieval-evaluation chapter; the contract's §3) and from the loops below, never from the code
under test.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import ir_measures
import numpy as np
import pytest
from _naive_textbook import naive, trec_ranking
from conftest import needs_shared, shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.measures.catalogue import parse_measures
from ir_measures_pres.measures.textbook.measures import CG, DCG, APSeen, E, F

DATA = Path(__file__).resolve().parent / "data" / "textbook"
QRELS = DATA / "qrels.txt"
RUN = DATA / "chapter.run"
KNOWN = DATA / "known.txt"

Q1_REL = dict(zip("d3 d5 d9 d25 d39 d44 d56 d71 d89 d123".split(), [3, 3, 3, 2, 2, 2, 1, 1, 1, 1]))
Q2_REL = {"d3": 3, "d56": 2, "d129": 1}
Q1_RUN = "d123 d84 d56 d6 d8 d9 d511 d129 d187 d25 d38 d48 d250 d113 d3".split()
Q2_RUN = "d425 d87 d56 d32 d124 d615 d512 d129 d4 d130 d193 d715 d810 d5 d3".split()


def _run(rankings: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    return {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in rankings.items()}


QRELS_DICT = {"q1": Q1_REL, "q2": Q2_REL}
RUN_DICT = _run({"q1": Q1_RUN, "q2": Q2_RUN})


def per_query(measure, qrels=QRELS_DICT, run=RUN_DICT) -> dict[str, float]:
    (m,) = parse_measures([measure]) if isinstance(measure, str) else [measure]
    return {x.query_id: x.value for x in ir_measures.iter_calc([m], qrels, run)}


def mean(measure, qrels=QRELS_DICT, run=RUN_DICT) -> float:
    (m,) = parse_measures([measure]) if isinstance(measure, str) else [measure]
    return ir_measures.calc_aggregate([m], qrels, run)[m]


# --------------------------------------------------------------------------------------------
# the chapter's worked example (the contract's §3)
# --------------------------------------------------------------------------------------------


def test_precision_at_seen_relevant_documents_of_q1() -> None:
    # q1's relevant documents are at ranks 1 (d123), 3 (d56), 6 (d9), 10 (d25) and 15 (d3):
    # precisions 1, 0.66, 0.5, 0.4, 0.33, whose mean the chapter prints as 0.57 (truncated)
    expected = (1 / 1 + 2 / 3 + 3 / 6 + 4 / 10 + 5 / 15) / 5
    assert expected == pytest.approx(0.58)
    assert per_query(APSeen)["q1"] == pytest.approx(expected, abs=1e-12)
    # q2: d56 at rank 3, d129 at 8, d3 at 15
    assert per_query(APSeen)["q2"] == pytest.approx((1 / 3 + 2 / 8 + 3 / 15) / 3, abs=1e-12)
    # @k: the top 5 of q1 hold d123 and d56
    assert per_query(APSeen @ 5)["q1"] == pytest.approx((1 / 1 + 2 / 3) / 2, abs=1e-12)


def test_the_standard_figures_of_the_example() -> None:
    # reachable through ir_measures already: P@5 = P@10 = 40 % (q1), R-precision 0.4 and 0.33
    assert per_query("P@5")["q1"] == pytest.approx(0.4)
    assert per_query("P@10")["q1"] == pytest.approx(0.4)
    rprec = per_query("Rprec")
    assert rprec["q1"] == pytest.approx(4 / 10) and rprec["q2"] == pytest.approx(1 / 3)


def test_harmonic_mean_and_e_at_rank_10() -> None:
    # q1: r(10) = 4/10, P(10) = 4/10; q2: r(10) = 2/3, P(10) = 2/10
    f1 = 2 / (1 / (4 / 10) + 1 / (4 / 10))
    f2 = 2 / (1 / (2 / 3) + 1 / (2 / 10))
    assert per_query(F @ 10) == pytest.approx({"q1": f1, "q2": f2}, abs=1e-12)
    assert per_query(E @ 10) == pytest.approx({"q1": 1 - f1, "q2": 1 - f2}, abs=1e-12)
    # b = 2: (1 + b^2) / (b^2 / r + 1 / P); the formula weights recall more for b > 1
    b2 = 4.0
    f2_beta = (1 + b2) / (b2 / (2 / 3) + 1 / (2 / 10))
    assert per_query(F(beta=2) @ 10)["q2"] == pytest.approx(f2_beta, abs=1e-12)
    assert per_query(E(beta=2) @ 10)["q2"] == pytest.approx(1 - f2_beta, abs=1e-12)
    assert f2_beta > f2  # q2's recall (0.67) beats its precision (0.2): b = 2 rewards it


# gain vectors of the two rankings (G[i] = the qrels level of the document at rank i)
G1 = [1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 3]
G2 = [0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3]
CG_BAR = [0.5, 0.5, 2.0, 2.0, 2.0, 3.5, 3.5, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0, 8.0]  # printed
DCG_BAR_TRUNCATED = [0.5, 0.5, 1.4, 1.4, 1.4, 2.0, 2.0, 2.1, 2.1, 2.4]  # printed, one decimal
DCG_BAR_LAST = 3.2


def test_averaged_cumulated_gain_vector() -> None:
    assert np.cumsum(np.add(G1, G2) / 2).tolist() == CG_BAR  # the chapter's arithmetic
    for i, expected in enumerate(CG_BAR, 1):
        assert mean(CG @ i) == pytest.approx(expected, abs=1e-12), i


def test_averaged_discounted_cumulated_gain_vector() -> None:
    for i in range(1, 16):
        exact = sum((G1[j - 1] + G2[j - 1]) / 2 / max(1.0, math.log2(j)) for j in range(1, i + 1))
        value = mean(DCG @ i)
        assert value == pytest.approx(exact, abs=1e-12)
        shown = DCG_BAR_TRUNCATED[i - 1] if i <= 10 else (DCG_BAR_LAST if i == 15 else None)
        if shown is not None:  # truncated to one decimal: within [shown, shown + 0.1)
            assert shown <= value < shown + 0.1, (i, value)


def test_dcg_has_no_discount_before_rank_b() -> None:
    # b = 3: ranks 1 and 2 undiscounted, rank 3 divided by log_3 3 = 1, rank 6 by log_3 6
    value = per_query(DCG(logb=3) @ 6)["q1"]
    assert value == pytest.approx(1 + 1 / 1 + 3 / (math.log(6) / math.log(3)), abs=1e-12)


def test_user_oriented_measures_of_the_example() -> None:
    known = str(KNOWN)
    # q1: K ∩ R = {d3, d5, d9, d25}; the ranking holds d9 (rank 6), d25 (10) and d3 (15), not d5;
    # R ∩ A = {d123, d56, d9, d25, d3}
    with pytest.warns(UserWarning, match="q2"):  # K ∩ R is empty for q2
        coverage = per_query(f"Coverage(known={known!r})")
    assert coverage["q1"] == pytest.approx(3 / 4)
    assert math.isnan(coverage["q2"])
    assert per_query(f"Novelty(known={known!r})") == pytest.approx({"q1": 2 / 5, "q2": 3 / 3})
    with pytest.warns(UserWarning):
        assert per_query(f"RelativeRecall(known={known!r})")["q1"] == pytest.approx(5 / 4)
    with pytest.warns(UserWarning):
        # d5 is never found: the user examines the whole ranking of 15
        assert per_query(f"RecallEffort(known={known!r})")["q1"] == pytest.approx(4 / 15)
    with pytest.warns(UserWarning):
        # @10: d9 and d25 of K ∩ R
        assert per_query(f"Coverage(known={known!r})@10")["q1"] == pytest.approx(2 / 4)


# --------------------------------------------------------------------------------------------
# undefined cases
# --------------------------------------------------------------------------------------------


def test_an_empty_known_intersection_is_left_out_of_the_mean_with_one_warning() -> None:
    known = str(KNOWN)
    for name, q1 in (("Coverage", 3 / 4), ("RelativeRecall", 5 / 4), ("RecallEffort", 4 / 15)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = mean(f"{name}(known={known!r})")
        assert value == pytest.approx(q1)  # the mean of q1 alone, not (q1 + 0) / 2
        texts = [str(w.message) for w in caught]
        assert len(texts) == 1 and "q2" in texts[0] and "K ∩ R is empty" in texts[0], texts


def test_an_undefined_value_is_null_in_jsonl(capsys: pytest.CaptureFixture[str]) -> None:
    """Strict JSON has no NaN: the main command's jsonl writes an undefined per-query value as
    null (q2: K ∩ R is empty), and the mean over the defined queries as a number."""
    from ir_measures_pres.cli.evaluate import main

    measure = f"Coverage(known={str(KNOWN)!r})@10"
    assert main([str(QRELS), str(RUN), measure, "-q", "--format", "jsonl"]) == 0
    rows = [
        json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} in jsonl"))
        for line in capsys.readouterr().out.splitlines()
    ]
    assert [(r["query_id"], r["value"]) for r in rows] == [("q1", 2 / 4), ("q2", None), ("all", 2 / 4)]


def test_compare_leaves_undefined_topics_out_and_meta_refuses_them(tmp_path: Path) -> None:
    from ir_measures_pres.engine.scores import Core
    from ir_measures_pres.stats.comparison import compare

    # three topics: q3 like q1, so that two topics stay defined for the paired tests
    qrels = {**QRELS_DICT, "q3": Q1_REL}
    runs = {
        "a": {**RUN_DICT, "q3": RUN_DICT["q1"]},
        "b": _run({"q1": Q1_RUN[::-1], "q2": Q2_RUN[::-1], "q3": Q1_RUN[::-1]}),
    }
    known = tmp_path / "known.txt"
    known.write_text(KNOWN.read_text() + "q3 0 d3 1\n")
    measure = f"Coverage(known={str(known)!r})"
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        res = compare(qrels, runs, ["AP", measure])
    assert res.query_ids == ["q1", "q3"]
    assert any("left out of the comparison" in n and "q2" in n for n in res.notes)
    # Coverage: a finds d9, d25, d3 of q1's {d3, d5, d9, d25}, and q3's d3
    assert res.means[measure]["a"] == pytest.approx((3 / 4 + 1) / 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        core = Core(qrels, runs, [measure])
        with pytest.raises(ValueError, match="undefined on 1 topic"):
            core.evaluate()


def test_no_relevant_document_retrieved() -> None:
    run = _run({"q1": ["x1", "x2", "x3"], "q2": ["y1"]})
    assert per_query(APSeen, run=run) == {"q1": 0.0, "q2": 0.0}
    assert per_query(F @ 3, run=run) == {"q1": 0.0, "q2": 0.0}
    assert per_query(E @ 3, run=run) == {"q1": 1.0, "q2": 1.0}
    assert per_query(f"Novelty(known={str(KNOWN)!r})", run=run) == {"q1": 0.0, "q2": 0.0}
    with pytest.warns(UserWarning):
        assert per_query(f"Coverage(known={str(KNOWN)!r})", run=run)["q1"] == 0.0
    with pytest.warns(UserWarning):
        # nothing of K ∩ R found: the whole ranking (3 documents) examined
        assert per_query(f"RecallEffort(known={str(KNOWN)!r})", run=run)["q1"] == pytest.approx(4 / 3)


def test_a_query_the_run_lacks_gets_the_default() -> None:
    run = _run({"q1": Q1_RUN})
    assert per_query(E @ 10, run=run)["q2"] == 1.0  # nothing retrieved: E = 1 - 0
    assert per_query(F @ 10, run=run)["q2"] == 0.0
    assert per_query(CG @ 10, run=run)["q2"] == 0.0


def test_an_unreadable_known_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.txt"
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", str(QRELS), str(RUN), f"Coverage(known={str(missing)!r})"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "nowhere.txt" in done.stderr and "Traceback" not in done.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 0 d3\n")
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", str(QRELS), str(RUN), f"Novelty(known={str(bad)!r})"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "bad.txt:1" in done.stderr and "Traceback" not in done.stderr


def test_dcg_needs_a_base_above_one() -> None:
    with pytest.raises(ValueError, match="logb"):
        parse_measures("DCG(logb=1)@10")


# --------------------------------------------------------------------------------------------
# naive loops from the definitions, on random rankings
# --------------------------------------------------------------------------------------------

POOL = [f"d{i}" for i in range(12)]


@st.composite
def collections(draw: st.DrawFn):
    qrels, run, known = {}, {}, {}
    for q in ("q1", "q2", "q3"):
        labels = {
            d: draw(st.sampled_from([0, 1, 2, 3])) for d in draw(st.lists(st.sampled_from(POOL), unique=True))
        }
        qrels[q] = labels or {"d0": 0}
        run[q] = draw(st.lists(st.sampled_from(POOL), unique=True, min_size=1))
        known[q] = set(draw(st.lists(st.sampled_from(POOL), unique=True)))
    return qrels, run, known


MEASURES = [
    ("APSeen", None, {}),
    ("APSeen", 4, {}),
    ("F", 5, {}),
    ("F", None, {"beta": 0.5}),
    ("E", 3, {"beta": 2.0}),
    ("Coverage", None, {}),
    ("Coverage", 4, {}),
    ("Novelty", 4, {}),
    ("RelativeRecall", 6, {}),
    ("RecallEffort", None, {}),
    ("CG", 5, {}),
    ("CG", None, {}),
    ("DCG", 7, {}),
    ("DCG", None, {"logb": 3.0}),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collection=collections())
def test_measures_equal_the_naive_loops(tmp_path_factory: pytest.TempPathFactory, collection) -> None:
    qrels, rankings, known = collection
    path = tmp_path_factory.mktemp("known") / "known.txt"
    path.write_text(
        "".join(f"{q} 0 {d} 1\n" for q, docs in known.items() for d in sorted(docs)) or "qx 0 dx 1\n"
    )
    run = _run(rankings)
    for name, k, params in MEASURES:
        args = dict(params)
        if name in ("Coverage", "Novelty", "RelativeRecall", "RecallEffort"):
            args["known"] = str(path)
        measure = getattr(ir_measures_pres.measures.textbook.measures, name)(**args)
        if k is not None:
            measure = measure @ k
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = per_query(measure, qrels, run)
            agg = mean(measure, qrels, run)
        want = {
            q: naive(
                name, qrels[q], rankings[q], known[q], k, params.get("beta", 1.0), params.get("logb", 2.0)
            )
            for q in qrels
        }
        for q in qrels:
            if math.isnan(want[q]):
                assert math.isnan(got[q]), (measure, q)
            else:
                assert got[q] == pytest.approx(want[q], abs=1e-12), (measure, q, qrels[q], rankings[q])
        defined = [v for v in want.values() if not math.isnan(v)]
        if defined:
            assert agg == pytest.approx(sum(defined) / len(defined), abs=1e-12)


# --------------------------------------------------------------------------------------------
# TREC Robust 2003 (../shared/data): two runs against the naive loops
# --------------------------------------------------------------------------------------------

ROBUST = shared_path("real", "trec-robust-2003")


@needs_shared("real", "trec-robust-2003")
def test_robust_2003_equals_the_naive_loops(tmp_path: Path) -> None:
    import gzip

    qrels = {}
    for line in (ROBUST / "qrels" / "robust03_qrels.txt").read_text().splitlines():
        q, _, d, v = line.split()
        qrels.setdefault(q, {})[d] = int(v)
    known = {q: set(sorted(d for d, v in docs.items() if v >= 1)[::3]) for q, docs in qrels.items()}
    known["303"] = set()  # K ∩ R empty: undefined there
    path = tmp_path / "known.txt"
    path.write_text("".join(f"{q} 0 {d} 1\n" for q, docs in known.items() for d in sorted(docs)))
    for run_path in sorted((ROBUST / "runs").iterdir())[:2]:
        lines = [x.split() for x in gzip.decompress(run_path.read_bytes()).decode().splitlines()]
        run: dict[str, dict[str, float]] = {}
        for q, _, d, _, s, _ in lines:
            run.setdefault(q, {})[d] = float(s)
        rankings = {q: trec_ranking(docs) for q, docs in run.items()}  # trec_eval's order
        for name, k, params in MEASURES:
            args = dict(params)
            if name in ("Coverage", "Novelty", "RelativeRecall", "RecallEffort"):
                args["known"] = str(path)
            measure = getattr(ir_measures_pres.measures.textbook.measures, name)(**args)
            measure = measure @ (10 * k) if k is not None else measure
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = per_query(measure, qrels, run)
            for q in qrels:
                if q not in rankings:
                    continue
                want = naive(
                    name, qrels[q], rankings[q], known[q], None if k is None else 10 * k,
                    params.get("beta", 1.0), params.get("logb", 2.0),
                )  # fmt: skip
                if math.isnan(want):
                    assert math.isnan(got[q]), (measure, q)
                else:
                    assert got[q] == pytest.approx(want, abs=1e-12), (run_path.name, measure, q)
