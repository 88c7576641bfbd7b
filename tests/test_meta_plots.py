"""Plots a paper can take (issue #12 item 6): robustness plot with f = 1, labelled reference
lines, one column wide, 20 distinguishable curves, error bars from the samples' spread."""

from __future__ import annotations

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

from ir_measures_pres.engine.scores import Scores  # noqa: E402
from ir_measures_pres.meta.sensitivity import sensitivity_from_scores  # noqa: E402
from ir_measures_pres.plots.meta import line_style, plot_robustness, plot_swap_rates  # noqa: E402


class _Result:
    def __init__(self, summary):
        self.summary = summary


def _summary(n_measures=20, cutoff=None):
    rows = []
    for k in range(n_measures):
        for f in (0.2, 0.4, 0.6, 0.8):
            rows.append(
                dict(
                    measure=f"M{k}",
                    base=f"M{k}",
                    cutoff=cutoff,
                    fraction=f,
                    min_tau=0.5 + 0.4 * f + 0.001 * k,
                    mean_tau=0.6 + 0.4 * f,
                    max_tau=0.7 + 0.3 * f,
                    sd_tau=0.05,
                    samples=3,
                )
            )
    df = pd.DataFrame(rows)
    df["cutoff"] = df["cutoff"].astype("Int64")
    return df


def test_twenty_curves_differ_in_more_than_colour():
    styles = [line_style(k) for k in range(20)]
    assert len(set(styles)) == 20
    assert len({(m, ls) for _, m, ls in styles}) == 20  # distinguishable in grey


def test_robustness_plot_fits_a_column_ends_at_f_1_and_labels_the_lines(tmp_path):
    fig = plot_robustness(_Result(_summary()), str(tmp_path / "r.png"), by_cutoff=False)
    w, h = fig.get_size_inches()
    assert w <= 3.5 and w / h <= 2.0  # 8.9 cm wide at most, aspect <= 2:1
    ax = fig.axes[0]
    bars = [c for c in ax.containers if c.get_label().startswith("M")]  # errorbar containers
    assert len(bars) == 20
    lines = [c.lines[0] for c in bars]
    for line in lines:
        x, y = line.get_data()
        assert x[-1] == 100.0 and y[-1] == 1.0  # the full qrels
    assert len({(line.get_marker(), line.get_linestyle()) for line in lines}) == 20
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "0.9" in texts and "0.8" in texts
    # error bars: one collection per curve, spanning min to max over the samples
    assert len(ax.collections) >= 20
    assert (tmp_path / "r.png").stat().st_size > 0


def test_swap_rate_plot_labels_the_maximum_rate(tmp_path):
    rng = np.random.default_rng(0)
    sc = Scores(
        [f"r{i}" for i in range(4)], ["AP", "P@10"], [str(q) for q in range(20)], rng.random((2, 4, 20))
    )
    res = sensitivity_from_scores(sc, B=50, repeats=2, seed=0, progress=False)
    fig = plot_swap_rates(res, str(tmp_path / "s.svg"))
    assert fig.get_size_inches()[0] <= 3.5
    assert any("5% swaps" in t.get_text() for t in fig.axes[0].texts)
