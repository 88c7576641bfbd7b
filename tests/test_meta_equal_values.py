"""Values equal mathematically compare equal (meta-evaluation spec 3.5), in every experiment.

The issue's minimal cases, each checked against scipy or a naive loop on the values as exact
arithmetic gives them (rounded to 12 places), never against our own output.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("scipy")
pytest.importorskip("pandas")

from ir_measures_pres.engine.scores import Scores  # noqa: E402
from ir_measures_pres.meta.agreement import agreement_from_scores  # noqa: E402
from ir_measures_pres.meta.discrimination import (  # noqa: E402
    discriminative_power_from_scores,
    stability_from_scores,
)
from ir_measures_pres.stats.meta_tests import bootstrap_test  # noqa: E402
from ir_measures_pres.stats.significance import DECIMALS, kendall_tau, wilcoxon  # noqa: E402

X = np.array([0.3, 0.2, 0.4, 0.1, 0.8, 0.5, 0.7, 0.2])
Y = np.array([0.2, 0.1, 0.3, 0.0, 0.7, 0.4, 0.6, 0.3])


def _scores(values: np.ndarray, runs=None, measures=("M",)) -> Scores:
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 2:
        values = values[None]
    runs = runs or [f"r{i}" for i in range(values.shape[1])]
    return Scores(list(runs), list(measures), [str(q) for q in range(values.shape[2])], values)


def test_wilcoxon_minimal_case_is_00703_as_scipy_on_exact_differences():
    from scipy.stats import wilcoxon as sp_wilcoxon

    d_exact = np.array([0.1] * 7 + [-0.1])  # X - Y in exact arithmetic
    ref = sp_wilcoxon(d_exact, zero_method="wilcox").pvalue
    raw = sp_wilcoxon(X - Y, zero_method="wilcox").pvalue  # the ulps break the tie group
    assert round(ref, 4) == 0.0703 and round(raw, 4) == 0.0391
    _, p, direction = wilcoxon(X, Y, decimals=DECIMALS)
    assert p == pytest.approx(ref, abs=1e-12)
    assert direction == 1.0
    # the agreement experiment runs the same test
    res = agreement_from_scores(_scores(np.stack([X, Y])), confidence=0.95, progress=False)
    assert res.pairs["p_value"].iloc[0] == pytest.approx(ref, abs=1e-12)
    assert res.pairs["outcome"].iloc[0] == "indistinguishable"


def test_kendall_tau_b_0816_when_two_systems_tie_in_mean():
    from scipy.stats import kendalltau

    x = np.array([1.0, 2.0, 3.0])
    y = np.array([0.3, 0.1 + 0.2, 0.4])  # 0.3 < 0.30000000000000004: equal in exact arithmetic
    ref = kendalltau(x, [0.3, 0.3, 0.4])[0]
    assert round(ref, 3) == 0.816
    assert round(kendalltau(x, y)[0], 3) == 1.0  # what the ulp gives without rounding
    assert kendall_tau(x, y)[0] == pytest.approx(ref, abs=1e-12)


def test_agreement_tau_ties_runs_whose_means_are_equal_in_exact_arithmetic():
    from scipy.stats import kendalltau

    # run means under measure A: 0.15000000000000002 (0.1 and 0.2), 0.15, 0.5; under B: 1, 2, 3
    a = np.array([[0.1, 0.2], [0.15, 0.15], [0.5, 0.5]])
    b = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    res = agreement_from_scores(_scores(np.stack([a, b]), measures=("A", "B")), progress=False)
    ref = kendalltau([0.15, 0.15, 0.5], [1.0, 2.0, 3.0])[0]
    assert res.tau["tau"].iloc[0] == pytest.approx(ref, abs=1e-12)
    assert round(ref, 3) == 0.816


def _ulp_twins(n: int = 20, seed: int = 3):
    """Two runs equal in exact arithmetic: a_t and (a_t - 0.1) + 0.1, which differ by an ulp."""
    rng = np.random.default_rng(seed)
    a = np.round(rng.random(n), 2) + 0.3
    b = (a - 0.1) + 0.1
    assert not np.array_equal(a, b)
    return a, b


def test_bootstrap_asl_is_1_for_runs_identical_up_to_an_ulp():
    from scipy.stats import ttest_1samp

    a, b = _ulp_twins()
    z = (a - b)[None, :]
    rng = np.random.default_rng(0)
    B, n = 30, z.shape[1]
    idx = rng.integers(0, n, size=(B, n))
    counts = np.zeros((B, n))
    np.add.at(counts, (np.repeat(np.arange(B), n), idx.reshape(-1)), 1.0)
    # naive loop on the raw differences: the ulps make a t statistic of noise
    t_raw = ttest_1samp(z[0], 0.0).statistic
    assert np.isfinite(t_raw) and abs(t_raw) > 0
    _, asl, _ = bootstrap_test(z, counts, 0.05)
    assert asl[0] == 1.0
    res = discriminative_power_from_scores(_scores(np.stack([a, b])), B=200, seed=1, progress=False)
    assert res.pairs["asl"].iloc[0] == 1.0
    assert not res.pairs["significant"].iloc[0]


def test_stability_counts_ulp_twins_as_ties_and_never_as_swaps():
    a, b = _ulp_twins(n=10)
    halves = [(np.arange(5), np.arange(5, 10)), (np.array([0, 2, 4, 6, 8]), np.array([1, 3, 5, 7, 9]))]
    res = stability_from_scores(
        _scores(np.stack([a, b])), fuzziness=0.0, fuzziness_grid=(0.0,), progress=False, halves=halves
    )
    # exact arithmetic: every half-set difference is 0, so every outcome is a tie, no error
    assert res.summary["tie_rate"].iloc[0] == 1.0
    assert res.summary["error_rate"].iloc[0] == 0.0
    assert res.buckets["swaps"].sum() == 0


def test_default_tables_carry_only_sakais_shifted_difference_required():
    rng = np.random.default_rng(2)
    sc = _scores(rng.random((3, 15)))
    res = discriminative_power_from_scores(sc, B=50, seed=0, progress=False)
    assert "estimated_diff_unshifted" not in res.summary.columns
    assert "diff_required_unshifted" not in res.pairs.columns
    both = discriminative_power_from_scores(sc, B=50, seed=0, progress=False, unshifted=True)
    assert list(both.summary["estimated_diff"]) == list(res.summary["estimated_diff"])
    assert (both.summary["estimated_diff_unshifted"] >= 0).all()


def test_stability_a_difference_equal_to_the_fuzziness_threshold_is_not_a_tie():
    # means 0.4 and 0.38 in every half: |d| = 0.02 = 0.05 * 0.4 in exact arithmetic, and the rule
    # is |d| < f * max (strict); in floating point 0.05 * 0.4 = 0.020000000000000004
    a, b = np.full(4, 0.4), np.full(4, 0.38)
    assert abs(0.4 - 0.38) < 0.05 * 0.4 or abs(0.4 - 0.38) != 0.02  # the ulps disagree
    halves = [(np.arange(2), np.arange(2, 4))]
    res = stability_from_scores(
        _scores(np.stack([a, b])), fuzziness=0.05, fuzziness_grid=(0.05,), progress=False, halves=halves
    )
    assert res.summary["tie_rate"].iloc[0] == 0.0
    assert res.summary["error_rate"].iloc[0] == 0.0


def _exact_tie(mx: Fraction, my: Fraction, f: Fraction) -> bool:
    """Buckley & Voorhees' tie on exact means: d = 0 or |d| < f * max (strict)."""
    return mx == my or abs(mx - my) < f * max(mx, my)


