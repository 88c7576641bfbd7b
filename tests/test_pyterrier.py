"""PyTerrier with the real ``pyterrier`` package: measure objects and strings in ``pt.Experiment`` and
``pt.Evaluate``, significance tests, the ``pyterrier.modules`` hook, and the ``ir_measures.provider``
entry point of ir_measures versions that discover plugins.

Systems are precomputed result frames (qid, docno, score, rank), so no Java is needed. Expected
values come from outside PyTerrier: worked examples by hand (Sakai's Q-measure example, the PRES
paper's Table 2), ``ir_measures.calc_aggregate`` / ``iter_calc`` on the same frames renamed,
pytrec_eval for the trec_eval measures, ``scipy.stats`` for the tests and Holm's step-down
written out for the correction.

The file runs without pyterrier (those tests skip), except in CI (``CI`` set), which installs the
``pyterrier`` extra: there a missing pyterrier fails loudly.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import ir_measures
import numpy as np
import pytest
import pytrec_eval

import ir_measures_pres
from ir_measures_pres import PRES, QMeasure
from ir_measures_pres.measures.trec_eval import parse_names as _trec_names

_trec_names.install()  # the lead wires this into register(); calling it again is a no-op

pd = pytest.importorskip("pandas")

REPO = Path(__file__).resolve().parents[1]


def _require(module: str) -> Any:
    """Import ``module``; skip when it is missing, except in CI, which installs the extra."""
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module)


@pytest.fixture(scope="module")
def pt() -> Any:
    return _require("pyterrier")


# ---------------------------------------------------------------------------------------------
# frames


def result_frame(rows: list[tuple[str, str, float]]) -> pd.DataFrame:
    """A PyTerrier result frame from (qid, docno, score) rows, with 0-based ranks per query."""
    df = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    df = df.sort_values(["qid", "score", "docno"], ascending=[True, False, False], kind="stable")
    df["rank"] = df.groupby("qid").cumcount()
    return df.reset_index(drop=True)


def qrels_frame(rows: list[tuple[str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["qid", "docno", "label"])


def topics_for(qrels: pd.DataFrame) -> pd.DataFrame:
    qids = sorted(qrels.qid.unique())
    return pd.DataFrame({"qid": qids, "query": [f"query {q}" for q in qids]})


def hand_collection() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Two queries, two systems X and Y, small enough to score by hand.

    q1 is Sakai's Q-measure example: one S (level 3), one A (2), one B (1) relevant document, plus
    a judged non-relevant n. X ranks B then S; Y ranks n then S.
    q2 has four relevant documents (PRES paper, Table 2, N_max = 100): X finds only r1, at rank 1,
    among 100 retrieved; Y ranks all four first.
    """
    qrels = qrels_frame(
        [("q1", "s", 3), ("q1", "a", 2), ("q1", "b", 1), ("q1", "n", 0)]
        + [("q2", f"r{i}", 1) for i in range(1, 5)]
    )
    x = result_frame(
        [("q1", "b", 2.0), ("q1", "s", 1.0), ("q2", "r1", 200.0)]
        + [("q2", f"u{i:02d}", 100.0 - i) for i in range(99)]
    )
    y = result_frame([("q1", "n", 2.0), ("q1", "s", 1.0)] + [("q2", f"r{i}", 10.0 - i) for i in range(1, 5)])
    return qrels, x, y


#: X and Y on the hand collection, per query: q1, q2
HAND = {
    # Sakai: Q(X) = 19/42, Q(Y) = 4/21. q2: X has BR(1) = 1 for one of R = 4 -> 1/4; Y -> 1.
    "QMeasure": {"X": (19 / 42, 1 / 4), "Y": (4 / 21, 1.0)},
    # PRES@100 = 1 - [sum_j (r_j - j) + m N] / (n N). q1 (n = 3): X finds b@1, s@2, a missing
    # -> 1 - 100/300; Y finds s@2 -> 1 - (1 + 200)/300. q2 (n = 4): Table 2 -> 0.25 and 1.0.
    "PRES@100": {"X": (1 - 100 / 300, 0.25), "Y": (1 - 201 / 300, 1.0)},
    # AP: q1 X (1/1 + 2/2)/3, Y (1/2)/3; q2 X 1/4, Y 1.
    "map": {"X": (2 / 3, 1 / 4), "Y": (1 / 6, 1.0)},
}


