"""``ir_measures_pres compare``: exit codes, outputs, per-topic score input, ir_datasets ids, plots."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("scipy")
pytest.importorskip("pandas")
pytest.importorskip("statsmodels")

from ir_measures_pres.cli.evaluate import main  # noqa: E402
from ir_measures_pres.stats.comparison import COLUMNS, compare, compare_scores  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "ir_measures_pres" / "data" / "sample"


@pytest.fixture()
def sample(tmp_path):
    """The bundled sample qrels and three runs: results.test and two re-scored copies."""
    lines = (DATA / "results.test").read_text().splitlines()
    rng = np.random.default_rng(0)
    runs = {"base": lines}
    for name, noise in (("noisy", 1.0), ("noisier", 3.0)):
        out = []
        for line in lines:
            q, it, d, rank, score, tag = line.split()
            out.append(f"{q} {it} {d} {rank} {float(score) + noise * rng.normal():.6f} {name}")
        runs[name] = out
    d = tmp_path / "runs"
    d.mkdir()
    for name, rows in runs.items():
        (d / name).write_text("\n".join(rows) + "\n")
    return str(DATA / "qrels.test"), d


def _run(argv, capsys):
    code = main(["compare", *argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_text_markdown_latex_csv_json(sample, capsys):
    qrels, runs = sample
    for fmt, probe in (
        ("text", "base"),
        ("md", "| # | run |"),
        ("latex", "\\toprule"),
        ("csv", ",".join(COLUMNS)),
        ("json", '"metadata"'),
    ):
        code, out, err = _run([qrels, str(runs), "-m", "AP", "P@10", "--format", fmt, "-q"], capsys)
        assert code == 0, err
        assert probe in out
    code, out, _ = _run(
        [qrels, str(runs), "-m", "AP", "--format", "json", "-q", "--baseline", "base"], capsys
    )
    doc = json.loads(out)
    assert doc["metadata"]["baseline"] == ["base"] and len(doc["pairs"]) == 2
    assert len(doc["metadata"]["sha256"]["qrels"]) == 64


def test_cli_equals_the_api(sample, capsys):
    qrels, runs = sample
    code, out, _ = _run([qrels, str(runs), "-m", "AP nDCG@10", "--format", "csv", "-q"], capsys)
    assert code == 0
    api = compare(qrels, runs, "AP nDCG@10")
    assert out == api.to_csv()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--alpha", "1.5"], "alpha"),
        (["--ci", "0"], "ci"),
        (["--B", "0"], "B must"),
        (["--seed", "-1"], "seed"),
        (["--correction", "nope"], "unknown correction"),
        (["--test", "z"], "invalid choice"),
        (["-p", "-3"], "places"),
        (["--plot", "forest"], "needs --output-dir"),
    ],
)
def test_usage_errors_exit_2_before_reading_files(args, message, capsys):
    code, out, err = _run(["no-such-qrels", "no-such-run", "-m", "AP", *args], capsys)
    assert code == 2 and out == ""
    assert err.startswith("ir_measures_pres: error: ") and message in err
    assert err.count("\n") == 1


def test_intersection_warns_on_stderr(sample, capsys, tmp_path):
    qrels, runs = sample
    short = tmp_path / "short"
    short.write_text(
        "".join(x for x in (runs / "base").read_text().splitlines(True) if not x.startswith("303"))
    )
    code, out, err = _run(
        [qrels, str(short), str(runs / "noisy"), "-m", "AP", "-q", "--topics", "intersection"], capsys
    )
    assert code == 0 and "ir_measures_pres: warning: topics=intersection: 1 topic(s)" in err
    code, out, err = _run([qrels, str(short), str(runs / "noisy"), "-m", "AP", "-q"], capsys)
    assert code == 0 and "run short lacks 1 of the 3 topics" in out  # the note in the table
    assert (
        err == "ir_measures_pres: warning: run short lacks 1 of the 3 topics (303), "
        "scored as an empty ranking on them "
        "(0 for most measures)\n"
    )


def test_unknown_measure_is_a_usage_error(sample, capsys):
    qrels, runs = sample
    code, _, err = _run([qrels, str(runs), "-m", "APP"], capsys)
    assert code == 2 and err.startswith("ir_measures_pres: error: ") and err.count("\n") == 1


def test_input_errors_exit_1(sample, capsys, tmp_path):
    qrels, runs = sample
    code, _, err = _run([qrels, str(tmp_path / "missing"), "-m", "AP"], capsys)
    assert code == 1 and "missing: No such file or directory" in err and err.count("\n") == 1
    code, _, err = _run([qrels, str(runs), "-m", "AP", "--baseline", "zz", "-q"], capsys)
    assert code == 1 and "baseline" in err
    bad = tmp_path / "bad.run"
    bad.write_text("301 Q0 d1\n")
    code, _, err = _run([qrels, str(bad), str(runs / "base"), "-m", "AP", "-q"], capsys)
    assert code == 1 and err.startswith("ir_measures_pres: error: ") and "Traceback" not in err


def test_missing_qrels_message_as_ir_measures(capsys, tmp_path, monkeypatch):
    code, _, err = _run([str(tmp_path / "nope"), str(tmp_path), "-m", "AP", "-q"], capsys)
    assert code == 1
    assert "nope not found. (checked file and ir_datasets)" in err
    monkeypatch.setitem(__import__("sys").modules, "ir_datasets", None)  # not installed
    code, _, err = _run([str(tmp_path / "nope"), str(tmp_path), "-m", "AP", "-q"], capsys)
    assert code == 1 and "To use this feature, install ir_datasets" in err and "nope not found" in err


def test_qrels_from_a_locally_registered_ir_datasets_id(sample, capsys):
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.formats import TrecQrels
    from ir_datasets.util import LocalDownload

    qrels, runs = sample
    name = "ir-measures-pres-test/compare-local"
    if name not in ir_datasets.registry:
        ir_datasets.registry.register(name, ir_datasets.Dataset(TrecQrels(LocalDownload(qrels), {})))
    code, out, err = _run([name, str(runs), "-m", "AP", "--format", "csv", "-q"], capsys)
    assert code == 0, err
    assert out == compare(qrels, runs, "AP").to_csv()


def test_output_directory_with_plots(sample, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    qrels, runs = sample
    out_dir = tmp_path / "out"
    for plot in ("forest", "matrix"):
        args = [qrels, str(runs), "-m", "AP", "-q", "-o", str(out_dir), "--plot", plot, "--baseline", "base"]
        code, _, err = _run(args, capsys)
        assert code == 0, err
        assert (out_dir / f"comparison_{plot}.png").read_bytes()[:4] == b"\x89PNG"
    for ext in ("txt", "md", "tex", "csv", "json"):
        assert (out_dir / f"comparison.{ext}").stat().st_size > 0


def test_trec_eval_q_files_as_scores(sample, capsys, tmp_path):
    """Per-topic scores computed elsewhere: trec_eval -q lines written from ir_measures' values."""
    import ir_measures

    qrels, runs = sample
    files = []
    for name in ("base", "noisy", "noisier"):
        rows = ["runid\tall\t" + name]
        for m in ir_measures.iter_calc(
            [ir_measures.AP], ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(str(runs / name))
        ):
            rows.append(f"map\t{m.query_id}\t{m.value:.17g}")
        rows.append("map\tall\t0.5")
        f = tmp_path / f"{name}.eval"
        f.write_text("\n".join(rows) + "\n")
        files.append(f)
    code, out, err = _run(["-", *map(str, files), "-m", "map", "--scores", "--format", "csv"], capsys)
    assert code == 0, err
    res = compare_scores([str(f) for f in files])
    ref = compare(qrels, runs, "AP", names=["base.eval", "noisier.eval", "noisy.eval"])
    assert out == res.to_csv()
    got = res.pairs.set_index(["run_a", "run_b"])
    want = ref.pairs.set_index(["run_a", "run_b"])
    for key in got.index:
        a, b = key
        row = want.loc[key] if key in want.index else None
        if row is None:
            row = want.loc[(b, a)]
            assert got.loc[key, "delta"] == pytest.approx(-row["delta"], abs=1e-12)
        else:
            assert got.loc[key, "delta"] == pytest.approx(row["delta"], abs=1e-12)
        assert got.loc[key, "p"] == pytest.approx(row["p"], rel=1e-9)