def _two_halves(hx, hy):
    """Scores of runs X and Y over 30 topics whose values are the decimal strings ``hx``, ``hy``
    (15 each) twice over, so that the split of :data:`HALVES` gives both halves the same means;
    and those means in exact arithmetic (Fractions of the decimals)."""
    values = np.array([[float(Fraction(v)) for v in hx * 2], [float(Fraction(v)) for v in hy * 2]])
    exact = (sum(map(Fraction, hx)) / len(hx), sum(map(Fraction, hy)) / len(hy))
    return _scores(values, runs=["X", "Y"]), exact


HALVES = [(np.arange(15), np.arange(15, 30))]


def test_stability_means_49_150_and_1_3_at_f_002_are_a_win_not_a_tie():
    # issue #20 item 6: half-set means 49/150 and 1/3; |d| = 1/150 = 0.02 * 1/3 exactly, so the
    # strict rule |d| < f * max says: no tie, Y wins, in both halves: LT = 2, GT = 0, EQ = 0.
    hx = ["0.3"] * 14 + ["0.7"]  # sum 4.9 -> mean 49/150
    hy = ["0.4"] * 5 + ["0.3"] * 10  # sum 5 -> mean 1/3
    sc, (mx, my) = _two_halves(hx, hy)
    f = Fraction("0.02")
    assert (mx, my) == (Fraction(49, 150), Fraction(1, 3))
    assert abs(mx - my) == f * max(mx, my) == Fraction(1, 150)
    assert not _exact_tie(mx, my, f)
    # the defect: 49/150 rounds up (0.326666666667), 1/3 down (0.333333333333), so the rounded
    # means' rounded difference is one unit below the rounded threshold
    rx, ry = np.round(float(mx), DECIMALS), np.round(float(my), DECIMALS)
    assert abs(np.round(rx - ry, DECIMALS)) < np.round(0.02 * ry, DECIMALS)
    res = stability_from_scores(sc, fuzziness=0.02, fuzziness_grid=(0.02,), progress=False, halves=HALVES)
    assert res.summary["tie_rate"].iloc[0] == 0.0
    assert res.summary["error_rate"].iloc[0] == 0.0  # Y wins every half: min(GT, LT) = 0
    # one step of fuzziness wider, the same means are a tie (1/150 < 0.03 * 1/3)
    assert _exact_tie(mx, my, Fraction("0.03"))
    wide = stability_from_scores(sc, fuzziness=0.03, fuzziness_grid=(0.03,), progress=False, halves=HALVES)
    assert wide.summary["tie_rate"].iloc[0] == 1.0


