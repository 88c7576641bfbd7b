"""Discriminative power (Sakai's paired bootstrap test) and split-half stability
(ir_measures_pres.meta.discrimination).

Expected values: hand-worked bootstrap replicates with explicit topic indices, a naive loop
written straight from Sakai's algorithm (SIGIR 2006, Figures 1-2 and 5), and hand-counted
split-half outcomes. Scores are binary fractions so that the arithmetic is exact.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

pytest.importorskip("pandas")

from ir_measures_pres.meta import (  # noqa: E402
    Scores,
    discriminative_power,
    discriminative_power_from_scores,
    stability,
    stability_from_scores,
)
from ir_measures_pres.meta._stats import bootstrap_counts, bootstrap_test  # noqa: E402


def _two_runs(x, y, measure="m"):
    x, y = np.asarray(x, float), np.asarray(y, float)
    return Scores(["X", "Y"], [measure], [f"t{i}" for i in range(len(x))], np.stack([[x, y]]))


def test_hand_worked_bootstrap():
    """z = (1, 2, 3)/8: mean 2/8, sd 1/8, t(z) = (2/8) / ((1/8)/sqrt(3)) = 2 sqrt(3) = 3.46.
    w = (-1, 0, 1)/8. Four bootstrap samples (topic indices):
      (0, 0, 2): w* = (-1, -1, 1)/8, mean -1/24, sd = sqrt(((2/3)^2 * 2 + (4/3)^2)/2)/8 = sqrt(4/3)/8,
                 |t| = (1/24) / (sqrt(4/3)/8 / sqrt(3)) = (1/3) / (2/3) = 0.5
      (1, 1, 1): w* = 0: t = 0
      (2, 2, 2): w* = (1, 1, 1)/8: sd 0, mean > 0: |t| = inf >= 3.46   <- the only one
      (0, 2, 2): |t| = 0.5 as the first, by symmetry
    ASL = 1/4. At alpha = 0.5 the ceil(0.5 * 4) = 2nd largest |t| is 0.5 (samples 1 and 4; the
    first is taken): difference required = |mean(w*)| = 1/24."""
    s = _two_runs([3, 4, 6], [2, 2, 3])  # z = (1, 2, 3)/8 after /8 below
    s.values /= 8
    idx = np.array([[0, 0, 2], [1, 1, 1], [2, 2, 2], [0, 2, 2]])
    res = discriminative_power_from_scores(s, alpha=0.5, bootstrap_index=idx, progress=False)
    row = res.pairs.iloc[0]
    assert row.t == pytest.approx(2 * math.sqrt(3))
    assert row.asl == 0.25
    assert row.diff_required == pytest.approx(1 / 24)
    assert row.mean_diff == pytest.approx(2 / 8)
    assert bool(row.significant)  # 0.25 < 0.5
    summary = res.summary.iloc[0]
    assert (summary.pairs, summary.significant, summary.discriminative_power, summary.B) == (1, 1, 1.0, 4)
    res = discriminative_power_from_scores(s, alpha=0.05, bootstrap_index=idx, progress=False)
    assert res.summary.iloc[0].significant == 0
    # alpha = 0.05, B = 4: ceil(0.2) = 1st largest |t| = inf (sample 3): |mean(w*)| = 1/8
    assert res.pairs.iloc[0].diff_required == pytest.approx(1 / 8)


def naive_sakai(z, idx, alpha):
    """Sakai 2006, written straight from the algorithm with numpy's std (ddof=1)."""
    n = len(z)

    def t(v):
        sd = np.std(v, ddof=1)
        if sd == 0:
            return 0.0 if np.mean(v) == 0 else math.copysign(math.inf, np.mean(v))
        return np.mean(v) / (sd / math.sqrt(n))

    t_obs = abs(t(z))
    w = z - np.mean(z)
    tb = np.array([abs(t(w[i])) for i in idx])
    means = np.array([np.mean(w[i]) for i in idx])
    asl = np.sum(tb >= t_obs) / len(idx)
    kth = sorted(tb, reverse=True)[math.ceil(alpha * len(idx)) - 1]
    diff = abs(means[np.flatnonzero(tb == kth)[0]])
    return asl, diff


def test_bootstrap_equals_a_naive_loop_over_sakais_algorithm():
    rng = np.random.default_rng(12)
    n, b = 25, 300
    idx, counts = bootstrap_counts(n, b, np.random.default_rng(1))
    z = rng.normal(0.02, 0.1, size=(8, n))
    z[3] = 0.0
    t_obs, asl, diff = bootstrap_test(z, counts, 0.05)
    for p in range(len(z)):
        ref_asl, ref_diff = naive_sakai(z[p], idx, 0.05)
        assert asl[p] == ref_asl
        assert diff[p] == pytest.approx(ref_diff, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    arrays(np.int64, st.tuples(st.integers(2, 4), st.integers(2, 9)), elements=st.integers(0, 8)),
    st.integers(0, 2**31),
)
def test_asl_is_a_probability(values, seed):
    s = Scores(
        [f"r{i}" for i in range(values.shape[0])],
        ["m"],
        [f"t{i}" for i in range(values.shape[1])],
        values[None].astype(float) / 8,
    )
    res = discriminative_power_from_scores(s, B=50, seed=seed, progress=False)
    assert res.pairs["asl"].between(0, 1).all()
    assert res.summary["discriminative_power"].between(0, 1).all()