def test_pyterrier_perquery_frame_as_scores(sample):
    pt = pytest.importorskip("pyterrier")
    import ir_measures
    import pandas as pd

    qrels, runs = sample
    qdf = pd.DataFrame(
        [(q.query_id, q.doc_id, q.relevance) for q in ir_measures.read_trec_qrels(qrels)],
        columns=["qid", "docno", "label"],
    )
    systems, names = [], []
    for name in ("base", "noisy"):
        rdf = pd.DataFrame(
            [(r.query_id, r.doc_id, r.score) for r in ir_measures.read_trec_run(str(runs / name))],
            columns=["qid", "docno", "score"],
        )
        systems.append(pt.Transformer.from_df(rdf))
        names.append(name)
    topics = pd.DataFrame({"qid": sorted(qdf.qid.unique()), "query": "x"})
    frame = pt.Experiment(systems, topics, qdf, [ir_measures.AP], names=names, perquery=True)
    res = compare_scores(frame)
    ref = compare(qrels, {"base": runs / "base", "noisy": runs / "noisy"}, "AP")
    assert res.pairs["p"].iloc[0] == pytest.approx(ref.pairs["p"].iloc[0], rel=1e-9)
    assert res.pairs["delta"].iloc[0] == pytest.approx(ref.pairs["delta"].iloc[0], abs=1e-12)