def random_collection(seed: int = 11, n_queries: int = 14, n_systems: int = 3):
    """Graded qrels with unjudged documents and score ties; system s leans towards relevance
    with weight s, so the systems differ and significance tests have something to find."""
    rng = np.random.default_rng(seed)
    qrels_rows, runs = [], [[] for _ in range(n_systems)]
    for q in range(n_queries):
        qid = f"q{q:02d}"
        docs = [f"d{q:02d}_{i:02d}" for i in range(40)]
        judged = rng.choice(40, size=18, replace=False)
        labels = dict(zip(judged.tolist(), rng.choice([0, 0, 0, 1, 1, 2, 3], size=18).tolist()))
        qrels_rows += [(qid, docs[i], int(lab)) for i, lab in labels.items()]
        for s in range(n_systems):
            picked = rng.choice(40, size=25, replace=False)
            for i in picked.tolist():
                score = float(rng.integers(0, 6)) + s * max(labels.get(i, 0), 0)  # integers: ties
                runs[s].append((qid, docs[i], score))
    return qrels_frame(qrels_rows), [result_frame(r) for r in runs]


def as_ir_measures(qrels: pd.DataFrame, run: pd.DataFrame):
    return (
        qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"}),
        run.rename(columns={"qid": "query_id", "docno": "doc_id"})[["query_id", "doc_id", "score"]],
    )


def per_query(measure: Any, qrels: pd.DataFrame, run: pd.DataFrame) -> dict[str, float]:
    """ir_measures' per-query values, outside PyTerrier."""
    q, r = as_ir_measures(qrels, run)
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], q, r)}


def trec_eval_values(qrels: pd.DataFrame, run: pd.DataFrame, measure: str, key: str) -> dict[str, float]:
    """pytrec_eval's per-query values of a trec_eval measure."""
    qd: dict[str, dict[str, int]] = {}
    for qid, doc, lab in qrels.itertuples(index=False):
        qd.setdefault(qid, {})[doc] = int(lab)
    rd: dict[str, dict[str, float]] = {}
    for qid, doc, score in run[["qid", "docno", "score"]].itertuples(index=False):
        rd.setdefault(qid, {})[doc] = float(score)
    out = pytrec_eval.RelevanceEvaluator(qd, {measure}).evaluate(rd)
    return {qid: vals[key] for qid, vals in out.items()}


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, written out."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    m, running, adjusted = len(pvalues), 0.0, [0.0] * len(pvalues)
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * pvalues[i]))
        adjusted[i] = running
    return adjusted


# ---------------------------------------------------------------------------------------------
# pt.Experiment and pt.Evaluate


def test_experiment_hand_example_objects_and_strings(pt: Any) -> None:
    qrels, x, y = hand_collection()
    for metrics in ([PRES @ 100, QMeasure, "map"], ["PRES@100", "QMeasure", "map"]):
        table = pt.Experiment([x, y], topics_for(qrels), qrels, metrics, names=["X", "Y"])
        table = table.set_index("name")
        assert sorted(table.columns) == sorted(HAND)
        for measure, by_system in HAND.items():
            for system, values in by_system.items():
                assert table.loc[system, measure] == pytest.approx(np.mean(values), abs=1e-12)


