"""Runs read and scored block by block (issue #23): the main command's streaming path.

Oracles: the whole-run engine (``Evaluation.iter_calc`` on the run read whole by ``read_run``,
written by the same writer: the whole-file path's bytes, a regression oracle) and pytrec_eval
directly for per-query values. Blocks are made tiny here (a few hundred lines) so that every
run is cut into many blocks; the block size is a parameter, not a behaviour.
"""

from __future__ import annotations

import argparse
import gzip
import io
import subprocess
import sys
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import List, Tuple

import numpy as np
import pytest
from conftest import DATA, shared_data

import ir_measures_pres.data.runblocks as runblocks
from ir_measures_pres.cli.evaluate import _write_run, main
from ir_measures_pres.data.readers import TrecFormatError, read_qrels, read_run
from ir_measures_pres.data.runblocks import RunBlocks, UngroupedRun
from ir_measures_pres.engine.evaluation import Evaluation
from ir_measures_pres.engine.streaming import stream_run
from ir_measures_pres.measures.catalogue import parse_measures

REPO = Path(__file__).resolve().parents[1]
CLEF = DATA / "clef-tar-2017"
MEASURES = "AP nDCG@10 P@10 R@100 RR RR@10 PRES@100 QMeasure Bpref10 NumRel NumQ NumRet"


def run_cli(argv: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("always")  # every warning shown, however often it was before
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def whole_file_output(qrels: str, run: str, measures: str, fmt: str, by_query: bool, places: int = 4) -> str:
    """The whole-file path's bytes: the run read whole, scored by ``Evaluation.iter_calc``."""
    qcols = read_qrels(qrels, doc_ids="bytes")
    ms = list(parse_measures([measures]))
    evaluation = Evaluation(ms, qcols, processes=1)
    cols = read_run(run, doc_ids="bytes")
    args = argparse.Namespace(output_format=fmt, by_query=by_query, no_summary=False, places=places)
    out = io.StringIO()
    order = qcols.query_names or []
    _write_run(args, evaluation.measures, qcols, cols, evaluation.iter_calc(cols), None, order, out)
    return out.getvalue()


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runblocks, "BLOCK_LINES", 700)


def _clef_files() -> Tuple[str, str]:
    qrels = CLEF / "qrels" / "test.clef2017.qrels"
    runs = sorted((CLEF / "runs").glob("*"))
    if not qrels.exists() or not runs:
        pytest.skip("tests/data/clef-tar-2017 is not there")
    return str(qrels), str(runs[0])


# --------------------------------------------------------------------------------------------
# the same bytes as the whole-file path
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["tsv", "jsonl", "trec"])
@pytest.mark.parametrize("by_query", [False, True])
def test_blocks_byte_identical_robust(tiny_blocks: None, fmt: str, by_query: bool) -> None:
    robust = shared_data("real", "trec-robust-2003")
    qrels = str(robust / "qrels" / "robust03_qrels.txt")
    for run in sorted((robust / "runs").glob("*.gz"))[:3]:
        argv = [qrels, str(run), MEASURES, "--format", fmt, "-p", "-1", "--jobs", "1"]
        status, out, _ = run_cli(argv + (["-q"] if by_query else []))
        assert status == 0
        assert out == whole_file_output(qrels, str(run), MEASURES, fmt, by_query, places=-1), run.name


@pytest.mark.parametrize("fmt", ["tsv", "trec"])
def test_blocks_byte_identical_clef(tiny_blocks: None, fmt: str) -> None:
    qrels, run = _clef_files()
    status, out, _ = run_cli([qrels, run, MEASURES, "--format", fmt, "-q", "--jobs", "1"])
    assert status == 0
    assert out == whole_file_output(qrels, run, MEASURES, fmt, True)


def test_block_size_does_not_change_values(tmp_path: Path) -> None:
    robust = shared_data("real", "trec-robust-2003")
    qrels = str(robust / "qrels" / "robust03_qrels.txt")
    run = str(robust / "runs" / "input.aplrob03a.gz")
    qcols = read_qrels(qrels, doc_ids="bytes")
    evaluation = Evaluation(list(parse_measures([MEASURES])), qcols, processes=1)
    tables = [stream_run(evaluation, run, block_lines=n)[0] for n in (1, 999, 10**9)]
    for table in tables[1:]:
        assert list(table.metrics()) == list(tables[0].metrics())