def test_runs_as_dicts_are_not_modified():
    qrels = {"1": {"a": 1, "b": 0}, "2": {"c": 1}}
    r1 = {"1": {"a": 1.0, "b": 0.5}}
    r2 = {"1": {"a": 0.1, "b": 0.5}, "2": {"c": 1.0}}
    before = (json.dumps(r1), json.dumps(r2), json.dumps(qrels))
    res = compare(qrels, {"r1": r1, "r2": r2}, "AP")
    assert (json.dumps(r1), json.dumps(r2), json.dumps(qrels)) == before
    assert res.missing["r1"] == ["2"] and res.n == 2
    assert res.means["AP"] == {"r1": 0.5, "r2": 0.75}
    assert io is not None


def test_one_vocabulary_of_options_with_the_old_spellings_kept(sample, capsys, tmp_path):
    """Issue #20, item 8: --quiet, --output-dir, -B/--resamples and the --format words mean the
    same in every command (-q is per-query output in the main command, as in trec_eval); the
    spellings compare had (-q, -o, --output, --B) still work, unlisted, and say the same."""
    qrels, runs = sample
    base = [qrels, str(runs), "-m", "AP", "--test", "perm", "--format", "csv"]
    new = _run([*base, "--quiet", "--resamples", "300", "--output-dir", str(tmp_path / "a")], capsys)
    old = _run([*base, "-q", "--B", "300", "-o", str(tmp_path / "b")], capsys)
    assert new[0] == old[0] == 0 and new[1] == old[1]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(
        p.name for p in (tmp_path / "b").iterdir()
    )
    assert _run([*base, "-q", "-B", "300"], capsys)[1] == new[1]
    markdown = _run([qrels, str(runs), "-m", "AP", "--format", "markdown", "--quiet"], capsys)
    assert markdown == _run([qrels, str(runs), "-m", "AP", "--format", "md", "--quiet"], capsys)
    help_text = _run(["--help"], capsys)[1]
    assert "--output-dir" in help_text and "--resamples" in help_text and "--quiet" in help_text
    assert "--B " not in help_text and "-o DIR" not in help_text and "-q," not in help_text