def test_experiment_mixed_metrics_match_ir_measures_and_pytrec_eval(pt: Any) -> None:
    qrels, runs = random_collection()
    metrics = [PRES @ 50, QMeasure, "PRES@1000", "QMeasure(beta=0.5)@10", "Bpref10", "map", "ndcg_cut_10"]
    table = pt.Experiment(runs, topics_for(qrels), qrels, metrics, names=["A", "B", "C"]).set_index("name")
    ours = {
        "PRES@50": PRES @ 50,
        "QMeasure": QMeasure,
        "PRES@1000": PRES @ 1000,
        "QMeasure(beta=0.5)@10": QMeasure(beta=0.5) @ 10,
        "Bpref10": ir_measures_pres.Bpref10,
    }
    assert sorted(table.columns) == sorted([*ours, "map", "ndcg_cut_10"])
    for name, run in zip("ABC", runs):
        q, r = as_ir_measures(qrels, run)
        expected = ir_measures.calc_aggregate(list(ours.values()), q, r)
        for column, measure in ours.items():
            assert table.loc[name, column] == pytest.approx(expected[measure], abs=1e-12)
        assert table.loc[name, "map"] == pytest.approx(
            np.mean(list(trec_eval_values(qrels, run, "map", "map").values())), abs=1e-12
        )
        assert table.loc[name, "ndcg_cut_10"] == pytest.approx(
            np.mean(list(trec_eval_values(qrels, run, "ndcg_cut.10", "ndcg_cut_10").values())), abs=1e-12
        )
    # the systems differ, so the comparison above is not between constants
    assert table["PRES@1000"].nunique() == 3 and table["QMeasure"].nunique() == 3


def test_experiment_perquery(pt: Any) -> None:
    qrels, runs = random_collection()
    long = pt.Experiment(
        runs[:2],
        topics_for(qrels),
        qrels,
        ["PRES@1000", QMeasure @ 10, "map"],
        names=["A", "B"],
        perquery=True,
    )
    assert list(long.columns) == ["name", "qid", "measure", "value"]
    assert set(long.measure) == {"PRES@1000", "QMeasure@10", "map"}
    got = {(n, q, m): v for n, q, m, v in long.itertuples(index=False)}
    assert len(got) == len(long) == 2 * 3 * qrels.qid.nunique()
    for name, run in zip("AB", runs):
        for display, measure in (("PRES@1000", PRES @ 1000), ("QMeasure@10", QMeasure @ 10)):
            for qid, value in per_query(measure, qrels, run).items():
                assert got[(name, qid, display)] == pytest.approx(value, abs=1e-12)
        for qid, value in trec_eval_values(qrels, run, "map", "map").items():
            assert got[(name, qid, "map")] == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_experiment_baseline_significance_with_holm(pt: Any, test: str) -> None:
    _require("statsmodels")
    scipy_stats = _require("scipy.stats")
    qrels, runs = random_collection()
    measures = {"PRES@1000": PRES @ 1000, "QMeasure(beta=0.5)": QMeasure(beta=0.5)}
    table = pt.Experiment(
        runs,
        topics_for(qrels),
        qrels,
        [*measures, "map"],
        names=["A", "B", "C"],
        baseline=0,
        test=test,
        correction="holm",
    ).set_index("name")
    fn = scipy_stats.ttest_rel if test == "t" else scipy_stats.wilcoxon
    qids = sorted(qrels.qid.unique())
    values = {}
    for name, run in zip("ABC", runs):
        for display, measure in measures.items():
            pq = per_query(measure, qrels, run)
            values[name, display] = np.array([pq[q] for q in qids])
        pq = trec_eval_values(qrels, run, "map", "map")
        values[name, "map"] = np.array([pq[q] for q in qids])
    for display in [*measures, "map"]:
        base = values["A", display]
        assert np.isnan(table.loc["A", f"{display} p-value"])
        pvalues = []
        for name in "BC":
            sysv = values[name, display]
            p = fn(sysv, base).pvalue
            pvalues.append(p)
            assert table.loc[name, f"{display} p-value"] == pytest.approx(p, rel=1e-9)
            assert table.loc[name, f"{display} +"] == int((sysv > base).sum())
            assert table.loc[name, f"{display} -"] == int((sysv < base).sum())
        for name, adjusted in zip("BC", holm(pvalues)):
            assert table.loc[name, f"{display} p-value corrected"] == pytest.approx(adjusted, rel=1e-9)
            assert bool(table.loc[name, f"{display} reject"]) == (adjusted <= 0.05)
    # the systems that favour relevant documents are found better on our measures: the test bites
    for name in "BC":
        assert table.loc[name, "QMeasure(beta=0.5) p-value"] < 0.01
        assert bool(table.loc[name, "QMeasure(beta=0.5) reject"])


