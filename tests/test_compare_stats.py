"""The shared statistics module (ir_measures_pres.stats.significance) and compare() on small inputs.

Expected values: scipy (ttest_rel, wilcoxon, permutation_test, studentized_range), statsmodels
(multipletests), exhaustive enumerations written out here, and arithmetic. Never our own output.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from itertools import permutations, product

import numpy as np
import pytest

pytest.importorskip("scipy")
pytest.importorskip("pandas")
pytest.importorskip("statsmodels")

from ir_measures_pres import stats  # noqa: E402
from ir_measures_pres.meta import Scores  # noqa: E402
from ir_measures_pres.stats.comparison import COLUMNS, compare_scores  # noqa: E402


def _scores(X, measure="m", runs=None):
    X = np.asarray(X, dtype=np.float64)
    k, n = X.shape
    runs = runs or [f"r{i}" for i in range(k)]
    return Scores(runs, [measure], [f"q{t}" for t in range(n)], X[None])


# ---------------------------------------------------------------------------------------------
# the ties rule (meta-evaluation spec 3.5)
# ---------------------------------------------------------------------------------------------


def test_wilcoxon_rounds_differences_before_ranking():
    # the spec's example: the differences are 0.1 (seven times, by floating point not all equal)
    # and -0.1: one tie group of 8, so |d| ranks are all 4.5; exact arithmetic gives p = 0.0703
    x = np.array([0.3, 0.2, 0.4, 0.1, 0.8, 0.5, 0.7, 0.2])
    y = np.array([0.2, 0.1, 0.3, 0.0, 0.7, 0.4, 0.6, 0.3])
    from scipy.stats import wilcoxon as sp

    exact = sp(np.array([1, 1, 1, 1, 1, 1, 1, -1]) / 10, zero_method="wilcox")
    res = stats.paired_wilcoxon((x - y)[None])
    assert res.p[0] == pytest.approx(exact.pvalue, abs=1e-15)
    assert round(res.p[0], 4) == 0.0703


def test_t_test_equals_scipy_ttest_rel():
    from scipy.stats import ttest_rel

    rng = np.random.default_rng(1)
    a, b = rng.random((2, 30))
    res = stats.paired_t((b - a)[None])
    ref = ttest_rel(b, a)
    assert res.statistic[0] == pytest.approx(ref.statistic, rel=1e-12)
    assert res.p[0] == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.df[0] == 29
    lo, hi = stats.t_interval((b - a)[None], 0.9)
    ci = ref.confidence_interval(0.9)
    assert (lo[0], hi[0]) == pytest.approx((ci.low, ci.high), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# sign-flip randomisation test
# ---------------------------------------------------------------------------------------------


def _exact_sign_flip(d):
    """p by enumerating all 2^n sign vectors, written straight from the definition."""
    n = len(d)
    obs = abs(sum(d)) / n
    hits = 0
    for s in product((1, -1), repeat=n):
        t = abs(sum(si * di for si, di in zip(s, d))) / n
        hits += t >= obs - 1e-12
    return hits / 2**n


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sign_flip_exact_on_tiny_cases(seed):
    from scipy.stats import permutation_test

    rng = np.random.default_rng(seed)
    x, y = np.round(rng.random((2, 8)), 2)
    d = y - x
    signs, exact = stats.sign_flips(8, 10_000, None)
    assert exact and len(signs) == 256
    p = stats.sign_flip(d[None], signs, exact).p[0]
    assert p == pytest.approx(_exact_sign_flip(d.tolist()), abs=1e-12)
    ref = permutation_test(
        (y, x),
        lambda a, b: np.mean(a - b),
        permutation_type="samples",
        alternative="two-sided",
        n_resamples=np.inf,
    )
    assert p == pytest.approx(ref.pvalue, abs=1e-12)


def test_sign_flip_monte_carlo_agrees_with_scipy_within_its_error():
    from scipy.stats import permutation_test

    rng = np.random.default_rng(3)
    n, B = 40, 20_000
    x = rng.random(n)
    y = np.clip(x + rng.normal(0.04, 0.15, n), 0, 1)
    signs, exact = stats.sign_flips(n, B, np.random.default_rng(0))
    assert not exact and signs.shape == (B, n)
    p = stats.sign_flip((y - x)[None], signs, exact).p[0]
    ref = permutation_test(
        (y, x),
        lambda a, b: np.mean(a - b),
        permutation_type="samples",
        n_resamples=B,
        rng=np.random.default_rng(7),
    ).pvalue
    # two independent Monte Carlo estimates of the same p: within 4 standard errors of each
    assert abs(p - ref) <= 4 * math.sqrt(2 * ref * (1 - ref) / B) + 2 / B
    assert p >= 1 / (B + 1)


def test_perm_p_never_below_one_over_b_plus_one():
    X = np.vstack([np.zeros(50), np.full(50, 1.0) + np.arange(50) / 1000])
    res = compare_scores(_scores(X), test="perm", correction="none", B=999)
    assert res.pairs["p"].iloc[0] == pytest.approx(1 / 1000)


def test_perm_raises_b_when_the_correction_needs_it():
    rng = np.random.default_rng(0)
    X = rng.random((6, 30))  # 15 pairs, alpha 0.05: 1/(B+1) must be <= 0.05/15
    res = compare_scores(_scores(X), test="perm", B=100)
    assert res.params["B"] == math.ceil(10 * 15 / 0.05)
    assert any("B raised" in n for n in res.notes)


_CHILD = """
import numpy as np, sys
from ir_measures_pres.stats.comparison import compare_scores
from ir_measures_pres.meta import Scores
rng = np.random.default_rng(11)
X = rng.random((4, 35))
res = compare_scores(Scores(['a','b','c','d'], ['m'], [str(i) for i in range(35)], X[None]),
                     test=sys.argv[1], B=2000, seed=5)