def test_a_run_compared_with_itself_is_never_significant():
    x = np.array([1, 3, 2, 5, 4, 0, 7, 6]) / 8
    res = discriminative_power_from_scores(_two_runs(x, x), B=200, seed=1, progress=False)
    assert res.pairs.iloc[0].asl == 1.0 and not res.pairs.iloc[0].significant
    assert res.summary.iloc[0].significant == 0


def test_seeded_bootstrap_reproduces():
    rng = np.random.default_rng(3)
    s = Scores(["a", "b", "c"], ["m1", "m2"], [f"t{i}" for i in range(20)], rng.random((2, 3, 20)))
    a = discriminative_power_from_scores(s, B=200, seed=5, progress=False)
    b = discriminative_power_from_scores(s, B=200, seed=5, progress=False)
    assert a.pairs.equals(b.pairs) and a.summary.equals(b.summary)
    c = discriminative_power_from_scores(s, B=200, seed=6, progress=False)
    assert not a.pairs["asl"].equals(c.pairs["asl"])


def test_hand_worked_stability():
    """X = (4, 1, 3, 2)/8, Y = (2, 3, 3, 3)/8, halves ({0,1},{2,3}) and ({0,2},{1,3}).

    split 1: A: X 5/16, Y 5/16 -> d = 0: tie;  B: X 5/16, Y 6/16 -> d = -1/16, 5 % of 6/16 is
             0.01875 < 1/16: Y wins
    split 2: A: X 7/16, Y 5/16 -> X wins (d = 2/16);  B: X 3/16, Y 6/16 -> Y wins (d = -3/16)
    GT = 1, LT = 2, EQ = 1 over 4 halves: error rate = min(1, 2)/4 = 1/4, ties 1/4.
    Swaps: split 1 has d_A = 0 (no swap), split 2 swaps. Buckets of width 1/16 on |d| of each
    half: 0 -> [0, 1/16) no swap; 1/16 -> [1/16, 2/16) no swap; 2/16 swap; 3/16 swap."""
    s = _two_runs(np.array([4, 1, 3, 2]) / 8, np.array([2, 3, 3, 3]) / 8)
    halves = [([0, 1], [2, 3]), ([0, 2], [1, 3])]
    res = stability_from_scores(s, fuzziness=0.05, bucket_width=1 / 16, halves=halves, progress=False)
    row = res.summary.iloc[0]
    assert (row.error_rate, row.tie_rate, row.splits, row.topics_per_half) == (0.25, 0.25, 2, 2)
    buckets = res.buckets.set_index("bucket_lo")
    assert buckets["comparisons"].tolist() == [1, 1, 1, 1]
    assert buckets["swaps"].tolist() == [0, 0, 1, 1]
    assert buckets.index.tolist() == pytest.approx([0, 1 / 16, 2 / 16, 3 / 16])
    # fuzziness 0.2: split 1 B: 0.2 * 6/16 = 0.075 > 1/16: a tie too -> GT 1, LT 1, EQ 2
    wide = res.error_ties.set_index("fuzziness").loc[0.2]
    assert (wide.error_rate, wide.tie_rate) == (0.25, 0.5)
    # fuzziness 0: only the exact tie
    zero = res.error_ties.set_index("fuzziness").loc[0.0]
    assert (zero.error_rate, zero.tie_rate) == (0.25, 0.25)