def test_experiment_round_by_display_name(pt: Any) -> None:
    qrels, x, y = hand_collection()
    table = pt.Experiment(
        [x, y], topics_for(qrels), qrels, ["PRES@100", "QMeasure"], names=["X", "Y"], round={"PRES@100": 2}
    ).set_index("name")
    assert table.loc["X", "PRES@100"] == round(np.mean(HAND["PRES@100"]["X"]), 2)
    assert table.loc["X", "QMeasure"] == pytest.approx(np.mean(HAND["QMeasure"]["X"]), abs=1e-12)


def test_evaluate_strings_and_objects(pt: Any) -> None:
    qrels, runs = random_collection()
    run = runs[1]
    q, r = as_ir_measures(qrels, run)
    expected = ir_measures.calc_aggregate([PRES @ 1000, QMeasure(beta=0.5) @ 10, QMeasure], q, r)
    got = pt.Evaluate(run, qrels, ["PRES@1000", "QMeasure(beta=0.5)@10", QMeasure, "map"])
    assert set(got) == {"PRES@1000", "QMeasure(beta=0.5)@10", "QMeasure", "map"}
    assert got["PRES@1000"] == pytest.approx(expected[PRES @ 1000], abs=1e-12)
    assert got["QMeasure(beta=0.5)@10"] == pytest.approx(expected[QMeasure(beta=0.5) @ 10], abs=1e-12)
    assert got["QMeasure"] == pytest.approx(expected[QMeasure], abs=1e-12)
    assert got["map"] == pytest.approx(np.mean(list(trec_eval_values(qrels, run, "map", "map").values())))

    by_query = pt.Evaluate(run, qrels, ["PRES@1000", "map"], perquery=True)
    pres = per_query(PRES @ 1000, qrels, run)
    aps = trec_eval_values(qrels, run, "map", "map")
    assert set(by_query) == set(pres)
    for qid, row in by_query.items():
        assert row["PRES@1000"] == pytest.approx(pres[qid], abs=1e-12)
        assert row["map"] == pytest.approx(aps[qid], abs=1e-12)


def test_evaluate_hand_example(pt: Any) -> None:
    qrels, x, _ = hand_collection()
    got = pt.Evaluate(x, qrels, ["PRES@100", QMeasure, "map"])
    for measure in HAND:
        assert got[measure] == pytest.approx(np.mean(HAND[measure]["X"]), abs=1e-12)


def test_strings_are_read_as_the_command_line_reads_them(pt: Any) -> None:
    # one catalogue: ir_measures syntax for standard measures and our trec-style output names
    # work in PyTerrier as on the command line (issue #15)
    qrels, x, y = hand_collection()
    metrics = ["nDCG@10", "Q-measure", "PRES_100"]
    table = pt.Experiment([x, y], topics_for(qrels), qrels, metrics, names=["X", "Y"]).set_index("name")
    assert sorted(table.columns) == sorted(metrics)
    for system, run in (("X", x), ("Y", y)):
        ndcg = trec_eval_values(qrels, run, "ndcg_cut.10", "ndcg_cut_10")
        assert table.loc[system, "nDCG@10"] == pytest.approx(np.mean(list(ndcg.values())), abs=1e-12)
        assert table.loc[system, "Q-measure"] == pytest.approx(np.mean(HAND["QMeasure"][system]), abs=1e-12)
        assert table.loc[system, "PRES_100"] == pytest.approx(np.mean(HAND["PRES@100"][system]), abs=1e-12)