@pytest.mark.parametrize(
    "hx, hy, f, ulps",
    [
        # |d| one unit of the 12th place below the threshold 0.02 * 1/3: still a tie
        (["0.3"] * 14 + ["0.700000000015"], ["0.4"] * 5 + ["0.3"] * 10, "0.02", False),
        # the same with the runs' roles swapped (the larger mean is X's)
        (["0.4"] * 5 + ["0.3"] * 10, ["0.3"] * 14 + ["0.700000000015"], "0.02", False),
        # means equal in exact arithmetic, an ulp apart in floating point: d = 0, a tie at f = 0
        (["0.1", "0.2"] + ["0.0"] * 13, ["0.3"] + ["0.0"] * 14, "0", True),
    ],
)
def test_stability_ties_in_exact_arithmetic_stay_ties(hx, hy, f, ulps):
    sc, (mx, my) = _two_halves(hx, hy)
    assert _exact_tie(mx, my, Fraction(f))
    if ulps:
        float_means = sc.values[0][:, :15].mean(axis=1)
        assert mx == my and float_means[0] != float_means[1]
    res = stability_from_scores(
        sc, fuzziness=float(f), fuzziness_grid=(float(f),), progress=False, halves=HALVES
    )
    assert res.summary["tie_rate"].iloc[0] == 1.0


@pytest.mark.parametrize(
    "hx",
    [
        ["0.3"] * 14 + ["0.75"],  # mean 0.33: |d| = 0.03 exactly, the bucket [0.03, 0.04)
        ["0.3"] * 14 + ["0.749999999925"],  # mean 0.329999999995: |d| below 0.03 at 12 places
    ],
)
def test_stability_buckets_of_d_on_an_edge_and_just_below_it(hx):
    # bucket k = [k w, (k+1) w) of |d| in exact arithmetic, the rule of the swap method's bins;
    # the buckets used to add 1e-9 to |d| / w, which put 0.029999999995 in [0.03, 0.04)
    sc, (mx, my) = _two_halves(hx, ["0.3"] * 15)
    k = math.floor(abs(mx - my) / Fraction("0.01"))
    res = stability_from_scores(sc, bucket_width=0.01, progress=False, halves=HALVES)
    assert res.buckets["bucket_lo"].tolist() == [round(0.01 * k, 10)]
    assert res.buckets["comparisons"].tolist() == [2]
