"""compare's plots stay readable at any number of runs (issue #20, item 14): checked on the
figure's artists and files, not on pixels. With 3-4 runs the matrix's panel titles overlapped
and it had no colour legend; the all-pairs forest plot of 17 runs was one 1885 x 7266 px strip
with its caption drawn over the panels."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("scipy")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ir_measures_pres.engine.scores import Scores  # noqa: E402
from ir_measures_pres.plots.compare import ROWS_PER_PAGE  # noqa: E402
from ir_measures_pres.stats.comparison import compare_scores  # noqa: E402


def _comparison(runs: int, measures: int, baseline=None):
    """A comparison of ``runs`` synthetic runs on 30 topics (run i scores about i/10 higher)."""
    rng = np.random.default_rng(7)
    names = [f"run-number-{i:02d}" for i in range(runs)]
    labels = ["AP", "nDCG@10", "P@10", "R@1000", "PRES@1000"][:measures]
    values = np.clip(rng.random((measures, runs, 30)) * 0.5 + np.arange(runs)[None, :, None] / 10, 0, 1)
    return compare_scores(Scores(names, labels, [f"q{i}" for i in range(30)], values), baseline=baseline)


def _boxes(fig, artists):
    renderer = fig.canvas.get_renderer()
    return [a.get_window_extent(renderer) for a in artists]


def _overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("runs,measures", [(3, 4), (4, 4), (4, 2), (17, 3)])
def test_matrix_titles_do_not_overlap_and_the_colours_have_a_legend(runs, measures):
    fig = _comparison(runs, measures).plot("matrix")
    fig.canvas.draw()
    axes = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in axes] == ["AP", "nDCG@10", "P@10", "R@1000", "PRES@1000"][:measures]
    titles = _boxes(fig, [ax.title for ax in axes])
    assert not any(_overlap(a, b) for a, b in combinations(titles, 2))
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == [
        "row significantly better than column",
        "no significant difference",
        "row significantly worse",
        "not compared",
    ]
    # the caption is above every panel, not over one
    caption = _boxes(fig, [fig._suptitle])[0]
    assert all(caption.y0 >= box.y1 for box in _boxes(fig, axes))
    plt.close(fig)


def test_forest_of_all_pairs_of_17_runs_is_pages_of_a_few_inches():
    res = _comparison(17, 3)
    pages = res.plot_pages("forest")
    assert len(pages) == 16  # one page per first run of the pairs: 16 + 15 + ... + 1 = 136 pairs
    rows = [len(p.axes[0].get_yticks()) for p in pages]
    assert rows == list(range(16, 0, -1)) and sum(rows) == 136
    for page in pages:
        width, height = page.get_size_inches()
        assert height <= 0.28 * ROWS_PER_PAGE + 2.4 and width < 14
        page.canvas.draw()
        caption = _boxes(page, [page._suptitle])[0]
        assert all(caption.y0 >= box.y1 for box in _boxes(page, page.axes))  # above the panels
        (legend,) = page.legends
        assert [t.get_text() for t in legend.get_texts()] == [
            "significantly better",
            "significantly worse",
            "not significant",
        ]
        plt.close(page)
    assert "Page 2 of 16: the pairs of run-number-01." in pages[1]._suptitle.get_text().replace("\n", " ")


def test_forest_pages_are_written_as_files_and_as_one_pdf(tmp_path: Path):
    res = _comparison(4, 2, baseline=["run-number-00", "run-number-01"])
    written = res.save(tmp_path, plot="forest")
    pngs = sorted(p.name for p in written if p.suffix == ".png")
    assert pngs == ["comparison_forest.png", "comparison_forest_2.png"]  # one page per baseline
    assert all((tmp_path / n).read_bytes()[:4] == b"\x89PNG" for n in pngs)
    res.plot_pages("forest", tmp_path / "all.pdf")
    pdf = (tmp_path / "all.pdf").read_bytes()
    assert pdf[:4] == b"%PDF" and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2  # both pages, one file