def test_unknown_and_bad_strings_fail_in_experiment_with_the_catalogues_message(pt: Any) -> None:
    from ir_measures_pres.measures.catalogue import MeasureNameError

    qrels, x, _ = hand_collection()
    with pytest.raises(MeasureNameError) as info:
        pt.Experiment([x], topics_for(qrels), qrels, ["Bpref-10"])
    # the message the command line prints (docs/cli.md)
    assert str(info.value) == "unknown measure 'Bpref-10' (did you mean Bpref10 or Bpref_10 or Bpref?)"
    with pytest.raises(ValueError, match="foo"):
        pt.Experiment([x], topics_for(qrels), qrels, ["PRES(foo=1)@10"])
    with pytest.raises(MeasureNameError, match="collection size"):
        pt.Experiment([x], topics_for(qrels), qrels, ["Rnorm_cut_100"])


def test_gridsearch_with_our_string_metric(pt: Any) -> None:
    """pt.GridSearch looks its metric up by display name, so a string works; an object does not."""
    qrels, runs = random_collection()
    topics = topics_for(qrels)

    class Pick(pt.Transformer):
        def __init__(self) -> None:
            super().__init__()
            self.which = 0

        def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
            run = runs[self.which]
            return run[run.qid.isin(inp.qid)].merge(inp[["qid", "query"]], on="qid")

    means = [np.mean(list(per_query(PRES @ 1000, qrels, run).values())) for run in runs]
    pick = Pick()
    best, setting = pt.GridSearch(
        pick,
        {pick: {"which": [0, 1, 2]}},
        topics,
        qrels,
        "PRES@1000",
        verbose=False,
        return_type="best_setting",
    )
    assert best == pytest.approx(max(means), abs=1e-12)
    assert setting[0][1:] == ("which", int(np.argmax(means)))
    # documented limitation of PyTerrier (any Measure object, built-in or ours)
    with pytest.raises(KeyError):
        pt.GridSearch(pick, {pick: {"which": [0, 1]}}, topics, qrels, PRES @ 1000, verbose=False)


def _docs_example() -> tuple[str, list[str]]:
    """The code of docs/pyterrier.md's complete example and the output lines the page shows."""
    text = (REPO / "docs" / "pyterrier.md").read_text()
    section = text.split("## Complete example", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    after = section.split("```python\n", 1)[1].split("```", 1)[1]
    shown = re.split(r"```(?:text)?\n", after, maxsplit=1)[1].split("```", 1)[0]  # the output block
    return code, [line.rstrip() for line in shown.splitlines() if line.strip() and line.strip() != "..."]


def test_docs_example_runs_and_shows_what_it_prints(pt: Any, tmp_path: Path) -> None:
    code, shown = _docs_example()
    _fake_distribution(tmp_path, PYTERRIER_EP)
    done = _run(code, tmp_path)
    assert done.returncode == 0, done.stderr
    printed = [line.rstrip() for line in done.stdout.splitlines()]
    missing = [line for line in shown if line not in printed]
    assert not missing, f"docs/pyterrier.md shows lines the example does not print: {missing}"
    # the values of the first system, from outside PyTerrier
    data = REPO / "ir_measures_pres" / "data" / "sample"
    qrels = list(ir_measures.read_trec_qrels(str(data / "qrels.test")))
    run = list(ir_measures.read_trec_run(str(data / "results.test")))
    expected = ir_measures.calc_aggregate([PRES @ 1000, QMeasure, PRES @ 100, ir_measures.AP], qrels, run)
    rows: dict[str, list[str]] = {}
    for line in printed:
        if line.split():
            rows.setdefault(line.split()[0], line.split()[1:])  # the value row comes before "+", "-" ...
    assert float(rows["PRES@1000"][0]) == round(expected[PRES @ 1000], 4)
    assert float(rows["QMeasure"][0]) == round(expected[QMeasure], 4)
    assert float(rows["PRES@100"][0]) == round(expected[PRES @ 100], 4)
    assert float(rows["map"][0]) == round(expected[ir_measures.AP], 4)


# ---------------------------------------------------------------------------------------------
# the pyterrier.modules hook


def test_entry_point_loads_the_hook() -> None:
    ep = importlib.metadata.EntryPoint(
        name="ir_measures_pres", value="ir_measures_pres.pyterrier", group="pyterrier.modules"
    )
    module = ep.load()
    assert not callable(module)  # PyTerrier would call a callable and keep its result instead
    assert module.AVAILABLE is True and module.ERROR is None
    assert module.PRES is PRES and module.QMeasure is QMeasure
    assert _trec_names.is_installed()
    assert sum(p.NAME == "ir_measures_pres" for p in ir_measures.DefaultPipeline.providers) == 1


def test_hook_warns_instead_of_raising(monkeypatch: pytest.MonkeyPatch) -> None:
    import ir_measures_pres.pyterrier as hook

    def broken() -> None:
        raise AttributeError("simulated incompatible ir_measures")

    monkeypatch.setattr(_trec_names, "install", broken)
    try:
        with pytest.warns(RuntimeWarning, match="simulated incompatible ir_measures"):
            importlib.reload(hook)
        assert hook.AVAILABLE is False and isinstance(hook.ERROR, AttributeError)
    finally:
        monkeypatch.undo()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            importlib.reload(hook)
    assert hook.AVAILABLE is True and hook.ERROR is None


def _fake_distribution(root: Path, entry_points: str) -> None:
    """A dist-info named like ours, first on sys.path, declaring ``entry_points``: it shadows the
    installed metadata, so the entry point exists whatever pyproject.toml declares today."""
    info = root / "ir_measures_pres-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ir_measures_pres\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


def _run(code: str, path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(path), str(REPO)]))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=path,
        timeout=300,
    )


