"""``rel`` for Sakai's measures: levels below it count as judged non-relevant (L0)."""

import ir_measures
import pytest

import ir_measures_pres  # noqa: F401
from ir_measures_pres import OMeasure, PMeasure, PPlusMeasure, QMeasure

# Sakai's example: S (3), A (2), B (1) relevant, N judged non-relevant; run X: B at 1, S at 2
QRELS = {"t": {"dS": 3, "dA": 2, "dB": 1, "dN": 0}}
RUN_X = {"t": {"dB": 2.0, "dS": 1.0}}


def test_rel_2_makes_level_1_non_relevant_in_sakais_example():
    # relevant: S, A (R = 2); ideal gains 3, 2 -> cgI = 3, 5; B at rank 1 now adds nothing.
    # BR(2) at S = (1*3 + 1) / (1*5 + 2) = 4/7
    values = ir_measures.calc_aggregate(
        [m(rel=2) for m in (QMeasure, OMeasure, PMeasure, PPlusMeasure)], QRELS, RUN_X
    )
    assert values[QMeasure(rel=2)] == pytest.approx((4 / 7) / 2)
    assert values[OMeasure(rel=2)] == pytest.approx(4 / 7)
    assert values[PMeasure(rel=2)] == pytest.approx(4 / 7)
    assert values[PPlusMeasure(rel=2)] == pytest.approx(4 / 7)


@pytest.mark.parametrize(
    "measure",
    [QMeasure, QMeasure @ 2, OMeasure, PMeasure, PPlusMeasure, QMeasure(beta=0.5, judged_only=True)],
)
def test_rel_equals_remapping_the_low_levels_to_zero(measure):
    qrels = {"a": {"1": 1, "2": 2, "3": 0, "4": 3, "5": 1}, "b": {"x": 1, "y": 2}}
    run = {"a": {"1": 5.0, "6": 4.5, "2": 4.0, "3": 3.0, "4": 2.0}, "b": {"x": 2.0, "y": 1.0}}
    remapped = {q: {d: (0 if v < 2 else v) for d, v in docs.items()} for q, docs in qrels.items()}
    ours = ir_measures.iter_calc([measure(rel=2)], qrels, run)
    expected = ir_measures.iter_calc([measure], remapped, run)
    assert sorted((m.query_id, m.value) for m in ours) == sorted((m.query_id, m.value) for m in expected)


def test_gains_need_only_cover_the_relevant_levels():
    value = ir_measures.calc_aggregate([QMeasure(rel=2, gains={2: 1, 3: 4})], QRELS, RUN_X)
    # gains S = 4, A = 1: ideal 4, 5; BR(2) at S = (4 + 1) / (5 + 2)
    assert value[QMeasure(rel=2, gains={2: 1, 3: 4})] == pytest.approx((5 / 7) / 2)