def test_values_match_pytrec_eval() -> None:
    """Per-query AP and nDCG@10 of a run cut in blocks, against pytrec_eval on the whole run."""
    import pytrec_eval

    robust = shared_data("real", "trec-robust-2003")
    qrels = str(robust / "qrels" / "robust03_qrels.txt")
    run = str(robust / "runs" / "input.Sel50.gz")
    qcols = read_qrels(qrels)
    evaluation = Evaluation(list(parse_measures(["AP nDCG@10"])), read_qrels(qrels, doc_ids="bytes"))
    table, _ = stream_run(evaluation, run, block_lines=500)
    ours = {(str(m.measure), m.query_id): m.value for m in table.metrics()}
    qd: dict = {}
    for q, d, v in zip(qcols.query_ids, qcols.doc_ids, qcols.values.tolist()):
        qd.setdefault(q, {})[d] = v
    rcols = read_run(run)
    rd: dict = {}
    for q, d, v in zip(rcols.query_ids, rcols.doc_ids, rcols.values.tolist()):
        rd.setdefault(q, {})[d] = v
    expected = pytrec_eval.RelevanceEvaluator(qd, {"map", "ndcg_cut.10"}).evaluate(rd)
    assert expected
    for q, row in expected.items():
        assert ours[("AP", q)] == pytest.approx(row["map"], abs=1e-12)
        assert ours[("nDCG@10", q)] == pytest.approx(row["ndcg_cut_10"], abs=1e-12)


def test_jobs_share_blocks(tiny_blocks: None) -> None:
    robust = shared_data("real", "trec-robust-2003")
    qrels = str(robust / "qrels" / "robust03_qrels.txt")
    run = str(robust / "runs" / "input.aplrob03a.gz")
    one = run_cli([qrels, run, MEASURES, "-q", "-p", "-1", "--jobs", "1"])
    two = run_cli([qrels, run, MEASURES, "-q", "-p", "-1", "--jobs", "2"])
    assert one == two


# --------------------------------------------------------------------------------------------
# runs not grouped by query, duplicates, bad lines
# --------------------------------------------------------------------------------------------


