"""Tables a paper can take (issue #12 item 5): Markdown and LaTeX (booktabs), best in bold."""

from __future__ import annotations

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

from ir_measures_pres.engine.scores import Scores  # noqa: E402
from ir_measures_pres.meta._output import PaperTable, best  # noqa: E402
from ir_measures_pres.meta.discrimination import discriminative_power_from_scores  # noqa: E402
from ir_measures_pres.meta.sensitivity import sensitivity_from_scores  # noqa: E402


def test_best_marks_the_best_per_column_or_row_ties_included_nan_never():
    v = np.array([[0.5, 3.0], [0.7, 1.0], [0.7, np.nan]])
    assert best(v, [True, False], axis=0).tolist() == [[False, False], [True, True], [True, False]]
    assert best(v, [True, True, False], axis=1).tolist() == [[False, True], [False, True], [False, False]]


def test_markdown_and_latex_escape_and_bold():
    cells = pd.DataFrame({"R_norm": ["45%", "0.10 ± 0.01"]}, index=["a & b", "τ"])
    t = PaperTable(cells, np.array([[True], [False]]), "Caption with 5% and α", "x")
    md = t.markdown()
    assert "| a & b | **45%** |" in md and "| τ | 0.10 ± 0.01 |" in md
    tex = t.latex()
    for line in ("\\toprule", "\\midrule", "\\bottomrule", "\\begin{tabular}{lr}"):
        assert line in tex
    assert "x & R\\_norm \\\\" in tex
    assert "a \\& b & \\textbf{45\\%} \\\\" in tex
    assert "$\\tau$ & 0.10 $\\pm$ 0.01 \\\\" in tex
    assert "\\caption{Caption with 5\\% and $\\alpha$}" in tex


def _scores():
    rng = np.random.default_rng(1)
    values = rng.random((2, 5, 30)) * np.array([1.0, 0.3])[:, None, None]
    return Scores([f"r{i}" for i in range(5)], ["AP", "P@10"], [str(q) for q in range(30)], values)


def test_discriminative_power_table_as_sakai_prints_it():
    res = discriminative_power_from_scores(_scores(), B=100, seed=0, progress=False)
    t = res.paper_table()
    power = res.summary["discriminative_power"].to_numpy()
    assert list(t.cells.index) == ["AP", "P@10"]
    assert t.cells["discriminative power"].tolist() == [f"{100 * p:.1f}%" for p in power]
    k = int(np.argmax(np.round(100 * power, 1)))
    assert t.bold[k, 0]


def test_sensitivity_table_has_the_papers_rows_and_bolds_the_best():
    res = sensitivity_from_scores(_scores(), B=100, repeats=1, seed=0, progress=False)
    t = res.paper_table()
    assert list(t.cells.index) == ["absolute diff. required", "sensitivity"]
    assert list(t.cells.columns) == ["AP", "P@10"]
    sens = np.round(100 * res.summary["sensitivity"].to_numpy(), 1)
    assert t.bold[1].tolist() == (sens == sens.max()).tolist()
    assert "B = 100" in t.caption and "\\begin{table}" in t.latex()
