"""Bad parameters get clear errors: a MeasureParameterError (a ValueError) whose message names
the parameter, the value and what is allowed (docs/measures.md: the parameter rule at the top,
R_norm's collection size, the gains rules of Sakai's measures).

The tests check the message's key words, not only the exception type.
"""

from __future__ import annotations

from collections.abc import Callable

import ir_measures
import pytest

from ir_measures_pres import (
    PRES,
    Bpref10,
    MeasureParameterError,
    OMeasure,
    PMeasure,
    PPlusMeasure,
    QMeasure,
    R_norm,
)

SAKAI = [QMeasure, OMeasure, PMeasure, PPlusMeasure]


def raises(make: Callable[[], object], *words: str) -> str:
    """Run ``make``; it must raise MeasureParameterError whose message holds every word."""
    with pytest.raises(MeasureParameterError) as info:
        make()
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} missing from the message: {message}"
    return message


def test_the_error_is_a_value_error() -> None:
    assert issubclass(MeasureParameterError, ValueError)
    with pytest.raises(ValueError):
        PRES(cutoff=0)


# --------------------------------------------------------------------------------------------
# wrong type or value: names the parameter and what is allowed
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: QMeasure(beta="x"), ["beta", "number", "'x'"]),
        (lambda: OMeasure(beta=[1]), ["beta", "number"]),
        (lambda: PRES(judged_only="yes"), ["judged_only", "True or False", "'yes'"]),
        (lambda: PRES(estimate=1), ["estimate", "True or False"]),
        (lambda: PRES(rel=1.5), ["rel", "integer", "1.5"]),
        (lambda: PRES(cutoff=10.0), ["cutoff", "integer", "10.0"]),
        (lambda: R_norm(collection_size="1000"), ["collection_size", "integer", "'1000'"]),
        (lambda: Bpref10(variant="new"), ["variant", "'trec'", "'old'", "'paper'", "'new'"]),
        (lambda: Bpref10(variant=1), ["variant"]),
        (
            lambda: R_norm(collection_size=10, mode="optimistic"),
            ["mode", "'pessimistic'", "'bollmann'", "'optimistic'"],
        ),
        (lambda: QMeasure(beta=-1), ["beta", "from 0 to", "-1"]),
        (lambda: QMeasure(beta=float("nan")), ["beta", "finite"]),
        (lambda: PMeasure(beta=float("inf")), ["beta", "finite"]),
        (lambda: PRES(cutoff=-3), ["cutoff", "from 1 to", "-3"]),
        (lambda: R_norm(collection_size=0), ["collection_size", "from 1 to", "0"]),
        (lambda: Bpref10(rel=0), ["rel", "from 1 to", "0"]),
        (lambda: QMeasure(gains="abc"), ["gains", "dict", "'abc'"]),
    ],
)
def test_a_wrong_type_or_value_names_the_parameter_and_what_is_allowed(make, words) -> None:
    raises(make, *words)


@pytest.mark.parametrize(
    "text",
    [
        "QMeasure(beta='x')",
        "Bpref10(variant='new')",
        "PRES(rel=1.5)@10",
        "R_norm(collection_size=1000,mode='x')",
    ],
)
def test_parse_measure_reports_the_same_errors(text: str) -> None:
    name = text.split("(")[0]
    raises(lambda: ir_measures.parse_measure(text), name)


def test_an_int_is_accepted_where_a_float_is_expected() -> None:
    assert QMeasure(beta=1) == QMeasure(beta=1.0) == QMeasure
    assert QMeasure(beta=2) == QMeasure(beta=2.0)
    assert str(QMeasure(beta=2)) == "QMeasure(beta=2.0)"
    assert ir_measures.parse_measure("OMeasure(beta=0)") == OMeasure(beta=0.0)
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    run = {"q": {"b": 3.0, "a": 2.0, "c": 1.0}}
    by_int = ir_measures.calc_aggregate([QMeasure(beta=2)], qrels, run)[QMeasure(beta=2)]
    # ideal gains 2, 1 (cgI = 2, 3); ranks: b (0), a (2), c (1); beta = 2:
    # BR(2) = (2*2 + 1)/(2*3 + 2) = 5/8, BR(3) = (2*3 + 2)/(2*3 + 3) = 8/9, Q = (5/8 + 8/9)/2
    assert by_int == pytest.approx((5 / 8 + 8 / 9) / 2)


@pytest.mark.parametrize(
    ("make", "param", "value"),
    [
        (lambda: PRES(cutoff=True), "cutoff", "True"),
        (lambda: PRES @ True, "cutoff", "True"),
        (lambda: PRES(rel=False), "rel", "False"),
        (lambda: R_norm(collection_size=True), "collection_size", "True"),
        (lambda: QMeasure @ True, "cutoff", "True"),
        (lambda: QMeasure(beta=True), "beta", "True"),
    ],
)
def test_a_bool_is_rejected_for_a_number(make, param: str, value: str) -> None:
    raises(make, param, value, "bool")


