"""``ir_measures_pres curves`` and :func:`ir_measures_pres.stats.curves.curves` (issue #22,
docs/textbook.md): the chapter's worked example through the CSV, the histogram against
ir_measures' per-query values, pr11 against ir_measures' IPrec on TREC Robust 2003, and the plots
(their files and matplotlib artists, not pixels).
"""

from __future__ import annotations

import csv
import io
import math
import subprocess
import sys
from pathlib import Path

import ir_measures
import pytest
from conftest import needs_shared, shared_path

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.stats.curves import CURVE_COLUMNS, HISTOGRAM_COLUMNS, curves

DATA = Path(__file__).resolve().parent / "data" / "textbook"
QRELS = DATA / "qrels.txt"
RUN = DATA / "chapter.run"
REVERSED = DATA / "reversed.run"
ROBUST = shared_path("real", "trec-robust-2003")


def command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "curves", *map(str, args)], capture_output=True, text=True
    )


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def curve(kind: str, *runs: Path, depth: int = 15) -> list[float]:
    done = command(QRELS, *(runs or (RUN,)), "--kind", kind, "--depth", depth, "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = csv_rows(done.stdout)
    assert list(rows[0]) == list(CURVE_COLUMNS)
    assert {r["run"] for r in rows} == {p.name for p in (runs or (RUN,))}
    return [float(r["value"]) for r in rows if r["run"] == RUN.name]


# --------------------------------------------------------------------------------------------
# the worked example (the contract's §3)
# --------------------------------------------------------------------------------------------

# interpolated precision at the 11 levels, from the rankings by hand: q1 finds its 10 relevant
# documents' first five at ranks 1, 3, 6, 10, 15 (recall 0.1 ... 0.5), q2 its 3 at ranks 3, 8, 15.
# trec_eval's iprec_at_recall (what ir_measures' IPrec runs) turns a level into a number of
# relevant documents as (long) (level * num_rel + 0.9): for q2 at 0.7 that is (long) 2.9999... = 2,
# so q2's 70 % point is the precision at its 2nd relevant document (2/8), where the chapter's
# "maximum precision at any recall >= 0.7" takes its 3rd (3/15): the one point where the two
# differ (docs/textbook.md)
Q1_IPREC = [1, 1, 2 / 3, 3 / 6, 4 / 10, 5 / 15, 0, 0, 0, 0, 0]
Q2_IPREC = [1 / 3] * 4 + [2 / 8] * 4 + [3 / 15] * 3
Q2_CHAPTER = [1 / 3] * 4 + [2 / 8] * 3 + [3 / 15] * 4
#: the chapter's averaged table, in %, from truncated per-query values (exactly 50.0 at 20 %)
PRINTED_PR11 = [66.6, 66.6, 49.9, 41.6, 32.5, 29.1, 12.5, 10, 10, 10, 10]


def test_trec_eval_rounds_the_relevant_count_of_a_level() -> None:
    # the cut-off counts of q2 (3 relevant documents) per level, as trec_eval computes them
    assert [int(level / 10 * 3 + 0.9) for level in range(11)] == [0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]
    # and the chapter's rule, the least count whose recall reaches the level
    assert [math.ceil(round(level / 10 * 3, 9)) for level in range(11)] == [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3]


def test_pr11_of_the_example() -> None:
    values = curve("pr11")
    expected = [(a + b) / 2 for a, b in zip(Q1_IPREC, Q2_IPREC)]
    assert values == pytest.approx(expected, abs=1e-12)
    chapter = [(a + b) / 2 for a, b in zip(Q1_IPREC, Q2_CHAPTER)]
    for level, (got, book, printed) in enumerate(zip(values, chapter, PRINTED_PR11)):
        assert abs(100 * book - printed) < 0.11, (level, book, printed)  # the chapter's arithmetic
        if level != 7:  # within the chapter's truncation, except trec_eval's 70 % (see above)
            assert abs(100 * got - printed) < 0.11, (level, got, printed)
    assert values[2] == 0.5
    assert values[7] == pytest.approx((0 + 2 / 8) / 2)  # trec_eval: 12.5 %, the chapter 10 %


G1 = [1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 3]
G2 = [0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3]
I1 = [3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0]  # the ideal rankings' gains
I2 = [3, 2, 1] + [0] * 12
CG_BAR = [0.5, 0.5, 2.0, 2.0, 2.0, 3.5, 3.5, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0, 8.0]
DCG_BAR = [0.5, 0.5, 1.4, 1.4, 1.4, 2.0, 2.0, 2.1, 2.1, 2.4, 2.4, 2.4, 2.4, 2.4, 3.2]  # truncated


def _running(gains: list[float], log: bool) -> list[float]:
    out, total = [], 0.0
    for i, g in enumerate(gains, 1):
        total += g / (max(1.0, math.log2(i)) if log else 1.0)
        out.append(total)
    return out


def _mean(a: list[float], b: list[float]) -> list[float]:
    return [(x + y) / 2 for x, y in zip(a, b)]


def test_cg_and_dcg_curves_of_the_example() -> None:
    assert curve("cg") == pytest.approx(CG_BAR, abs=1e-12)
    dcg = curve("dcg")
    assert dcg == pytest.approx(_mean(_running(G1, True), _running(G2, True)), abs=1e-12)
    for got, printed in zip(dcg, DCG_BAR):
        assert printed <= got < printed + 0.1


def test_normalised_curves_divide_the_averaged_curves() -> None:
    for kind, log in (("ncg", False), ("ndcg", True)):
        mean = _mean(_running(G1, log), _running(G2, log))
        ideal = _mean(_running(I1, log), _running(I2, log))
        assert curve(kind) == pytest.approx([m / i for m, i in zip(mean, ideal)], abs=1e-12)


def test_depth_and_log_base() -> None:
    assert len(curve("cg", depth=4)) == 4
    done = command(QRELS, RUN, "--kind", "dcg", "--logb", "3", "--depth", "6", "--format", "csv")
    values = [float(r["value"]) for r in csv_rows(done.stdout)]
    expected = _mean(
        *[[sum(g[j] / max(1.0, math.log(j + 1, 3)) for j in range(i)) for i in range(1, 7)] for g in (G1, G2)]
    )
    assert values == pytest.approx(expected, abs=1e-12)


def test_the_histogram_is_the_per_query_difference() -> None:
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    for measure in ("Rprec", "AP", "P@5"):
        done = command(QRELS, RUN, REVERSED, "--kind", "histogram", "-m", measure, "--format", "csv")
        assert done.returncode == 0, done.stderr
        rows = csv_rows(done.stdout)
        assert list(rows[0]) == list(HISTOGRAM_COLUMNS)
        m = ir_measures.parse_measure(measure)
        a = {
            x.query_id: x.value
            for x in ir_measures.iter_calc([m], qrels, ir_measures.read_trec_run(str(RUN)))
        }
        b = {
            x.query_id: x.value
            for x in ir_measures.iter_calc([m], qrels, ir_measures.read_trec_run(str(REVERSED)))
        }
        assert [r["query"] for r in rows] == ["q1", "q2"]
        for r in rows:
            assert (r["run_a"], r["run_b"]) == ("chapter.run", "reversed.run")
            assert float(r["value_a"]) == pytest.approx(a[r["query"]], abs=1e-12)
            assert float(r["value_b"]) == pytest.approx(b[r["query"]], abs=1e-12)
            assert float(r["difference"]) == pytest.approx(a[r["query"]] - b[r["query"]], abs=1e-12)
    # the chapter's R-precision: q1 0.4 (chapter) against 0.3 (reversed: d3, d25, d9 in its top 10)
    rows = csv_rows(
        command(QRELS, RUN, REVERSED, "--kind", "histogram", "-m", "Rprec", "--format", "csv").stdout
    )
    assert float(rows[0]["difference"]) == pytest.approx(0.4 - 0.3)


def test_text_markdown_and_latex_tables() -> None:
    text = command(QRELS, RUN, "--kind", "pr11").stdout
    assert text.splitlines()[0].split() == ["recall", "chapter.run"]
    assert text.splitlines()[3].split() == ["0.2", "0.5000"]
    md = command(QRELS, RUN, "--kind", "cg", "--depth", "15", "--format", "markdown").stdout
    assert md.splitlines()[0] == "| rank | chapter.run |" and "| 15 | 8.0000 |" in md
    tex = command(QRELS, RUN, REVERSED, "--kind", "histogram", "-m", "Rprec", "--format", "latex").stdout
    assert "\\toprule" in tex and "chapter.run & reversed.run & difference" in tex


def test_usage_and_input_errors() -> None:
    for args, status, words in (
        ((QRELS, RUN, "--kind", "histogram"), 2, "-m MEASURE"),
        ((QRELS, RUN, "--kind", "histogram", "-m", "AP"), 2, "two runs"),
        ((QRELS, RUN, "--kind", "pr11", "-m", "AP"), 2, "-m is for --kind histogram"),
        ((QRELS, RUN, REVERSED, "--kind", "histogram", "-m", "NoSuch"), 2, "unknown measure"),
        ((QRELS, RUN, "--plot", "figure.gif"), 2, ".png, .svg or .pdf"),
        ((QRELS, RUN, "--depth", "0"), 2, "--depth"),
        ((QRELS, RUN, "--logb", "1"), 2, "--logb"),
        ((QRELS, "missing.run"), 1, "missing.run"),
        (("missing.qrels", RUN), 1, "missing.qrels"),
    ):
        done = command(*args)
        assert done.returncode == status, (args, done.stderr)
        assert words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_python_api_returns_the_frame() -> None:
    res = curves(QRELS, [RUN], "cg", depth=15)
    assert list(res.frame.columns) == list(CURVE_COLUMNS)
    assert res.frame["value"].tolist() == pytest.approx(CG_BAR)
    with pytest.raises(ValueError, match="measure"):
        curves(QRELS, [RUN, REVERSED], "histogram")


# --------------------------------------------------------------------------------------------
# pr11 = the mean of ir_measures' IPrec@0.0 ... IPrec@1.0 (TREC Robust 2003)
# --------------------------------------------------------------------------------------------


@needs_shared("real", "trec-robust-2003")
def test_pr11_equals_ir_measures_iprec_on_robust_2003() -> None:
    runs = sorted((ROBUST / "runs").iterdir())[:4]
    qrels_path = ROBUST / "qrels" / "robust03_qrels.txt"
    res = curves(qrels_path, runs, "pr11")
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    measures = [ir_measures.IPrec @ round(i / 10, 1) for i in range(11)]
    for path in runs:
        expected = ir_measures.calc_aggregate(measures, qrels, ir_measures.read_trec_run(str(path)))
        got = res.frame[res.frame["run"] == path.name.removesuffix(".gz")]["value"].tolist()
        assert got == pytest.approx([expected[m] for m in measures], abs=1e-12)


# --------------------------------------------------------------------------------------------
# plots
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pr11", "cg", "dcg", "ncg", "ndcg", "histogram"])
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_every_kind_plots_to_every_suffix(tmp_path: Path, kind: str, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / f"figure{suffix}"
    extra = ["-m", "Rprec"] if kind == "histogram" else ["--depth", "15"]
    done = command(QRELS, RUN, REVERSED, "--kind", kind, *extra, "--plot", out)
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    signature = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF", ".svg": b"<?xml"}[suffix]
    assert data.startswith(signature)
    if suffix == ".svg":  # the text is there as text
        text = data.decode("utf-8")
        for word in ("chapter.run", "reversed.run"):
            assert word in text


@pytest.mark.parametrize("kind", ["pr11", "cg", "dcg", "ncg", "ndcg"])
def test_a_curve_plot_carries_its_runs_and_axes(kind: str) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = curves(QRELS, [RUN, REVERSED], kind, depth=15)
    fig = res.plot()
    ax = fig.axes[0]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["chapter.run", "reversed.run"]
    assert ax.get_xlabel() == ("recall" if kind == "pr11" else "rank")
    assert ax.get_ylabel() and fig._suptitle.get_text()
    lines = [line for line in ax.get_lines() if line.get_label() in ("chapter.run", "reversed.run")]
    assert len(lines) == 2
    assert list(lines[0].get_ydata()) == pytest.approx(
        res.frame[res.frame["run"] == "chapter.run"]["value"].tolist()
    )
    plt.close(fig)


def test_the_histogram_plot_sorts_its_bars_and_names_the_measure() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = curves(QRELS, [REVERSED, RUN], "histogram", measure="Rprec")  # q1: -0.1, q2: 0
    fig = res.plot()
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == sorted(heights, reverse=True) and heights[-1] == pytest.approx(-0.1)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["q2", "q1"]
    assert (
        "Rprec" in ax.get_ylabel() and "reversed.run" in ax.get_ylabel() and "chapter.run" in ax.get_ylabel()
    )
    low, high = ax.get_ylim()
    assert low < 0 < high or low < -0.1
    assert any(list(line.get_ydata()) == [0.0, 0.0] for line in ax.get_lines())  # the zero line
    plt.close(fig)


@needs_shared("real", "trec-robust-2003")
@pytest.mark.parametrize("kind", ["cg", "dcg"])
def test_gain_curves_equal_the_measures_on_robust_2003(kind: str) -> None:
    """One truth: the curve's point i is the mean of ``CG@i`` / ``DCG@i`` as ir_measures
    computes them (through this package's provider), every qrels topic counted."""
    from ir_measures_pres.measures.textbook.measures import CG, DCG

    runs = sorted((ROBUST / "runs").iterdir())[:2]
    qrels_path = ROBUST / "qrels" / "robust03_qrels.txt"
    res = curves(qrels_path, runs, kind, depth=30, logb=3.0)
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    measures = [(CG @ i) if kind == "cg" else (DCG(logb=3.0) @ i) for i in range(1, 31)]
    for path in runs:
        means = ir_measures.calc_aggregate(measures, qrels, ir_measures.read_trec_run(str(path)))
        got = res.frame[res.frame["run"] == path.name.removesuffix(".gz")]["value"].tolist()
        assert got == pytest.approx([means[m] for m in measures], abs=1e-12)
