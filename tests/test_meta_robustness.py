"""Robustness to incomplete judgements: f-qrels sampling and Kendall's tau (ir_measures_pres.meta).

Expected values: arithmetic written out below (kept counts, a hand-worked four-run example with
its tau-b computed pair by pair), scipy.stats.kendalltau, and a naive concordant/discordant
count written from the tau-b formula.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pandas")
pytest.importorskip("scipy")

from ir_measures_pres.meta import Core, robustness, robustness_table, sample_qrels  # noqa: E402
from ir_measures_pres.meta._stats import kendall_tau  # noqa: E402
from ir_measures_pres.meta.sampling import f_qrels_mask, kept_count, sample_rng  # noqa: E402

# --------------------------------------------------------------------------------------------
# f-qrels
# --------------------------------------------------------------------------------------------


def test_kept_count_rounds_halves_up_and_keeps_at_least_one():
    n = np.array([0, 1, 2, 3, 5, 5, 7, 10, 10, 6])
    f = np.array([0.2, 0.2, 0.2, 0.5, 0.5, 0.3, 0.3, 0.2, 0.25, 0.6])
    got = [int(kept_count(np.array([ni]), fi)[0]) for ni, fi in zip(n, f)]
    # 0 -> 0; 0.2 -> 1 (at least one); 0.4 -> 1; 1.5 -> 2 (half up, not to even); 2.5 -> 3;
    # 1.5 (0.3 * 5, 1.4999999999999998 in binary) -> 2; 2.1 -> 2; 2.0 -> 2; 2.5 -> 3; 3.6 -> 4
    assert got == [0, 1, 1, 2, 3, 2, 2, 2, 3, 4]


def _qrels():
    return {
        "t1": {"a": 1, "b": 2, "c": 1, "d": 1, "e": 1, "n1": 0, "n2": 0},  # 5 relevant
        "t2": {"n3": 0, "n4": 0},  # no relevant document
        "t3": {"x": 1, "n5": 0},  # 1 relevant
        "t4": {f"r{i}": 1 for i in range(10)},  # 10 relevant, no non-relevant line
    }


def test_f_qrels_keeps_nonrelevant_and_a_subset_of_the_relevant():
    full = _qrels()
    for s in (1, 2, 3):
        red = sample_qrels(full, 0.4, seed=11, sample=s)
        got = _as_dict(red)
        assert list(got) == ["t1", "t2", "t3", "t4"]
        for q, docs in full.items():
            kept = got[q]
            assert set(kept) <= set(docs)
            assert all(kept[d] == docs[d] for d in kept)  # labels unchanged
            assert {d for d, v in docs.items() if v < 1} <= set(kept)  # non-relevant all kept
        # 0.4 * 5 = 2; t3: max(1, 0.4) = 1; t4: 0.4 * 10 = 4
        assert [sum(v >= 1 for v in got[q].values()) for q in full] == [2, 0, 1, 4]


def test_f_equal_one_keeps_every_line():
    full = _qrels()
    red = sample_qrels(full, 1.0, seed=3)
    assert _as_dict(red) == full


def _as_dict(qrels):
    return dict(zip(qrels.query_ids, qrels.lookup))


def test_f_qrels_are_seeded_and_samples_differ():
    full = _qrels()
    a = [_as_dict(sample_qrels(full, 0.5, seed=7, sample=s)) for s in (1, 2, 3)]
    b = [_as_dict(sample_qrels(full, 0.5, seed=7, sample=s)) for s in (1, 2, 3)]
    assert a == b
    assert len({str(sorted(x["t4"])) for x in a}) == 3  # C(10, 5) = 252 subsets: three draws differ
    assert _as_dict(sample_qrels(full, 0.5, seed=8, sample=1)) != a[0]


def test_f_qrels_draw_each_relevant_document_uniformly():
    # one topic with 10 relevant documents, f = 0.3 keeps 3: each is kept with probability 0.3
    qidx = np.zeros(10, dtype=np.int64)
    labels = np.ones(10, dtype=np.int64)
    counts = np.zeros(10)
    draws = 2000
    for s in range(draws):
        counts += f_qrels_mask(qidx, labels, 1, 0.3, sample_rng(1, 0.3, s))
    # binomial(2000, 0.3): sd = 20.5; 5 sd around 600
    assert np.all(np.abs(counts - 600) < 103), counts


def test_bad_fraction():
    with pytest.raises(ValueError, match="fraction"):
        sample_qrels(_qrels(), 0.0)
    with pytest.raises(ValueError, match="fraction"):
        sample_qrels(_qrels(), 1.5)


# --------------------------------------------------------------------------------------------
# Kendall's tau
# --------------------------------------------------------------------------------------------


def naive_tau_b(x, y):
    """tau_b = (C - D) / sqrt((n0 - n1)(n0 - n2)), counted pair by pair."""
    conc = disc = tie_x = tie_y = 0
    pairs = list(combinations(range(len(x)), 2))
    for i, j in pairs:
        dx, dy = x[i] - x[j], y[i] - y[j]
        tie_x += dx == 0
        tie_y += dy == 0
        if dx * dy > 0:
            conc += 1
        elif dx * dy < 0:
            disc += 1
    n0 = len(pairs)
    return (conc - disc) / math.sqrt((n0 - tie_x) * (n0 - tie_y))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=12))
def test_kendall_tau_is_tau_b_and_equals_scipy(pairs):
    from scipy.stats import kendalltau

    x = np.array([p[0] for p in pairs], dtype=float) / 4
    y = np.array([p[1] for p in pairs], dtype=float) / 4
    tau, p = kendall_tau(x, y)
    if np.all(x == x[0]) or np.all(y == y[0]):
        assert math.isnan(tau)
        return
    ref = kendalltau(x, y)
    assert tau == pytest.approx(ref[0], abs=1e-12)
    assert p == pytest.approx(ref[1], abs=1e-12)
    assert tau == pytest.approx(naive_tau_b(x, y), abs=1e-12)


# --------------------------------------------------------------------------------------------
# the experiment
# --------------------------------------------------------------------------------------------

#: one topic, relevant a and b, judged non-relevant n; four runs
HAND_QRELS = {"t1": {"a": 1, "b": 1, "n": 0}}
HAND_RUNS = {
    "A": {"t1": {"a": 4.0, "x": 3.0, "y": 2.0, "b": 1.0}},
    "B": {"t1": {"b": 3.0, "x": 2.0, "a": 1.0}},
    "C": {"t1": {"a": 2.0, "b": 1.0}},
    "D": {"t1": {"x": 2.0, "y": 1.0}},
}


def test_hand_worked_robustness_example():
    """f = 0.5 keeps a or b. Scores (A, B, C, D):

    R@2   full (1/2, 1/2, 1, 0); a kept (1, 0, 1, 0); b kept (0, 1, 1, 0)
          both cases: C = 3 concordant, D = 0, ties n1 = 1 in the full ranking, n2 = 2 in the
          reduced one: tau_b = 3 / sqrt((6 - 1)(6 - 2)) = 3 / sqrt(20)
    AP    full ((1 + 2/4)/2, (1 + 2/3)/2, 1, 0) = (0.75, 0.8333, 1, 0)
          a kept (R = 1): (1, 1/3, 1, 0): C = 4, D = 1 (A-B), n2 = 1: tau_b = 3 / sqrt(6 * 5)
          b kept (R = 1): (1/4, 1, 1/2, 0): C = 5, D = 1 (B-C): tau_b = 4 / 6
    """
    res = robustness(HAND_QRELS, HAND_RUNS, "R@2 AP", fractions=[0.5, 1.0], samples=3, seed=5, progress=False)
    samples = res.samples.set_index(["measure", "fraction", "sample"])
    for s in (1, 2, 3):
        kept = sample_qrels(HAND_QRELS, 0.5, seed=5, sample=s).lookup[0]
        assert len([d for d, v in kept.items() if v >= 1]) == 1
        a_kept = "a" in kept
        assert samples.loc[("R@2", 0.5, s), "tau"] == pytest.approx(3 / math.sqrt(20))
        assert samples.loc[("AP", 0.5, s), "tau"] == pytest.approx(3 / math.sqrt(30) if a_kept else 4 / 6)
        assert samples.loc[("AP", 1.0, s), "tau"] == pytest.approx(1.0)
    summary = res.summary.set_index(["measure", "fraction"])
    ap = [samples.loc[("AP", 0.5, s), "tau"] for s in (1, 2, 3)]
    assert summary.loc[("AP", 0.5), "mean_tau"] == pytest.approx(sum(ap) / 3)
    assert summary.loc[("AP", 0.5), "min_tau"] == pytest.approx(min(ap))
    assert summary.loc[("AP", 0.5), "samples"] == 3
    scores = res.scores.set_index(["run", "measure", "fraction", "sample"])["value"]
    assert scores[("B", "AP", 1.0, 0)] == pytest.approx((1 + 2 / 3) / 2)
    table = robustness_table(res)
    assert list(table.columns) == ["R@2", "AP"] and list(table.index) == [0.5, 1.0]


def _collection(seed, n_runs=6, n_topics=15):
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(60)]
    qrels = {}
    for t in range(n_topics):
        judged = rng.choice(docs, 30, replace=False)
        qrels[f"t{t}"] = {str(d): int(i < int(rng.integers(1, 9))) for i, d in enumerate(judged)}
    runs = {}
    for r in range(n_runs):
        runs[f"run{r}"] = {
            f"t{t}": {
                str(d): float(rng.random() + (r * 0.1 if qrels[f"t{t}"].get(str(d), 0) else 0))
                for d in rng.choice(docs, 40, replace=False)
            }
            for t in range(n_topics)
        }
    return qrels, runs


def test_unchanged_qrels_give_tau_one_and_seeded_results_reproduce():
    qrels, runs = _collection(1)
    measures = "PRES@20 AP@20 R@20 nDCG@10 QMeasure"
    res = robustness(qrels, runs, measures, fractions=[1.0], samples=2, seed=3, progress=False)
    assert res.samples["tau"].tolist() == [1.0] * 10
    a = robustness(qrels, runs, measures, fractions=[0.3, 0.6], samples=2, seed=3, progress=False)
    b = robustness(qrels, runs, measures, fractions=[0.6, 0.3], samples=2, seed=3, progress=False)
    key = ["measure", "fraction", "sample"]
    assert (
        a.samples.sort_values(key)
        .reset_index(drop=True)
        .equals(b.samples.sort_values(key).reset_index(drop=True))
    )
    c = robustness(qrels, runs, measures, fractions=[0.3, 0.6], samples=2, seed=4, progress=False)
    assert not a.scores.equals(c.scores)


def test_taus_equal_scipy_on_the_reported_scores():
    from scipy.stats import kendalltau

    qrels, runs = _collection(2)
    core = Core(qrels, runs, "PRES@20 AP R@10", progress=False)
    res = robustness(fractions=[0.25], samples=2, seed=9, progress=False, core=core)
    scores = res.scores
    for row in res.samples.itertuples():
        full = scores[(scores.measure == row.measure) & (scores["sample"] == 0)].set_index("run")["value"]
        red = scores[(scores.measure == row.measure) & (scores["sample"] == row.sample)].set_index("run")[
            "value"
        ]
        assert row.tau == pytest.approx(kendalltau(full[core.run_names], red[core.run_names])[0], abs=1e-12)
        assert row.relevant_kept < row.relevant_total


def test_plot_and_save(tmp_path):
    pytest.importorskip("matplotlib")
    res = robustness(HAND_QRELS, HAND_RUNS, "R@2 AP", fractions=[0.5], samples=2, seed=5, progress=False)
    written = res.save(str(tmp_path), fmt="tsv", plot_format="svg")
    assert sorted(p.name for p in written) == [
        "robustness.md",
        "robustness.svg",
        "robustness.tex",
        "robustness_samples.tsv",
        "robustness_scores.tsv",
        "robustness_summary.tsv",
    ]
    assert (tmp_path / "robustness.svg").read_text().lstrip().startswith("<?xml")
    fig = res.plot()
    assert len(fig.axes) == 2  # one panel per cut-off: @2 and none