def _declared_hook() -> str:
    """The module pyproject.toml names for the pyterrier.modules entry point (the hook by default)."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return "ir_measures_pres.pyterrier"
    project = tomllib.loads((REPO / "pyproject.toml").read_text()).get("project", {})
    declared = project.get("entry-points", {}).get("pyterrier.modules", {})
    return declared.get("ir_measures_pres", "ir_measures_pres.pyterrier")


#: what pip writes to entry_points.txt for the declared entry point
PYTERRIER_EP = f"""
    [pyterrier.modules]
    ir_measures_pres = {_declared_hook()}
"""


def test_import_pyterrier_activates_the_package(pt: Any, tmp_path: Path) -> None:
    """With the entry point installed, user code that never imports ir_measures_pres works."""
    qrels, x, y = hand_collection()
    qrels.to_csv(tmp_path / "qrels.csv", index=False)
    x.to_csv(tmp_path / "x.csv", index=False)
    y.to_csv(tmp_path / "y.csv", index=False)
    _fake_distribution(tmp_path, PYTERRIER_EP)
    done = _run(
        """
        import sys, warnings
        warnings.filterwarnings("error", message=".*ir_measures_pres")  # the hook must not complain
        import pandas as pd
        import pyterrier as pt
        assert "ir_measures_pres" in sys.modules, "the entry point did not load"
        read = lambda f: pd.read_csv(f, dtype={"qid": str, "docno": str})
        qrels, x, y = read("qrels.csv"), read("x.csv"), read("y.csv")
        topics = pd.DataFrame({"qid": ["q1", "q2"], "query": ["a", "b"]})
        print(repr(pt.Evaluate(x, qrels, ["PRES@100", "QMeasure", "map"])))
        table = pt.Experiment([x, y], topics, qrels, [pt.ir_measures_pres.PRES @ 100, "QMeasure"],
                              names=["X", "Y"])
        print(repr(table.set_index("name").to_dict()))
        print(pt.ir_measures_pres.AVAILABLE)
    """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    evaluate, experiment, available = done.stdout.strip().splitlines()
    values = eval(evaluate)  # a dict of floats printed by repr
    for measure in HAND:
        assert values[measure] == pytest.approx(np.mean(HAND[measure]["X"]), abs=1e-12)
    table = eval(experiment)
    for measure in ("PRES@100", "QMeasure"):
        for system in "XY":
            assert table[measure][system] == pytest.approx(np.mean(HAND[measure][system]), abs=1e-12)
    assert available == "True"


def test_import_pyterrier_survives_a_failing_package(pt: Any, tmp_path: Path) -> None:
    _fake_distribution(tmp_path, PYTERRIER_EP)
    done = _run(
        """
        import warnings
        import ir_measures
        ir_measures.measures.registry["PRES"] = ir_measures.AP  # another plugin took the name
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import pyterrier as pt
        print(pt.Evaluate.__name__, any("ir_measures_pres" in str(w.message) for w in caught))
    """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Evaluate", "True"]


# ---------------------------------------------------------------------------------------------
# the ir_measures.provider entry point (upstream's unmerged entry-points branch, emulated)


def _emulated_discovering_ir_measures(root: Path) -> None:
    """A copy of the installed ir_measures patched the way upstream's ``entry-points`` branch works:
    ``ir_measures.providers`` loads the group while it is still importing, as
    ``registry.update({ep.name: ep.load()() ...})``, and ``DefaultPipeline`` then takes the
    third-party providers of the registry after the built-ins (they keep PRIORITY 0.0)."""
    source = Path(ir_measures.__file__).parent
    target = root / "ir_measures"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    with open(target / "providers" / "__init__.py", "a") as f:
        f.write(
            "\nfrom importlib.metadata import entry_points as _entry_points\n"
            "registry.update({ep.name: ep.load()()\n"
            "                 for ep in _entry_points(group='ir_measures.provider')})\n"
        )
    with open(target / "__init__.py", "a") as f:
        f.write(
            "\nDefaultPipeline.providers.extend(p for p in list(providers.registry.values())\n"
            "    if not type(p).__module__.startswith('ir_measures.')\n"
            "    and p not in DefaultPipeline.providers)\n"
        )


PROVIDER_EP = """
    [ir_measures.provider]
    ir_measures_pres = ir_measures_pres._entry_points:provider
