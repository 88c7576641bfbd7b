"""Every measure declares its direction (ir_measures_pres.measures.direction), and every surface
that says "better" or "best" asks it: compare's best mark and significance marks, its legend and
caption, its plots, the histogram plot and the meta-evaluation's agreement.

Expected values: the direction each measure's own docstring states ("lower is better"), and means
worked out by hand in the tests from runs built for them.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres.measures.direction import (
    DIRECTIONS,
    STANDARD,
    direction_of,
    direction_of_name,
)
from ir_measures_pres.measures.entry import HIGHER, LOWER, NEITHER
from ir_measures_pres.measures.table import MEASURES

# ---------------------------------------------------------------------------------------------
# the catalogue: one direction per measure
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", MEASURES, ids=lambda e: e.measure.NAME)
def test_every_entry_declares_a_direction(entry):
    assert direction_of(entry.measure) in DIRECTIONS


def test_every_measure_ir_measures_accepts_has_a_direction_of_its_own():
    """Each registered name: ours through the entry, the standard ones listed in STANDARD by
    name (no default fills a gap), and STANDARD names nothing ir_measures lacks."""
    import ir_measures

    ours = {e.measure.NAME for e in MEASURES}
    standard = {m.NAME for m in ir_measures.measures.registry.values() if m.NAME not in ours}
    assert standard == set(STANDARD)
    for name, measure in ir_measures.measures.registry.items():
        assert direction_of(measure) in DIRECTIONS, name


@pytest.mark.parametrize("entry", MEASURES, ids=lambda e: e.measure.NAME)
def test_lower_is_better_exactly_where_the_docstring_says_so(entry):
    doc = " ".join((entry.measure.__doc__ or "").split())
    says_lower = re.search(r"lower is better", doc, re.IGNORECASE) is not None
    assert (direction_of(entry.measure) == LOWER) == says_lower


@pytest.mark.parametrize(
    "name, direction",
    [
        ("E@10", LOWER),
        ("unj@100", LOWER),
        ("unj_10", LOWER),  # trec_eval 10's own name
        ("rbp_resid", LOWER),
        ("TarLoss", LOWER),
        ("loss_er", LOWER),
        ("LastRel", LOWER),
        ("TarCost(penalty='uniform')", LOWER),
        ("TarUtility", LOWER),
        ("WSS", HIGHER),
        ("AP", HIGHER),
        ("map", HIGHER),
        ("Judged@10", HIGHER),  # the mirror of unj
        ("yaap", HIGHER),
        ("NumRet", NEITHER),
        ("num_ret", NEITHER),
        ("NumRet(rel=1)", HIGHER),  # trec_eval's num_rel_ret
        ("num_rel_ret", HIGHER),
        ("NumShown", NEITHER),
        ("NumShown(rel=1)", HIGHER),  # the TAR tools' rels_found
        ("NumCandidates", NEITHER),
        ("Threshold", NEITHER),
        ("NumQ", NEITHER),
        ("P", NEITHER),  # several measures (trec_eval's cutoffs): no one direction
        ("no_such_measure", NEITHER),
    ],
)
def test_direction_of_a_name(name, direction):
    assert direction_of_name(name) == direction


# ---------------------------------------------------------------------------------------------
# compare: two runs over 6 topics, 3 relevant documents each (d0, d1, d2)
#   A ranks d0 d1 d2 x:    unj@4 = 1/4, unj@100 = 1/100, E@4 = 1 - F(P 3/4, R 1) = 1 - 6/7 = 1/7,
#                          last_rel 3
#   B ranks d0 u1 u2 d1:   unj@4 = 2/4, unj@100 = 2/100, E@4 = 1 - F(P 2/4, R 2/3) = 1 - 4/7 = 3/7,
#                          last_rel 4
# every topic the same: A is better on all three, each difference constant (t-test p = 0)
# ---------------------------------------------------------------------------------------------


def _needs_stats():
    for module in ("pandas", "scipy", "statsmodels"):
        pytest.importorskip(module)


def _runs():
    _needs_stats()
    qrels = {f"q{i}": {f"d{j}": 1 for j in range(3)} for i in range(6)}
    a = {q: {"d0": 4.0, "d1": 3.0, "d2": 2.0, f"x{q}": 1.0} for q in qrels}
    b = {q: {"d0": 4.0, f"u1{q}": 3.0, f"u2{q}": 2.0, "d1": 1.0} for q in qrels}
    return qrels, {"A": a, "B": b}


def _cells(text):
    """The table of means of a text table: {run: [cells]}."""
    rows = text.split("\n\n")[0].splitlines()[2:]
    return {r.split()[1]: re.split(r"\s{2,}", r.strip())[2:] for r in rows}


def test_compare_marks_the_run_with_fewer_unjudged_and_lower_loss_best_and_better():
    from ir_measures_pres import compare

    qrels, runs = _runs()
    res = compare(qrels, runs, "unj@4 unj@100 E@4 LastRel AP", progress=False)
    assert res.means["unj@4"] == pytest.approx({"A": 1 / 4, "B": 2 / 4})
    assert res.means["unj@100"] == pytest.approx({"A": 1 / 100, "B": 2 / 100})
    assert res.means["E@4"] == pytest.approx({"A": 1 / 7, "B": 3 / 7})
    assert res.means["LastRel"] == pytest.approx({"A": 3.0, "B": 4.0})
    assert res.means["AP"] == pytest.approx({"A": 1.0, "B": (1 + 2 / 4) / 3})
    cells = _cells(res.to_text())
    # A is best (*) and significantly better than run 2 ([2]) on every measure; B never
    assert cells["A"] == ["0.2500* [2]", "0.0100* [2]", "0.1429* [2]", "3.0000* [2]", "1.0000* [2]"]
    assert cells["B"] == ["0.5000", "0.0200", "0.4286", "4.0000", "0.5000"]
    assert "lower is better for unj@4, unj@100, E@4, LastRel" in res.to_text()
    tex = res.to_latex()
    assert "\\textbf{0.2500}$^{2}$" in tex and "\\underline{0.5000} &" in tex
    assert "lower is better for unj@4, unj@100, E@4, LastRel" in tex.split("\\caption{")[1]
    md = res.to_markdown()
    assert (
        "| 1 | A | **0.2500** [2] | **0.0100** [2] | **0.1429** [2] | **3.0000** [2] | **1.0000** [2] |" in md
    )


def test_compare_with_a_baseline_says_better_for_a_lower_value():
    from ir_measures_pres import compare

    qrels, runs = _runs()
    res = compare(qrels, runs, "unj@4 AP", baseline="B", progress=False)
    cells = _cells(res.to_text())
    assert cells["A"] == ["0.2500* ▲", "1.0000* ▲"]  # A better than the baseline on both
    assert "▲/▼: significantly better/worse than the baseline B" in res.to_text()
    assert "$^{\\dagger}$" in res.to_latex() and "$^{\\ddagger}$" not in res.to_latex()
    # the long table stays what it was: delta = mean_b - mean_a, whatever the direction
    row = res.pairs.set_index("measure").loc["unj@4"]
    assert (row.run_a, row.run_b) == ("B", "A") and row.delta == pytest.approx(-1 / 4)


def test_a_measure_of_neither_direction_has_no_best():
    from ir_measures_pres import compare

    qrels, runs = _runs()
    runs["B"] = {q: dict(list(r.items())[:3]) for q, r in runs["B"].items()}  # B retrieves 3
    res = compare(qrels, runs, "NumRet", progress=False)
    cells = _cells(res.to_text())
    # NumRet is a count: its one number is the sum over the 6 topics (A retrieves 4 documents on
    # each, 24; B 3, 18), as calc_aggregate gives it; significantly higher, no best mark
    assert cells == {"A": ["24.0000 [2]"], "B": ["18.0000"]}
    assert "NumRet: no direction, no best, marks say higher" in res.to_text()
    assert "\\textbf" not in res.to_latex() and "\\underline" not in res.to_latex()


def test_compare_scores_reads_directions_from_the_labels_or_is_told():
    _needs_stats()
    from ir_measures_pres.stats.comparison import compare_scores

    table = {
        "A": {"unj_10": {"1": 0.1, "2": 0.2, "3": 0.1}, "loss": {"1": 0.1, "2": 0.2, "3": 0.1}},
        "B": {"unj_10": {"1": 0.3, "2": 0.4, "3": 0.3}, "loss": {"1": 0.3, "2": 0.4, "3": 0.3}},
    }
    res = compare_scores(table)
    assert res.directions == {"unj_10": LOWER, "loss": NEITHER}
    cells = _cells(res.to_text())
    # unj_10: A is best and better; loss (no direction): no best, B significantly higher
    assert cells == {"A": ["0.1333* [2]", "0.1333"], "B": ["0.3333", "0.3333 [1]"]}
    told = compare_scores(table, directions={"loss": LOWER})
    assert _cells(told.to_text())["A"] == ["0.1333* [2]", "0.1333* [2]"]
    assert '"directions": {\n   "unj_10": "lower",\n   "loss": "lower"' in told.to_json()
    with pytest.raises(ValueError, match="direction"):
        compare_scores(table, directions={"loss": "down"})


def test_the_command_line_marks_the_run_with_fewer_unjudged(tmp_path, capsys):
    from ir_measures_pres.cli.evaluate import main

    qrels, runs = _runs()
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 {d} {v}\n" for q, docs in qrels.items() for d, v in docs.items())
    )
    for name, run in runs.items():
        lines = [f"{q} Q0 {d} 0 {s} {name}\n" for q, docs in run.items() for d, s in docs.items()]
        (tmp_path / name).write_text("".join(lines))
    code = main(["compare", str(tmp_path / "qrels"), str(tmp_path / "A"), str(tmp_path / "B")]
                + ["-m", "unj@4", "loss_er", "-q"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    # loss_er = loss_r + loss_e, loss_r = (1 - found/R)^2, loss_e = (b/N')^2 (n/(R + b))^2 with
    # b = 100, n = 4 lines shown, R = 3, N' = max(N = 3 candidates, n) = 4: loss_e = 10000/10609
    # for both; A finds all 3 (loss_r 0), B 2 of 3 (loss_r 1/9)
    loss_e = (100 / 4) ** 2 * (4 / 103) ** 2
    cells = _cells(out)
    assert cells["A"] == ["0.2500* [2]", f"{loss_e:.4f}* [2]"]
    assert cells["B"] == ["0.5000", f"{loss_e + 1 / 9:.4f}"]


# ---------------------------------------------------------------------------------------------
# agreement and the plots
# ---------------------------------------------------------------------------------------------


def test_agreement_takes_fewer_unjudged_as_better():
    """unj@10 falls where AP rises: the two rank the runs alike (tau = +1) and agree on every
    pair; before, tau was -1 and every pair an "opposite"."""
    _needs_stats()
    from ir_measures_pres.meta import Scores, agreement_from_scores

    d = np.arange(1, 11) / 64
    y = np.array([4, 5, 6, 2, 1, 4, 3, 6, 1, 5]) / 8
    ap = np.stack([y + 2 * d, y + d, y])  # X > Y > Z on every topic
    unj = np.stack([1 - y - 2 * d, 1 - y - d, 1 - y])  # X < Y < Z
    scores = Scores(["X", "Y", "Z"], ["AP", "unj@10"], [f"t{i}" for i in range(10)], np.stack([ap, unj]))
    res = agreement_from_scores(scores, progress=False)
    assert res.tau["tau"].tolist() == pytest.approx([1.0])
    outcome = res.pairs.set_index(["run_a", "run_b", "measure"])["outcome"]
    assert outcome[("X", "Y", "unj@10")] == "first better" == outcome[("X", "Y", "AP")]
    assert res.counts[["agree", "opposite"]].values.tolist() == [[3, 0]]


def test_plots_colour_better_green_for_a_lower_is_better_measure():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from ir_measures_pres import compare

    qrels, runs = _runs()
    res = compare(qrels, runs, "unj@4 AP", baseline="B", progress=False)
    (fig,) = res.plot_pages("forest")
    for ax, title in zip(fig.axes, ["unj@4 (lower is better)", "AP"]):
        assert ax.get_title() == title
        (points,) = ax.collections[1:2]
        assert tuple(points.get_facecolors()[0]) == to_rgba("tab:green")  # A - B: A better
    plt.close(fig)
    fig = res.plot("matrix")
    grids = [ax.images[0].get_array() for ax in fig.axes if ax.images]
    for grid in grids:  # row A (run 1) significantly better than column B (run 2): +1
        assert grid[0, 1] == 1 and grid[1, 0] == -1
    plt.close(fig)


def test_histogram_says_which_side_is_better():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.colors import to_rgba

    from ir_measures_pres.plots.curves import plot_curves
    from ir_measures_pres.stats.curves import Curves

    frame = pd.DataFrame(
        {"kind": "histogram", "query": ["1", "2"], "run_a": "A", "run_b": "B"}
        | {"value_a": [0.1, 0.5], "value_b": [0.3, 0.2], "difference": [-0.2, 0.3]}
    )
    for measure, title, first in (
        ("unj@10", "below 0, A is better", "tab:red"),
        ("AP", "above 0, A is better", "tab:green"),
        ("NumRet", "above 0, A is higher", "tab:green"),
    ):
        res = Curves("histogram", frame, ["A", "B"], measure=measure)
        fig = plot_curves(res)
        assert title in fig._suptitle.get_text().replace("\n", " ")
        bars = fig.axes[0].patches  # sorted by difference: +0.3 first
        assert tuple(bars[0].get_facecolor()) == to_rgba(first)
        plt.close(fig)