@pytest.mark.parametrize(
    "make",
    [
        lambda: PRES @ 0,
        lambda: ir_measures.parse_measure("PRES@0"),
        lambda: PRES(cutoff=0),
        lambda: QMeasure @ 0,
        lambda: R_norm(collection_size=10) @ 0,
    ],
)
def test_a_cutoff_of_zero_is_rejected(make) -> None:
    raises(make, "cutoff", "from 1 to", "0")


@pytest.mark.parametrize(
    ("make", "unknown", "allowed"),
    [
        (lambda: PRES(foo=1), "foo", ["cutoff", "rel", "judged_only", "estimate"]),
        (lambda: Bpref10(judged_only=True), "judged_only", ["rel", "variant"]),
        (lambda: QMeasure(level=2), "level", ["cutoff", "beta", "gains", "judged_only", "rel"]),
        (lambda: R_norm(N=1000), "N", ["collection_size", "cutoff", "rel", "judged_only", "mode"]),
        (lambda: ir_measures.parse_measure("PMeasure(gain={1: 1})"), "gain", ["beta", "gains"]),
    ],
)
def test_an_unknown_parameter_names_the_allowed_ones(make, unknown: str, allowed: list[str]) -> None:
    raises(make, f"'{unknown}'", *allowed)


# --------------------------------------------------------------------------------------------
# R_norm's collection size
# --------------------------------------------------------------------------------------------


def ir_measures_pres_provider() -> ir_measures.providers.Provider:
    return ir_measures.providers.registry["ir_measures_pres"]


QRELS = {"q1": {"a": 1, "b": 1, "c": 0}}
RUN = {"q1": {"a": 4.0, "x": 3.0, "y": 2.0, "z": 1.0}}


@pytest.mark.parametrize(
    "make",
    [
        lambda: ir_measures.calc_aggregate([R_norm], QRELS, RUN),
        lambda: ir_measures.calc_aggregate([ir_measures.parse_measure("R_norm@100")], QRELS, RUN),
        lambda: ir_measures.calc_aggregate([R_norm(mode="bollmann"), PRES], QRELS, RUN),
        lambda: ir_measures.evaluator([R_norm], QRELS),
        lambda: ir_measures_pres_provider().evaluator([R_norm @ 10], QRELS),
    ],
)
def test_r_norm_without_collection_size_says_it_is_required(make) -> None:
    raises(make, "R_norm", "requires", "collection_size")


@pytest.mark.parametrize("mode", ["pessimistic", "bollmann"])
def test_r_norm_with_a_collection_too_small_for_the_run_says_so(mode: str) -> None:
    """4 documents retrieved for q1 and relevant b not retrieved: N must be at least 5."""
    message = raises(
        lambda: ir_measures.calc_aggregate([R_norm(collection_size=4, mode=mode)], QRELS, RUN),
        "collection_size=4",
        "at least 5",
        "q1",
    )
    assert "too small" in message


def test_r_norm_with_a_collection_just_big_enough_works() -> None:
    """N = 5, n = 2, a at rank 1, b missing (m = 1, placed at rank N):
    R_norm = 1 - (0 + 1 * (5 - 2)) / (2 * (5 - 2)) = 0.5. With @2 the list is a, x: N = 3 is
    enough (2 retrieved + 1 missing): 1 - (0 + 1 * (3 - 2)) / (2 * (3 - 2)) = 0.5."""
    m = R_norm(collection_size=5)
    assert ir_measures.calc_aggregate([m], QRELS, RUN)[m] == pytest.approx(0.5)
    m2 = R_norm(collection_size=3) @ 2
    assert ir_measures.calc_aggregate([m2], QRELS, RUN)[m2] == pytest.approx(0.5)
    raises(lambda: ir_measures.calc_aggregate([R_norm(collection_size=2) @ 2], QRELS, RUN), "at least 3")


# --------------------------------------------------------------------------------------------
# gains of Sakai's measures
# --------------------------------------------------------------------------------------------

GRADED = {"q1": {"a": 1, "b": 2, "c": 0}, "q2": {"d": 3, "e": 1}}
GRADED_RUN = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"d": 1.0}}


@pytest.mark.parametrize("base", SAKAI, ids=str)
def test_gains_missing_a_level_of_the_qrels_name_it(base) -> None:
    m = base(gains={1: 1, 2: 4})
    raises(lambda: ir_measures.evaluator([m], GRADED), "level 3", "gains")
    raises(lambda: ir_measures.calc_aggregate([m, ir_measures.AP], GRADED, GRADED_RUN), "level 3")
    full = base(gains={1: 1, 2: 4, 3: 9})
    assert 0 <= ir_measures.calc_aggregate([full], GRADED, GRADED_RUN)[full] <= 1


