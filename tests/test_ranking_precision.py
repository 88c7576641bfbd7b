"""Scores are compared in single precision, as pytrec_eval stores them (docs/conventions.md,
Score precision).

trec_eval 9 (which pytrec_eval wraps) keeps a run's scores as C ``float``: two scores that differ
only beyond float32 precision tie, and the doc id (descending) decides. Our measures and the
standard ones of the same call must see one list, so every measure of ours must give the same
per-query value on a run and on that run rescored into pytrec_eval's order (strictly decreasing
integer scores, so no tie is left to break). pytrec_eval's order is written here independently of
the package: a Python sort on ``(float32(score), doc id)``, both descending.
"""

from __future__ import annotations

import gzip
import struct
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pytest
import pytrec_eval
from conftest import shared_data

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres import PRES, Bpref10, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm

OURS = [
    PRES @ 1000,
    PRES(estimate=True) @ 100,
    R_norm(collection_size=600_000),
    R_norm(collection_size=600_000, mode="bollmann") @ 100,
    QMeasure,
    QMeasure @ 10,
    QMeasure(beta=0.0),
    OMeasure,
    PMeasure,
    PPlusMeasure,
    PPlusMeasure(judged_only=True),
    Bpref10,
    Bpref10(variant="old"),
]

Run = Dict[str, Dict[str, float]]


def as_float32(x: float) -> float:
    """``x`` rounded to IEEE single precision, as C's ``(float)x`` (overflow to +-inf)."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def pytrec_eval_order(docs: Dict[str, float]) -> List[str]:
    """trec_eval 9's order: float32 score descending, then doc id descending."""
    return sorted(docs, key=lambda d: (as_float32(docs[d]), d), reverse=True)


def float64_order(docs: Dict[str, float]) -> List[str]:
    """The order a ranking by double precision would give (what trec_eval 10.0 does)."""
    return sorted(docs, key=lambda d: (docs[d], d), reverse=True)


def rescored(run: Run, order=pytrec_eval_order) -> Run:
    """The run with strictly decreasing integer scores in the given order: no ties left."""
    out = {}
    for qid, docs in run.items():
        ranked = order(docs)
        out[qid] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
    return out


def per_query(measures, qrels, run) -> Dict[Tuple[str, str], float]:
    return {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels, run)}


def test_near_tie_follows_pytrec_eval():
    # a = 100000.002 and b = 100000.001 are one float32: a tie, broken by doc id: b first
    qrels = {"q1": {"b": 1, "a": 0}}
    run = {"q1": {"a": 100000.002, "b": 100000.001}}
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "recip_rank"})
    assert ev.evaluate(run)["q1"] == {"map": 1.0, "recip_rank": 1.0}
    got = ir_measures.calc_aggregate(
        [QMeasure(beta=0.0), OMeasure(beta=0.0), PPlusMeasure, QMeasure, PRES @ 10, Bpref10], qrels, run
    )
    # the relevant document at rank 1 of 2: Q(beta=0) = AP = 1, O(beta=0) = RR = 1,
    # P+ = BR(1) = (1*1 + 1) / (1*1 + 1) = 1, Q = BR(1) / R = 1, PRES = 1 - (1 - 1)/10 = 1,
    # Bpref10 = 1 (no judged non-relevant document above it)
    assert got == {
        QMeasure(beta=0.0): 1.0,
        OMeasure(beta=0.0): 1.0,
        PPlusMeasure: 1.0,
        QMeasure: 1.0,
        PRES @ 10: 1.0,
        Bpref10: 1.0,
    }
    # and the float64 order (a first) would have given Q(beta=0) = AP = 1/2
    assert ir_measures.calc_aggregate([QMeasure(beta=0.0)], qrels, rescored(run, float64_order)) == {
        QMeasure(beta=0.0): 0.5
    }


def test_beyond_float32_range_ties_like_pytrec_eval():
    # 2e39 and 1e39 are both +inf in float32: a tie, so b (the larger id) comes first
    qrels = {"q1": {"b": 1, "a": 0}}
    run = {"q1": {"a": 2e39, "b": 1e39}}
    assert pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)["q1"]["map"] == 1.0
    assert ir_measures.calc_aggregate([QMeasure(beta=0.0)], qrels, run) == {QMeasure(beta=0.0): 1.0}


def _read_run(path) -> Run:
    run: Run = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            qid, _, doc, _, score, *_ = line.split()
            run.setdefault(qid, {})[doc] = float(score)
    return run


def _read_qrels(path) -> Dict[str, Dict[str, int]]:
    qrels: Dict[str, Dict[str, int]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            qid, _, doc, rel = line.split()
            qrels.setdefault(qid, {})[doc] = int(rel)
    return qrels


def test_every_robust_2003_run_gives_the_values_of_pytrec_evals_order():
    folder = shared_data("real", "trec-robust-2003")
    qrels = _read_qrels(folder / "qrels" / "robust03_qrels.txt")
    compared = moved_by_float64 = 0
    for path in sorted((folder / "runs").glob("input.*.gz")):
        run = _read_run(path)
        ordered = rescored(run)
        # the rescored run is pytrec_eval's own list: its AP per query is unchanged
        ev = pytrec_eval.RelevanceEvaluator(qrels, {"map"})
        assert ev.evaluate(ordered) == ev.evaluate(run), path.name
        ours = per_query(OURS, qrels, run)
        expected = per_query(OURS, qrels, ordered)
        assert ours == expected, path.name
        compared += len(expected)
        by_float64 = per_query(OURS, qrels, rescored(run, float64_order))
        moved_by_float64 += sum(by_float64[k] != v for k, v in expected.items())
    assert compared > 17 * 100 * len(OURS) * 0.9
    # the data exercises the rule: ranking by float64 would move some of these values
    assert moved_by_float64 > 0


@pytest.mark.parametrize("seed", range(5))
def test_random_near_ties_follow_pytrec_eval(seed):
    rng = np.random.default_rng(seed)
    docs = [f"d{i:03d}" for i in range(60)]
    qrels = {"q": {d: int(rng.integers(0, 3)) for d in docs[:40]}}
    base = float(rng.uniform(1e4, 1e6))
    # scores a few float64 ulps .. a few float32 ulps apart: many float32 ties, no float64 tie
    offsets = (
        rng.integers(0, 4, size=len(docs)) * base * 2.0**-24
        + rng.integers(1, 50, size=len(docs)) * base * 2.0**-40
    )
    run = {"q": {d: base + float(o) for d, o in zip(docs, offsets)}}
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "recip_rank"})
    assert ev.evaluate(rescored(run)) == ev.evaluate(run)
    assert per_query(OURS, qrels, run) == per_query(OURS, qrels, rescored(run))


def test_near_tie_in_the_cli_matches_pytrec_eval(tmp_path, capsys):
    from ir_measures_pres.cli.evaluate import main

    (tmp_path / "q").write_text("q1 0 b 1\nq1 0 a 0\n")
    (tmp_path / "r").write_text("q1 Q0 a 1 100000.002 t\nq1 Q0 b 2 100000.001 t\n")
    assert main([str(tmp_path / "q"), str(tmp_path / "r"), "AP", "QMeasure(beta=0)", "P_plus"]) == 0
    rows = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
    # pytrec_eval's AP = 1 (b first); ours see the same list
    assert rows == {"AP": "1.0000", "QMeasure(beta=0.0)": "1.0000", "PPlusMeasure": "1.0000"}