print(repr(res.pairs['p'].tolist()))
"""


@pytest.mark.parametrize("test", ["perm", "rtukey"])
def test_same_seed_same_p_in_another_process(test):
    outs = [
        subprocess.run(
            [sys.executable, "-c", _CHILD, test], capture_output=True, text=True, check=True, env=env
        ).stdout
        for env in (None, {**__import__("os").environ, "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "123"})
    ]
    assert outs[0] == outs[1] and outs[0].startswith("[")


# ---------------------------------------------------------------------------------------------
# Tukey HSD and its randomised version
# ---------------------------------------------------------------------------------------------


def test_tukey_equals_the_formula_with_statsmodels_anova():
    import pandas as pd
    from scipy.stats import studentized_range
    from statsmodels.stats.anova import AnovaRM

    rng = np.random.default_rng(2)
    k, n = 4, 12
    X = rng.random((k, n)) + np.arange(k)[:, None] * 0.1
    df = pd.DataFrame(
        {"run": np.repeat(np.arange(k), n), "topic": np.tile(np.arange(n), k), "y": X.reshape(-1)}
    )
    table = AnovaRM(df, "y", "topic", within=["run"]).fit().anova_table
    F = float(table["F Value"].iloc[0])
    res = compare_scores(_scores(X), test="tukey")
    anova = res.anova["m"]
    assert anova["F"] == pytest.approx(F, rel=1e-10)
    ms_runs = n * ((X.mean(axis=1) - X.mean()) ** 2).sum() / (k - 1)
    assert anova["V_E"] == pytest.approx(ms_runs / F, rel=1e-10)
    row = res.pairs.iloc[0]  # r0 vs r1
    q = abs(X[1].mean() - X[0].mean()) / math.sqrt(anova["V_E"] / n)
    assert row["p"] == pytest.approx(studentized_range.sf(q, k, (k - 1) * (n - 1)), rel=1e-9)
    half = studentized_range.ppf(0.95, k, (k - 1) * (n - 1)) * math.sqrt(anova["V_E"] / n)
    assert row["ci_high"] - row["ci_low"] == pytest.approx(2 * half, rel=1e-9)
    assert row["effect"] == pytest.approx((X[1].mean() - X[0].mean()) / math.sqrt(anova["V_E"]))


def _exact_rtukey(X):
    """p of every pair by enumerating all (k!)^n within-topic permutations, from the definition."""
    k, n = X.shape
    ranges = []
    for choice in product(list(permutations(range(k))), repeat=n):
        means = [sum(X[choice[t][i], t] for t in range(n)) / n for i in range(k)]
        ranges.append(max(means) - min(means))
    ranges = np.array(ranges)
    out = {}
    for i in range(k):
        for j in range(i + 1, k):
            obs = abs(X[j].mean() - X[i].mean())
            out[(i, j)] = float((ranges >= obs - 1e-12).mean())
    return out


def test_randomised_tukey_exact_on_k3_n4():
    X = np.array([[0.1, 0.4, 0.35, 0.8], [0.3, 0.5, 0.2, 0.9], [0.6, 0.7, 0.65, 0.95]])
    expected = _exact_rtukey(X)
    res = compare_scores(_scores(X), test="rtukey", B=10_000)
    assert res.params["exact"] and res.params["B"] == 6**4
    for row, (i, j) in zip(res.pairs.itertuples(), [(0, 1), (0, 2), (1, 2)]):
        assert row.p == pytest.approx(expected[(i, j)], abs=1e-12)
    # Monte Carlo with fewer draws than permutations: within its error of the exact values
    mc = compare_scores(_scores(X), test="rtukey", B=1000, seed=3)
    assert not mc.params["exact"]
    for row, (i, j) in zip(mc.pairs.itertuples(), [(0, 1), (0, 2), (1, 2)]):
        p = expected[(i, j)]
        assert abs(row.p - p) <= 4 * math.sqrt(p * (1 - p) / 1000) + 2 / 1000


def _fraction_rtukey(X):
    """Exact p of every pair from all (k!)^n within-topic permutations, in exact arithmetic: the
    scores are the decimals of ``X`` (strings) as Fractions, so the means and ranges are exact."""
    F = [[Fraction(v) for v in row] for row in X]
    k, n = len(F), len(F[0])
    ranges = []
    for choice in product(list(permutations(range(k))), repeat=n):
        means = [sum(F[choice[t][i]][t] for t in range(n)) / n for i in range(k)]
        ranges.append(max(means) - min(means))
    out = {}
    for i in range(k):
        for j in range(i + 1, k):
            obs = abs(sum(F[j]) / n - sum(F[i]) / n)
            out[(i, j)] = Fraction(sum(r >= obs for r in ranges), len(ranges))
    return out


@pytest.mark.parametrize(
    "X",
    [
        # every permutation's range is |delta| = 41/300 exactly: p = 1 (it was 0: |delta| was
        # rounded up to 0.136666666667 and then compared with the unrounded ranges)
        [["0", "0", "0"], ["0.41", "0", "0"]],
        # k = 3 runs, means in thirds: p(r0, r2) = 7/9 (it was 6/9: 24 of the 216 permutations,
        # whose range equals |delta| = 4/15, were left out)
        [["0.9", "0.2", "0.5"], ["0.2", "0.0", "0.8"], ["0.0", "0.3", "0.5"]],
    ],
)
def test_randomised_tukey_counts_ranges_equal_to_delta_in_exact_arithmetic(X):
    expected = _fraction_rtukey(X)
    values = np.array([[float(Fraction(v)) for v in row] for row in X])
    res = compare_scores(_scores(values), test="rtukey", B=10_000)
    assert res.params["exact"]
    for row in res.pairs.itertuples():
        i, j = int(row.run_a[1:]), int(row.run_b[1:])
        assert row.p == float(expected[(i, j)]), (i, j)


# ---------------------------------------------------------------------------------------------
# corrections and intervals
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh", "none"])
def test_corrections_equal_statsmodels_and_intervals_are_simultaneous(method):
    from scipy.stats import ttest_rel
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(4)
    X = rng.random((5, 25)) + np.linspace(0, 0.2, 5)[:, None]
    res = compare_scores(_scores(X), correction=method)
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    p = np.array([ttest_rel(X[j], X[i]).pvalue for i, j in pairs])
    if method == "none":
        adj, rej = p, p <= 0.05
        level = 0.95
    else:
        rej, adj, _, _ = multipletests(p, 0.05, method=method)
        level = 1 - 0.05 / 10 if method != "fdr_bh" else 1 - max(1, rej.sum()) * 0.05 / 10
    assert res.pairs["p"].to_numpy() == pytest.approx(p, rel=1e-12)
    assert res.pairs["p_adj"].to_numpy() == pytest.approx(adj, rel=1e-12)
    assert res.pairs["reject"].tolist() == list(rej)
    for row, (i, j) in zip(res.pairs.itertuples(), pairs):
        ci = ttest_rel(X[j], X[i]).confidence_interval(level)
        assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-10)


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("test", ["t", "wilcoxon", "perm", "tukey", "rtukey"])
def test_identical_runs_p_one_delta_zero_interval_zero(test):
    rng = np.random.default_rng(5)
    x = rng.random(20)
    X = np.vstack([x, x.copy(), rng.random(20)])
    res = compare_scores(_scores(X), test=test, B=500)
    row = res.pairs.iloc[0]
    assert (row["run_a"], row["run_b"]) == ("r0", "r1")
    assert row["p"] == 1.0 and row["delta"] == 0.0 and row["effect"] == 0.0
    assert (row["ci_low"], row["ci_high"]) == (0.0, 0.0)
    assert (row["wins"], row["ties"], row["losses"]) == (0, 20, 0)


@pytest.mark.parametrize("test", ["t", "wilcoxon", "perm", "tukey", "rtukey"])
def test_swapping_runs_flips_delta_and_keeps_p(test):
    rng = np.random.default_rng(6)
    X = np.round(rng.random((3, 15)), 2)
    a = compare_scores(_scores(X, runs=["x", "y", "z"]), test=test, B=3000)
    b = compare_scores(_scores(X[[1, 0, 2]], runs=["y", "x", "z"]), test=test, B=3000)
    ra, rb = a.pairs.iloc[0], b.pairs.iloc[0]
    assert (ra["run_a"], ra["run_b"], rb["run_a"], rb["run_b"]) == ("x", "y", "y", "x")
    assert rb["delta"] == -ra["delta"]
    assert rb["p"] == ra["p"]
    assert (rb["wins"], rb["losses"]) == (ra["losses"], ra["wins"])
    assert rb["ci_low"] == pytest.approx(-ra["ci_high"]) and rb["ci_high"] == pytest.approx(-ra["ci_low"])


def test_columns_and_json_metadata():
    import json

    rng = np.random.default_rng(7)
    res = compare_scores(_scores(rng.random((3, 10))), baseline="r0")
    assert res.to_csv().splitlines()[0] == ",".join(COLUMNS)
    doc = json.loads(res.to_json())
    assert list(doc["pairs"][0]) == list(COLUMNS) and len(doc["pairs"]) == 2
    meta = doc["metadata"]
    assert meta["parameters"]["seed"] == 0 and meta["parameters"]["correction"] == "holm"
    assert meta["topics"] == 10 and meta["versions"]["scipy"]


def test_latex_booktabs_ties_and_caption():
    X = np.array([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.1, 0.2, 0.3], [0.2, 0.2, 0.2]])
    # "m" names no measure of the catalogue: its direction is given (without, no best is marked)
    res = compare_scores(
        _scores(X, runs=["a_1", "b", "c", "d"]), test="perm", seed=9, directions={"m": "higher"}
    )
    tex = res.to_latex()
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "|" not in tex.split("\\begin{tabular}")[1].split("\n")[0]
    assert tex.count("\\textbf{0.5000}") == 2  # both tied best in bold
    # c's mean (0.1 + 0.2 + 0.3)/3 equals d's 0.2 only up to an ulp: tied second, both underlined
    assert tex.count("\\underline{0.2000}") == 2
    assert "a\\_1" in tex
    caption = tex.split("\\caption{")[1]
    for part in ("sign-flip", "Holm", "$\\alpha$ = 0.05", "B = ", "seed 9", "qrels topics"):
        assert part in caption


def test_missing_scores_get_zero_with_a_note_or_are_intersected():
    table = {
        "a": {"AP": {"1": 0.5, "2": 0.4, "3": 0.3}},
        "b": {"AP": {"1": 0.6, "2": 0.5}},
    }
    res = compare_scores(table)
    assert res.n == 3 and res.missing["b"] == ["3"] and res.notes
    assert res.means["AP"]["b"] == pytest.approx(1.1 / 3)
    with pytest.warns(UserWarning, match="intersection"):
        inter = compare_scores(table, topics="intersection")
    assert inter.n == 2 and inter.means["AP"]["a"] == pytest.approx(0.45)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"test": "z"}, "unknown test"),
        ({"correction": "nope"}, "unknown correction"),
        ({"alpha": 0}, "alpha"),
        ({"ci": 1.5}, "ci"),
        ({"B": 0}, "B must"),
        ({"topics": "all"}, "topics"),
        ({"baseline": "zz"}, "baseline"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        compare_scores(_scores(np.random.default_rng(0).random((2, 5))), **kwargs)


def test_agreement_wilcoxon_uses_the_same_ties_rule():
    from scipy.stats import wilcoxon as sp

    from ir_measures_pres.meta import agreement_from_scores

    x = np.array([0.3, 0.2, 0.4, 0.1, 0.8, 0.5, 0.7, 0.2])
    y = np.array([0.2, 0.1, 0.3, 0.0, 0.7, 0.4, 0.6, 0.3])
    res = agreement_from_scores(_scores(np.vstack([x, y])), progress=False)
    exact = sp(np.array([1, 1, 1, 1, 1, 1, 1, -1]) / 10, zero_method="wilcox").pvalue
    assert res.pairs["p_value"].iloc[0] == pytest.approx(exact, abs=1e-15)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 12).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.5, 0.7, 1.0]), min_size=n, max_size=n
            ),
            st.lists(
                st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.5, 0.7, 1.0]), min_size=n, max_size=n
            ),
        )
    ),
    st.sampled_from(["t", "wilcoxon", "perm"]),
)
def test_property_swap_and_identity(xy, test):
    x, y = (np.array(v) for v in xy)
    fwd = compare_scores(_scores(np.vstack([x, y]), runs=["a", "b"]), test=test, B=200).pairs.iloc[0]
    back = compare_scores(_scores(np.vstack([y, x]), runs=["b", "a"]), test=test, B=200).pairs.iloc[0]
    assert back["delta"] == -fwd["delta"] and back["p"] == fwd["p"]
    assert 0 <= fwd["p"] <= 1 and fwd["p_adj"] == fwd["p"]  # one pair: Holm changes nothing
    if test == "perm":
        assert fwd["p"] > 0
    same = compare_scores(_scores(np.vstack([x, x + 0.0]), runs=["a", "b"]), test=test, B=200).pairs.iloc[0]
    assert same["p"] == 1.0 and same["delta"] == 0.0 and (same["ci_low"], same["ci_high"]) == (0.0, 0.0)