"""


def test_provider_factory_returns_the_registered_instance() -> None:
    from ir_measures_pres._entry_points import provider

    registered = ir_measures.providers.registry["ir_measures_pres"]
    assert provider() is registered
    assert registered in ir_measures.DefaultPipeline.providers


def test_discovering_ir_measures_gets_the_provider_once(tmp_path: Path) -> None:
    _emulated_discovering_ir_measures(tmp_path)
    _fake_distribution(tmp_path, PROVIDER_EP)
    done = _run(
        """
        import os, sys
        import ir_measures
        assert ir_measures.__file__.startswith(os.getcwd()), "not the emulated ir_measures"
        assert "ir_measures_pres" in sys.modules, "the entry point did not load"
        names = lambda: [p.NAME for p in ir_measures.DefaultPipeline.providers]
        before = names().count("ir_measures_pres")
        import ir_measures_pres
        ir_measures_pres.register()
        after = names().count("ir_measures_pres")
        same = ir_measures.providers.registry["ir_measures_pres"] is ir_measures.DefaultPipeline.providers[-1]
        qrels = {"1": {"a": 1, "b": 0}}
        run = {"1": {"b": 2.0, "a": 1.0}}
        pres = ir_measures.parse_measure("PRES@10")
        result = ir_measures.calc_aggregate([pres, ir_measures.AP], qrels, run)
        print(before, after, same, result[ir_measures.AP], result[pres])
    """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    before, after, same, ap, pres = done.stdout.split()
    # one relevant document at rank 2: AP = 1/2; PRES@10 = 1 - (2 - 1)/10
    assert (before, after, same) == ("1", "1", "True")
    assert float(ap) == pytest.approx(0.5) and float(pres) == pytest.approx(0.9)


# ---------------------------------------------------------------------------------------------
# what the lead declares in pyproject.toml


def test_pyproject_declares_entry_points_and_extra() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    eps = project["entry-points"]
    # the hook itself, or a top-level shim importing it (which also survives a failing package)
    assert eps["pyterrier.modules"]["ir_measures_pres"] in {
        "ir_measures_pres.pyterrier",
        "ir_measures_pres_pyterrier",
    }
    assert eps["ir_measures.provider"]["ir_measures_pres"] == "ir_measures_pres._entry_points:provider"
    extra = project["optional-dependencies"]["pyterrier"]
    assert any(req.replace(" ", "").startswith("pyterrier>=") for req in extra)
