"""Swap-method sensitivity (meta-evaluation spec 3.2): a naive loop written from the definition,
hand-made cases whose swap rates are known, properties, the CLI."""

from __future__ import annotations

import math
import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest

pytest.importorskip("pandas")

from conftest import shared_data  # noqa: E402

from ir_measures_pres.engine.scores import Scores  # noqa: E402
from ir_measures_pres.meta.sensitivity import sensitivity_from_scores  # noqa: E402
from ir_measures_pres.stats.meta_tests import swap_bins, swap_samples, swap_sensitivity  # noqa: E402


def _scores(values, measures=None):
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 2:
        values = values[None]
    measures = measures or [f"M{i}" for i in range(values.shape[0])]
    return Scores(
        [f"r{i}" for i in range(values.shape[1])],
        list(measures),
        [str(q) for q in range(values.shape[2])],
        values,
    )


def _counts(index_lists, n):
    out = np.zeros((len(index_lists), n))
    for b, idx in enumerate(index_lists):
        for t in idx:
            out[b, t] += 1
    return out


def naive_swap(values, first, second, width, max_rate):
    """From the definition: every draw, every pair of runs, one observation binned by |d1|."""
    obs, swaps = {}, {}
    for s1, s2 in zip(first, second):
        for i, j in combinations(range(len(values)), 2):
            d1 = round(sum(values[i][t] - values[j][t] for t in s1) / len(s1), 12)
            d2 = round(sum(values[i][t] - values[j][t] for t in s2) / len(s2), 12)
            k = math.floor(round(abs(d1) / width, 12))
            obs[k] = obs.get(k, 0) + 1
            swaps[k] = swaps.get(k, 0) + (1 if d1 * d2 < 0 else 0)
    total = sum(obs.values())
    # smallest k such that every bin >= k with observations keeps the swap rate
    for k in range(max(obs) + 2):
        if all(swaps[j] / obs[j] <= max_rate + 1e-12 for j in obs if j >= k):
            break
    return round(k * width, 10), sum(v for j, v in obs.items() if j >= k) / total, obs, swaps


