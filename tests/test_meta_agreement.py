"""Agreement between measures: Kendall's tau and Wilcoxon classification of run pairs
(ir_measures_pres.meta.agreement).

Expected values: scipy.stats.wilcoxon / kendalltau on the same numbers, the exact Wilcoxon null
distribution written out (all 2^n sign patterns), and hand-classified run pairs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("pandas")
pytest.importorskip("scipy")

from ir_measures_pres.meta import Scores, agreement, agreement_from_scores  # noqa: E402
from ir_measures_pres.meta._stats import wilcoxon  # noqa: E402


def test_exact_wilcoxon_p_value_written_out():
    # 10 topics, every difference positive and distinct: R+ = 55, R- = 0. Under H0 each of the
    # 2^10 sign patterns is equally likely; only "all +" and "all -" are as extreme: p = 2 / 1024
    # (binary fractions, so that the differences are exact and untied)
    x = np.array([4, 5, 6, 2, 1, 7, 3, 6, 1, 5]) / 8
    d = np.arange(1, 11) / 64
    stat, p, direction = wilcoxon(x + d, x)
    assert p == pytest.approx(2 / 1024)
    assert stat == 0 and direction == 1
    stat, p, direction = wilcoxon(x, x + d)
    assert p == pytest.approx(2 / 1024) and direction == -1


def test_identical_runs_are_indistinguishable_without_error():
    x = np.array([0.1, 0.2, 0.3])
    assert wilcoxon(x, x.copy()) == (0.0, 1.0, 0.0)


def test_wilcoxon_equals_scipy_on_the_same_numbers():
    from scipy.stats import wilcoxon as sp

    rng = np.random.default_rng(0)
    for n in (6, 25, 60):  # exact and normal-approximation regimes
        for _ in range(5):
            x = np.round(rng.random(n), 2)
            y = np.round(np.clip(x + rng.normal(0.03, 0.1, n), 0, 1), 2)  # ties and zero differences
            stat, p, _ = wilcoxon(x, y)
            ref = sp(x, y, zero_method="wilcox", alternative="two-sided")
            assert stat == ref.statistic and p == pytest.approx(ref.pvalue, abs=1e-15)


def _scores():
    """Three runs over 10 topics and three measures, built so every outcome is known:
    m1: X = Y + d (X better), Z = Y exactly; m2: X = Y - d (Y better), Z = Y; m3: all equal."""
    d = np.arange(1, 11) / 64
    y = np.array([4, 5, 6, 2, 1, 4, 3, 6, 1, 5]) / 8
    m1 = np.stack([y + d, y, y])
    m2 = np.stack([y - d, y, y])
    m3 = np.stack([y, y, y])
    return Scores(["X", "Y", "Z"], ["m1", "m2", "m3"], [f"t{i}" for i in range(10)], np.stack([m1, m2, m3]))


def test_hand_worked_agreement_example():
    res = agreement_from_scores(_scores(), confidence=0.95, progress=False)
    outcome = res.pairs.set_index(["run_a", "run_b", "measure"])["outcome"]
    # (X, Y): m1 first better (p = 2/1024), m2 second better, m3 indistinguishable
    assert outcome[("X", "Y", "m1")] == "first better"
    assert outcome[("X", "Y", "m2")] == "second better"
    assert outcome[("X", "Y", "m3")] == "indistinguishable"
    # (X, Z) like (X, Y); (Y, Z) identical everywhere: indistinguishable
    assert outcome[("X", "Z", "m1")] == "first better" and outcome[("X", "Z", "m2")] == "second better"
    assert all(outcome[("Y", "Z", m)] == "indistinguishable" for m in ("m1", "m2", "m3"))
    counts = res.counts.set_index(["measure_a", "measure_b"])
    # m1 vs m2: (X,Y), (X,Z) opposite; (Y,Z) both indistinguishable
    assert counts.loc[
        ("m1", "m2"), ["agree", "disagree", "opposite", "agree_indistinguishable"]
    ].tolist() == [1, 2, 2, 1]
    # m1 vs m3: m1 significant on (X,Y), (X,Z), m3 never
    assert counts.loc[("m1", "m3"), ["agree", "only_a_significant", "only_b_significant"]].tolist() == [
        1,
        2,
        0,
    ]
    assert counts.loc[("m1", "m3"), "agreement_rate"] == pytest.approx(1 / 3)
    triples = res.triples.set_index(["measure_a", "measure_b", "dissenting"])
    # m1 and m2 agree only on (Y, Z), where m3 agrees too; m2 and m3 agree on (Y, Z) only
    assert triples.loc[("m1", "m2", "m3"), "count"] == 0
    assert triples.loc[("m2", "m3", "m1"), "count"] == 0
    assert triples.loc[("m1", "m3", "m2"), ["a_b_agree", "count"]].tolist() == [1, 0]
    tau = res.tau.set_index(["measure_a", "measure_b"])
    # m1 ranks X > Y = Z, m2 ranks Y = Z > X: tau_b = (0 - 2) / sqrt((3 - 1)(3 - 1)) = -1
    assert tau.loc[("m1", "m2"), "tau"] == pytest.approx(-1.0)
    assert math.isnan(tau.loc[("m1", "m3"), "tau"])  # m3 puts every run level


def test_confidence_changes_the_classification():
    s = _scores()
    # p = 2/1024 = 0.00195: significant at 0.99, not at 0.999
    strict = agreement_from_scores(s, confidence=0.999, progress=False)
    assert set(strict.pairs["outcome"]) == {"indistinguishable"}
    assert (
        agreement_from_scores(s, confidence=0.99, progress=False).pairs["outcome"] == "first better"
    ).sum() == 2
    with pytest.raises(ValueError, match="confidence"):
        agreement_from_scores(s, confidence=95)


def test_agreement_on_runs_a_run_against_its_copy_is_never_significant(tmp_path):
    from scipy.stats import kendalltau
    from scipy.stats import wilcoxon as sp

    rng = np.random.default_rng(4)
    docs = [f"d{i}" for i in range(40)]
    qrels = {f"t{t}": {d: int(rng.random() < 0.3) for d in docs[:25]} for t in range(16)}
    runs = {}
    for r in range(3):
        runs[f"r{r}"] = {
            f"t{t}": {d: float(rng.random() + 0.2 * r * qrels[f"t{t}"].get(d, 0)) for d in docs}
            for t in range(16)
        }
    runs["r0_copy"] = runs["r0"]
    res = agreement(qrels, runs, "AP R@10 PRES@20", progress=False)
    copy = res.pairs[(res.pairs.run_a == "r0") & (res.pairs.run_b == "r0_copy")]
    assert (copy.outcome == "indistinguishable").all() and (copy.p_value == 1.0).all()
    assert len(res.pairs) == 6 * 3
    # p-values and tau equal scipy on the per-topic scores
    from ir_measures_pres.meta import evaluate

    scores = evaluate(qrels, runs, "AP R@10 PRES@20", progress=False)
    row = res.pairs[(res.pairs.run_a == "r0") & (res.pairs.run_b == "r2") & (res.pairs.measure == "AP")].iloc[
        0
    ]
    assert row.p_value == pytest.approx(sp(scores.values[0, 0], scores.values[0, 2]).pvalue, abs=1e-15)
    means = scores.means()
    t = res.tau.set_index(["measure_a", "measure_b"]).loc[("AP", "PRES@20"), "tau"]
    assert t == pytest.approx(kendalltau(means[0], means[2])[0], abs=1e-12)


def test_plot_and_save(tmp_path):
    pytest.importorskip("matplotlib")
    res = agreement_from_scores(_scores(), progress=False)
    written = res.save(str(tmp_path), fmt="json")
    assert {p.name for p in written} == {
        "agreement_tau.json",
        "agreement_pairs.json",
        "agreement_counts.json",
        "agreement_triples.json",
        "agreement_means.json",
        "agreement.png",
        "agreement.md",
        "agreement.tex",
    }
    import json

    rows = json.loads((tmp_path / "agreement_counts.json").read_text())
    assert rows[0]["measure_a"] == "m1" and rows[0]["agree"] == 1
    assert (tmp_path / "agreement.png").read_bytes()[:4] == b"\x89PNG"


def test_copies_of_one_run_give_no_significant_pair_anywhere():
    from ir_measures_pres.meta import discriminative_power_from_scores

    rng = np.random.default_rng(5)
    one = rng.random((2, 1, 20))
    s = Scores(["a", "b", "c"], ["m1", "m2"], [f"t{i}" for i in range(20)], np.repeat(one, 3, axis=1))
    res = agreement_from_scores(s, progress=False)
    assert set(res.pairs["outcome"]) == {"indistinguishable"} and (res.pairs["p_value"] == 1.0).all()
    assert res.counts["agree"].tolist() == [3]
    dp = discriminative_power_from_scores(s, B=100, progress=False)
    assert dp.summary["significant"].tolist() == [0, 0] and (dp.pairs["asl"] == 1.0).all()


def test_asymptotic_method_is_passed_to_scipy():
    from scipy.stats import wilcoxon as sp

    x = np.array([1, 2, 3, 4, 5, 6, 7, 9]) / 16
    y = np.array([0, 2, 1, 3, 2, 5, 4, 6]) / 16
    _, p, _ = wilcoxon(x, y, method="asymptotic")
    assert p == pytest.approx(sp(x, y, method="asymptotic").pvalue, abs=1e-15)
    assert p != pytest.approx(sp(x, y).pvalue, abs=1e-6)  # auto: exhaustive permutation test here


def test_an_experiment_needs_its_inputs():
    with pytest.raises(ValueError, match="qrels, runs and measures"):
        agreement(measures="AP")