def _write(path: Path, lines: List[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def _small(tmp_path: Path) -> Tuple[str, List[str]]:
    rng = np.random.default_rng(1)
    qrels, run = [], []
    for q in range(40):
        for d in range(12):
            if rng.random() < 0.4:
                qrels.append(f"q{q} 0 d{d} {int(rng.integers(0, 3))}")
        for r, d in enumerate(rng.permutation(30)[:20]):
            run.append(f"q{q} Q0 d{d} {r + 1} {20 - r * 0.5:.1f} tag")
    return _write(tmp_path / "qrels", qrels), run


def test_ungrouped_run_falls_back(tmp_path: Path, tiny_blocks: None) -> None:
    qrels, lines = _small(tmp_path)
    runblocks.BLOCK_LINES = 60  # noqa - the fixture restores it
    grouped = _write(tmp_path / "grouped", lines)
    # query q3's last 5 lines moved to the end: its lines are in two places
    q3 = [k for k, line in enumerate(lines) if line.startswith("q3 ")]
    moved = [lines[k] for k in q3[-5:]]
    ungrouped = _write(tmp_path / "ungrouped", [x for k, x in enumerate(lines) if k not in q3[-5:]] + moved)
    with pytest.raises(UngroupedRun, match=r"ungrouped:\d+: query 'q3' appears again"):
        list(RunBlocks(ungrouped, block_lines=60))
    for fmt in ("tsv", "trec"):
        status, out, err = run_cli([qrels, ungrouped, MEASURES, "-q", "--format", fmt, "--jobs", "1"])
        assert status == 0
        assert "ir_measures_pres: warning: " in err and "not grouped by query" in err
        assert out == whole_file_output(qrels, ungrouped, MEASURES, fmt, True)
        # the same run, its lines grouped: the same values (the run's order of lines aside)
        assert out == run_cli([qrels, grouped, MEASURES, "-q", "--format", fmt, "--jobs", "1"])[1]


def test_ungrouped_run_from_stdin(tmp_path: Path) -> None:
    qrels, lines = _small(tmp_path)
    ungrouped = lines[5:] + lines[:5]  # q0's first five lines at the end
    path = _write(tmp_path / "ungrouped", ungrouped)
    code = (
        "import sys, ir_measures_pres.data.runblocks as b; b.BLOCK_LINES = 50; "
        "from ir_measures_pres.cli.evaluate import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, qrels, "-", MEASURES, "-q"],
        input=Path(path).read_bytes(),
        capture_output=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert b"not grouped by query" in done.stderr
    assert done.stdout.decode() == whole_file_output(qrels, path, MEASURES, "tsv", True)


def test_duplicates_across_blocks_one_warning(tmp_path: Path) -> None:
    qrels, lines = _small(tmp_path)
    # a duplicate line in the first query and one in the last: they end up in different blocks
    dup = lines[:3] + [lines[1]] + lines[3:] + [lines[-2]]
    path = _write(tmp_path / "dups", dup)
    with warnings.catch_warnings(record=True) as whole:
        warnings.simplefilter("always")
        read_run(path, doc_ids="bytes")
    with warnings.catch_warnings(record=True) as streamed:
        warnings.simplefilter("always")
        blocks = list(RunBlocks(path, block_lines=50))
    assert len(blocks) > 3
    assert [str(w.message) for w in streamed] == [str(w.message) for w in whole]
    assert "2 duplicate" in str(whole[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert sum(len(b) for b in blocks) == len(read_run(path))


def test_bad_line_mid_stream_prints_nothing(tmp_path: Path) -> None:
    qrels, lines = _small(tmp_path)
    bad = lines[:600] + ["q30 Q0 d1 1 high tag"] + lines[600:]
    path = _write(tmp_path / "bad", bad)
    with pytest.raises(TrecFormatError) as whole:
        read_run(path)
    code = (
        "import sys, ir_measures_pres.data.runblocks as b; b.BLOCK_LINES = 50; "
        "from ir_measures_pres.cli.evaluate import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, qrels, path, MEASURES, "-q"], capture_output=True, cwd=REPO, timeout=300
    )
    assert done.returncode == 1
    assert done.stdout == b""  # nothing printed before the whole run was read
    assert str(whole.value) in done.stderr.decode()
    assert f"{path}:601:" in done.stderr.decode()


def test_empty_and_gzipped(tmp_path: Path) -> None:
    qrels, lines = _small(tmp_path)
    empty = _write(tmp_path / "empty", ["# nothing"])
    with pytest.raises(TrecFormatError, match="no run line, only 1 comment"):
        list(RunBlocks(empty))
    gz = tmp_path / "run.gz"
    with gzip.open(gz, "wt") as f:
        f.write("".join(x + "\n" for x in lines))
    plain = _write(tmp_path / "run", lines)
    assert run_cli([qrels, str(gz), MEASURES, "-q"])[1] == run_cli([qrels, plain, MEASURES, "-q"])[1]


def test_rr_cutoff_top_scores_only_as_msmarco(tmp_path: Path) -> None:
    """RR@k of ir_measures' msmarco provider is handed each query's documents scoring at least its
    k-th score: per query the values of the provider on the whole run, on a run full of ties."""
    import ir_measures

    rng = np.random.default_rng(7)
    qrels, run = [], []
    for q in range(60):
        for d in rng.choice(40, size=6, replace=False):
            qrels.append(f"q{q} 0 d{d} {int(rng.integers(0, 3))}")
        for r, d in enumerate(rng.permutation(40)[: int(rng.integers(1, 40))]):
            run.append(f"q{q} Q0 d{d} {r + 1} {int(rng.integers(0, 4))} tag")  # 4 distinct scores: ties
    qpath, rpath = _write(tmp_path / "qrels", qrels), _write(tmp_path / "run", run)
    measures = "RR@1 RR@3 RR@10 RR(rel=2)@5"
    qcols = read_qrels(qpath, doc_ids="bytes")
    evaluation = Evaluation(list(parse_measures([measures])), qcols, processes=1)
    table, _ = stream_run(evaluation, rpath, block_lines=50)
    ours = {(str(m.measure), m.query_id): m.value for m in table.metrics()}
    provider = ir_measures.providers.registry["msmarco"]
    expected = {
        (str(m.measure), m.query_id): m.value
        for m in provider.iter_calc(
            list(parse_measures([measures])),
            list(ir_measures.read_trec_qrels(qpath)),
            list(ir_measures.read_trec_run(rpath)),
        )
    }
    assert ours == expected