@pytest.mark.parametrize("sampling", ["bootstrap", "disjoint"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_a_naive_loop_on_small_random_data(sampling, seed):
    rng = np.random.default_rng(seed)
    values = np.round(rng.random((5, 12)) * rng.random(12), 3)  # 5 runs, 12 topics
    first, second, c = swap_samples(12, 40, np.random.default_rng(seed + 10), sampling)
    lists1 = [[t for t in range(12) for _ in range(int(row[t]))] for row in first]
    lists2 = [[t for t in range(12) for _ in range(int(row[t]))] for row in second]
    assert all(len(x) == c for x in lists1 + lists2)
    if sampling == "disjoint":
        assert all(not set(a) & set(b) for a, b in zip(lists1, lists2))
    for width, rate in ((0.01, 0.05), (0.02, 0.1)):
        required, sens, obs, swaps = naive_swap(values, lists1, lists2, width, rate)
        res = sensitivity_from_scores(
            _scores(values), bin_width=width, max_swap_rate=rate, samples=[(first, second)], progress=False
        )
        assert res.summary["diff_required"].iloc[0] == pytest.approx(required, abs=1e-12)
        assert res.summary["sensitivity"].iloc[0] == pytest.approx(sens, abs=1e-12)
        bins = res.bins
        assert dict(zip(np.round(bins["bin_lo"] / width).astype(int), bins["observations"])) == obs
        assert dict(zip(np.round(bins["bin_lo"] / width).astype(int), bins["swaps"])) == swaps


def test_hand_made_case_with_known_swap_rates():
    # one pair (run A against a run of zeros), single-topic disjoint samples:
    # (t0,t1): d1 .2  d2 .03 no swap | (t1,t2): .03 -.03 swap | (t2,t0): -.03 .2 swap
    # (t1,t0): .03 .2 no swap        | (t0,t2): .2 -.03 swap
    # bin [.03,.04): 3 observations, 2 swaps (2/3); bin [.20,.21): 2 observations, 1 swap (1/2)
    values = np.array([[0.2, 0.03, -0.03, 0.0], [0.0, 0.0, 0.0, 0.0]])
    draws = [(0, 1), (1, 2), (2, 0), (1, 0), (0, 2)]
    first = _counts([[a] for a, _ in draws], 4)
    second = _counts([[b] for _, b in draws], 4)
    for rate, required, sens in ((0.05, 0.21, 0.0), (0.6, 0.04, 0.4), (0.7, 0.0, 1.0)):
        res = sensitivity_from_scores(
            _scores(values), max_swap_rate=rate, samples=[(first, second)], progress=False
        )
        assert res.summary["diff_required"].iloc[0] == pytest.approx(required)
        assert res.summary["sensitivity"].iloc[0] == pytest.approx(sens)
    b = res.bins.set_index("bin_lo")
    assert b.loc[0.03, "observations"] == 3 and b.loc[0.03, "swaps"] == 2
    assert b.loc[0.2, "observations"] == 2 and b.loc[0.2, "swaps"] == 1


def test_always_swapping_and_never_swapping_pairs():
    # A = [1, 0], B = [0, 1]: disjoint single topics always disagree -> swap rate 1 in bin [1, 1.01)
    first, second, c = swap_samples(2, 50, np.random.default_rng(0), "disjoint")
    assert c == 1
    res = sensitivity_from_scores(
        _scores([[1.0, 0.0], [0.0, 1.0]]), samples=[(first, second)], progress=False
    )
    assert res.summary["diff_required"].iloc[0] == pytest.approx(1.01)
    assert res.summary["sensitivity"].iloc[0] == 0.0
    # A = B + 1 on every topic: never a swap, every comparison counts
    res = sensitivity_from_scores(
        _scores([[1.0, 1.0], [0.0, 0.0]]), samples=[(first, second)], progress=False
    )
    assert res.summary["diff_required"].iloc[0] == 0.0
    assert res.summary["sensitivity"].iloc[0] == 1.0


@pytest.mark.parametrize("seed", range(8))
def test_properties_identical_runs_never_swap_and_sensitivity_in_0_1(seed):
    rng = np.random.default_rng(seed)
    base = rng.random((4, 15))
    values = np.vstack([base, base[:1], (base[1] - 0.1) + 0.1])  # a copy and an ulp-twin
    res = sensitivity_from_scores(
        _scores(values),
        B=60,
        repeats=2,
        seed=seed,
        sampling=("bootstrap", "disjoint")[seed % 2],
        progress=False,
    )
    s = res.summary.iloc[0]
    assert 0.0 <= s["sensitivity"] <= 1.0
    assert s["diff_required"] >= 0.0
    # the identical pairs on their own: d1 = d2 = 0 always, never a swap
    twins = _scores(np.vstack([base[:1], base[:1]]))
    res = sensitivity_from_scores(twins, B=60, repeats=2, seed=seed, progress=False)
    assert res.repeats["swaps"].sum() == 0
    assert (res.summary["sensitivity"] == 1.0).all()
    obs, swaps = swap_bins(np.zeros(5), np.zeros(5), 0.01)
    assert swaps.sum() == 0 and swap_sensitivity(obs, swaps, 0.01) == (0.0, 1.0)


def test_seeded_repetitions_are_reproducible_and_extendable():
    rng = np.random.default_rng(5)
    sc = _scores(rng.random((2, 4, 20)))
    a = sensitivity_from_scores(sc, B=50, repeats=2, seed=7, progress=False)
    b = sensitivity_from_scores(sc, B=50, repeats=4, seed=7, progress=False)
    assert a.repeats.equals(b.repeats[b.repeats["repeat"] < 2].reset_index(drop=True))
    assert b.summary["repeats"].iloc[0] == 4
    mean = b.repeats.groupby("measure", sort=False)["sensitivity"].mean().to_numpy()
    sd = b.repeats.groupby("measure", sort=False)["sensitivity"].std(ddof=1).to_numpy()
    assert np.allclose(b.summary["sensitivity"], mean) and np.allclose(b.summary["sensitivity_sd"], sd)
    table = b.table()
    assert list(table.index) == ["absolute diff. required", "sensitivity"]
    assert list(table.columns) == ["M0", "M1"] and "±" in table.iloc[1, 0]


def test_bad_parameters():
    sc = _scores(np.random.default_rng(0).random((3, 6)))
    with pytest.raises(ValueError, match="n/2"):
        sensitivity_from_scores(sc, sampling="disjoint", size=4, progress=False)
    with pytest.raises(ValueError, match="unknown sampling"):
        sensitivity_from_scores(sc, sampling="halves", progress=False)
    with pytest.raises(ValueError, match="bin width"):
        sensitivity_from_scores(sc, bin_width=0.0, progress=False)


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *args], capture_output=True, text=True, timeout=300
    )


def test_cli_usage_errors_exit_2_before_reading():
    res = _cli("sensitivity", "no-such-qrels", "no-such-run", "-m", "AP", "--repeats", "0")
    assert res.returncode == 2 and "--repeats" in res.stderr
    res = _cli("sensitivity", "no-such-qrels", "no-such-run", "-m", "AP", "--sampling", "halves")
    assert res.returncode == 2


def test_cli_on_robust_2003(tmp_path):
    root = shared_data("real", "trec-robust-2003")
    res = _cli(
        "sensitivity",
        str(root / "qrels" / "robust03_qrels.txt"),
        str(root / "runs"),
        "-m",
        "AP P@10",
        "-B",
        "100",
        "--repeats",
        "2",
        "--sampling",
        "disjoint",
        "-q",
        "-o",
        str(tmp_path),
        "--bins",
    )
    assert res.returncode == 0, res.stderr
    assert "absolute diff. required" in res.stdout and "swap rate per bin" in res.stdout
    assert "disjoint samples of 50 topics" in res.stdout
    names = {p.name for p in tmp_path.iterdir()}
    assert {
        "sensitivity_summary.csv",
        "sensitivity_repeats.csv",
        "sensitivity_bins.csv",
        "sensitivity.png",
    } <= names