def naive_stability(tenths, halves, grid, width):
    """Buckley & Voorhees 2000 and Voorhees & Buckley 2002 written straight from the definitions,
    in exact arithmetic: ``tenths`` (runs x topics) are integer scores in tenths (P@10-like),
    every half-set mean is a Fraction. Returns {f: (error rate, proportion of ties)}, the
    {bucket: (comparisons, swaps)} of |d| in buckets of ``width``, and how many half-set
    outcomes sit exactly on a threshold (|d| = f * max, not a tie)."""
    runs = [[Fraction(int(v), 10) for v in row] for row in tenths]
    pairs = [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    diffs = []  # per split: per half: {pair: (d, max mean)}
    for a, b in halves:
        split = []
        for half in (a, b):
            means = [sum(r[t] for t in half) / len(half) for r in runs]
            split.append({(i, j): (means[i] - means[j], max(means[i], means[j])) for i, j in pairs})
        diffs.append(split)
    curve, on_threshold = {}, 0
    for f in grid:
        gt, lt, eq, total = dict.fromkeys(pairs, 0), dict.fromkeys(pairs, 0), 0, 0
        for split in diffs:
            for half in split:
                for pair, (d, top) in half.items():
                    total += 1
                    on_threshold += d != 0 and abs(d) == f * top
                    if d == 0 or abs(d) < f * top:
                        eq += 1
                    elif d > 0:
                        gt[pair] += 1
                    else:
                        lt[pair] += 1
        curve[f] = (Fraction(sum(min(gt[p], lt[p]) for p in pairs), total), Fraction(eq, total))
    buckets = {}
    for one, other in diffs:
        for pair in pairs:
            swap = one[pair][0] * other[pair][0] < 0
            for d in (one[pair][0], other[pair][0]):
                k = math.floor(abs(d) / width)
                comparisons, swaps = buckets.get(k, (0, 0))
                buckets[k] = (comparisons + 1, swaps + swap)
    return curve, buckets, on_threshold


def test_stability_equals_a_naive_loop_in_exact_arithmetic():
    """Half-set means of 15 P@10-like topics are multiples of 1/150: repeating decimals, so the
    12-place rounding of a mean goes up for some and down for others, and many differences sit
    exactly on a threshold f * max (issue #20 item 6: those were counted as ties)."""
    rng = np.random.default_rng(20)
    tenths = rng.integers(2, 6, size=(6, 30))
    s = Scores([f"r{i}" for i in range(6)], ["P@10"], [f"t{i}" for i in range(30)], tenths[None] / 10)
    halves = []
    for _ in range(40):
        perm = rng.permutation(30)
        halves.append((perm[:15], perm[15:]))
    grid = [round(0.01 * i, 2) for i in range(21)]
    curve, buckets, on_threshold = naive_stability(
        tenths, halves, [Fraction(str(f)) for f in grid], Fraction("0.01")
    )
    assert on_threshold > 0  # the case this test is about does occur
    res = stability_from_scores(s, fuzziness=0.05, fuzziness_grid=grid, halves=halves, progress=False)
    ours = res.error_ties.set_index("fuzziness")
    for f in grid:
        error, ties = curve[Fraction(str(f))]
        assert (ours.error_rate[f], ours.tie_rate[f]) == (float(error), float(ties)), f
    got = {round(row.bucket_lo / 0.01): (row.comparisons, row.swaps) for row in res.buckets.itertuples()}
    assert got == buckets


def test_identical_runs_are_stable_ties():
    x = np.array([1, 3, 2, 5, 4, 0, 7, 6]) / 8
    res = stability_from_scores(_two_runs(x, x), splits=20, seed=2, progress=False)
    assert res.summary.iloc[0].error_rate == 0.0 and res.summary.iloc[0].tie_rate == 1.0
    assert res.buckets["swaps"].sum() == 0


def _collection():
    rng = np.random.default_rng(8)
    docs = [f"d{i}" for i in range(50)]
    qrels = {f"t{t}": {d: int(rng.random() < 0.25) for d in docs[:30]} for t in range(20)}
    runs = {
        f"r{r}": {
            f"t{t}": {d: float(rng.random() + 0.15 * r * qrels[f"t{t}"].get(d, 0)) for d in docs}
            for t in range(20)
        }
        for r in range(4)
    }
    return qrels, runs


def test_experiments_on_runs_are_seeded(tmp_path):
    qrels, runs = _collection()
    a = discriminative_power(qrels, runs, "AP PRES@20 QMeasure", B=200, seed=3, progress=False)
    b = discriminative_power(qrels, runs, "AP PRES@20 QMeasure", B=200, seed=3, progress=False)
    assert a.pairs.equals(b.pairs)
    assert len(a.pairs) == 6 * 3 and a.pairs["asl"].between(0, 1).all()
    s1 = stability(qrels, runs, "AP PRES@20", splits=30, seed=3, progress=False)
    s2 = stability(qrels, runs, "AP PRES@20", splits=30, seed=3, progress=False)
    assert s1.error_ties.equals(s2.error_ties) and s1.buckets.equals(s2.buckets)
    assert set(s1.summary["topics_per_half"]) == {10}
    pytest.importorskip("matplotlib")
    names = {p.name for p in a.save(str(tmp_path)) + s1.save(str(tmp_path), fmt="tsv", plot_format="svg")}
    assert names == {
        "discriminative_power_summary.csv",
        "discriminative_power_pairs.csv",
        "discriminative_power_repeats_table.csv",
        "discriminative_power.png",
        "discriminative_power.md",
        "discriminative_power.tex",
        "stability_summary.tsv",
        "stability_error_ties.tsv",
        "stability_buckets.tsv",
        "stability.svg",
        "stability.md",
        "stability.tex",
    }


def test_unshifted_difference_required_adds_the_observed_mean_back():
    """The unshifted reading, |mean(z*b)|, for the same replicate as Sakai's |mean(w*b)|."""
    z = np.array([[0.1, 0.3, -0.2, 0.4, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]])
    counts = np.eye(5)[[0, 0, 1, 2, 3]][None, :, :].sum(axis=1)  # one replicate: topics 0,0,1,2,3
    t_obs, asl, diff, diff_z = bootstrap_test(z, counts, 0.05, unshifted=True)
    # replicate of z: 0.1, 0.1, 0.3, -0.2, 0.4 -> mean 0.14; mean(z) = 0.12, so mean(w*b) = 0.02
    assert diff[0] == pytest.approx(abs(0.14 - 0.12))
    assert diff_z[0] == pytest.approx(0.14)
    assert diff[1] == diff_z[1] == 0.0