@pytest.mark.parametrize("base", SAKAI, ids=str)
@pytest.mark.parametrize(
    ("gains", "words"),
    [
        ({1: 0, 2: 1}, ["gains", "positive", "level 1"]),
        ({1: -1}, ["gains", "positive", "level 1"]),
        ({1: 1, 2: 0.0, 3: 2}, ["positive", "level 2"]),
        ({1: 2, 2: 1}, ["gains", "decrease", "level 1", "level 2"]),
        ({1: 1, 2: 4, 3: 3}, ["decrease", "level 2", "level 3"]),
        ({0: 1, 1: 1}, ["level 0", "gain 0"]),
        ({0: 0.5, 1: 1, 2: 2}, ["level 0", "gain 0"]),
        ({-1: 1, 1: 1}, ["level -1", "gain 0"]),
        ({1.0: 1}, ["gains", "integer", "1.0"]),
        ({"1": 1}, ["gains", "integer", "'1'"]),
        ({1: "one"}, ["gains", "number", "'one'"]),
        ({1: True}, ["gains", "number", "True"]),
        ({1: float("nan")}, ["gains", "nan"]),
    ],
    ids=str,
)
def test_bad_gains_say_what_is_wrong(base, gains: dict, words: list[str]) -> None:
    raises(lambda: base(gains=gains), *words)


@pytest.mark.parametrize("base", SAKAI, ids=str)
def test_a_zero_gain_for_level_zero_is_the_same_measure(base) -> None:
    with_zero = base(gains={0: 0, 1: 1, 2: 4, 3: 9})
    without = base(gains={1: 1, 2: 4, 3: 9})
    assert with_zero == without
    assert hash(with_zero) == hash(without)
    assert str(with_zero) == str(without)
    assert base(gains={-1: 0, 0: 0, 1: 1, 2: 4, 3: 9}) == without
    assert ir_measures.parse_measure(f"{base.NAME}(gains={{0: 0, 1: 1, 2: 4, 3: 9}})") == without
    values = ir_measures.calc_aggregate([with_zero, without], GRADED, GRADED_RUN)
    assert len(values) == 1  # one measure, one key


def test_gains_change_the_value_as_written() -> None:
    """q1: ranks a (level 1), b (level 2); gains {1: 1, 2: 4}: ideal b, a -> cgI = 4, 5.
    BR(1) = (1 + 1)/(4 + 1) = 2/5, BR(2) = (5 + 2)/(5 + 2) = 1; Q = (2/5 + 1)/2 = 0.7.
    Default gains (g(L) = L): cgI = 2, 3; BR(1) = 2/3, BR(2) = (3 + 2)/(3 + 2) = 1; Q = 5/6."""
    qrels = {"q1": {"a": 1, "b": 2, "c": 0}}
    run = {"q1": {"a": 2.0, "b": 1.0}}
    m = QMeasure(gains={0: 0, 1: 1, 2: 4})
    assert ir_measures.calc_aggregate([m], qrels, run)[m] == pytest.approx(0.7)
    assert ir_measures.calc_aggregate([QMeasure], qrels, run)[QMeasure] == pytest.approx(5 / 6)


@pytest.mark.parametrize(
    "make, words",
    [
        # past float64's exact integers a count or rank sum of the kernels would be wrong
        (lambda: PRES @ (2**53 + 1), ["cutoff", "from 1 to 9007199254740992", str(2**53 + 1)]),
        (lambda: R_norm(collection_size=10**23), ["collection_size", "from 1 to", str(10**23)]),
        # beta * cumulative gain must stay far from float64 overflow (1e308 gave nan)
        (lambda: QMeasure(beta=1e308), ["beta", "from 0 to 1e+12", "1e+308"]),
        (lambda: QMeasure(gains={1: 1e308}), ["gains", "at most 1e+12", "1e+308"]),
    ],
)
def test_parameters_beyond_the_exact_range_are_rejected(make, words):
    raises(make, *words)


def test_the_largest_allowed_values_still_evaluate():
    # relevant document at rank 2 below one non-relevant: BR(2) = (b*1 + 1) / (b*1 + 2)
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0, "b": 2.0}}
    beta = 1e12
    got = ir_measures.calc_aggregate([QMeasure(beta=beta), PRES @ 2**53], qrels, run)
    assert got[QMeasure(beta=beta)] == pytest.approx((beta + 1) / (beta + 2), rel=1e-15)
    # PRES: n = 1, found at rank 2: 1 - (2 - 1) / N_max
    assert got[PRES @ 2**53] == pytest.approx(1 - 1 / 2**53, rel=1e-15)
