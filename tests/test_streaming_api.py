"""The block evaluator from Python (issue #23): a run file or DataFrame chunks scored block by block,
and the Dask recipe of docs/streaming.md on a local cluster.

Oracles: pytrec_eval directly (per-query values), the command's printed means (``-p -1``, for the
aggregate), and, for the Dask recipe, the command's means at the printed precision.
"""

from __future__ import annotations

import io
import pickle
import warnings
from contextlib import redirect_stdout
from pathlib import Path
from typing import Dict, List

import pytest

from ir_measures_pres import BlockEvaluator, iter_calc_blocks
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.data.runblocks import UngroupedRun

SAMPLE = Path(__file__).resolve().parents[1] / "ir_measures_pres" / "data" / "sample"
QRELS, RUN = str(SAMPLE / "qrels.test"), str(SAMPLE / "results.test")
MEASURES = "AP nDCG@10 P@10 RR@10 PRES@100 QMeasure"
NAMES = ["query_id", "it", "doc_id", "rank", "score", "tag"]


def command_means(run: str, measures: str = MEASURES) -> Dict[str, float]:
    out = io.StringIO()
    with redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main([QRELS, run, measures, "-p", "-1", "--jobs", "1"]) == 0
    return {line.split("\t")[0]: float(line.split("\t")[1]) for line in out.getvalue().splitlines()}


def pytrec_values(run: str) -> Dict[tuple, float]:
    import pytrec_eval

    q, r = read_qrels(QRELS), read_run(RUN if run is None else run)
    qd: dict = {}
    for a, b, v in zip(q.query_ids, q.doc_ids, q.values.tolist()):
        qd.setdefault(a, {})[b] = v
    rd: dict = {}
    for a, b, v in zip(r.query_ids, r.doc_ids, r.values.tolist()):
        rd.setdefault(a, {})[b] = v
    out = {}
    for qid, row in pytrec_eval.RelevanceEvaluator(qd, {"map", "ndcg_cut.10"}).evaluate(rd).items():
        out[("AP", qid)], out[("nDCG@10", qid)] = row["map"], row["ndcg_cut_10"]
    return out


def chunks(size: int):
    import pandas as pd

    return pd.read_csv(
        RUN, sep=r"\s+", header=None, names=NAMES, dtype={"query_id": str, "doc_id": str}, chunksize=size
    )


@pytest.mark.parametrize("block_lines", [1, 100, 10**6])
def test_file_in_blocks(block_lines: int) -> None:
    evaluator = BlockEvaluator(MEASURES, QRELS)
    blocks = list(evaluator.iter_calc(RUN, block_lines=block_lines))
    assert len(blocks) >= (3 if block_lines == 1 else 1)
    metrics = [m for block in blocks for m in block]
    expected = pytrec_values(RUN)
    for m in metrics:
        if (str(m.measure), m.query_id) in expected:
            assert m.value == pytest.approx(expected[(str(m.measure), m.query_id)], abs=1e-12)
    means = {str(k): v for k, v in evaluator.aggregate(metrics).items()}
    assert means == command_means(RUN)  # to the last bit, as the command adds them


@pytest.mark.parametrize("size", [1, 7, 499, 100_000])
def test_dataframe_chunks_regrouped(size: int) -> None:
    evaluator = BlockEvaluator(MEASURES, QRELS)
    metrics = [m for block in evaluator.iter_calc(chunks(size)) for m in block]
    assert {str(k): v for k, v in evaluator.aggregate(metrics).items()} == command_means(RUN)


def test_function_form_and_frames() -> None:
    metrics = [m for block in iter_calc_blocks(["AP", "PRES@100"], QRELS, RUN) for m in block]
    evaluator = BlockEvaluator("AP PRES@100", QRELS)
    frame = evaluator.frame_block(next(iter(chunks(10**6))))
    assert list(frame.columns) == ["query_id", "measure", "value"]
    assert sorted(zip(frame.query_id, frame.measure, frame.value)) == sorted(
        (m.query_id, str(m.measure), m.value) for m in metrics
    )


def test_ungrouped_chunks_raise(tmp_path: Path) -> None:
    import pandas as pd

    frame = next(iter(chunks(10**6)))
    moved = pd.concat([frame.iloc[10:], frame.iloc[:10]], ignore_index=True)  # a query in two places
    evaluator = BlockEvaluator("AP", QRELS)
    with pytest.raises(UngroupedRun, match="appears again"):
        list(evaluator.iter_calc([moved.iloc[:700], moved.iloc[700:]]))
    path = tmp_path / "ungrouped"
    path.write_text("".join(" ".join(map(str, row)) + "\n" for row in moved.itertuples(index=False)))
    with pytest.raises(UngroupedRun):
        list(evaluator.iter_calc(str(path)))
    with warnings.catch_warnings(record=True) as caught:  # means(): read whole, as the command does
        warnings.simplefilter("always")
        assert {str(k): v for k, v in evaluator.means(str(path)).items()} == command_means(str(path), "AP")
    assert any("not grouped by query" in str(w.message) for w in caught)


def test_evaluator_travels_as_its_recipe() -> None:
    evaluator = BlockEvaluator(MEASURES, QRELS)
    again = pickle.loads(pickle.dumps(evaluator))
    assert again is pickle.loads(pickle.dumps(evaluator))  # prepared once per process
    assert again.means(RUN) == evaluator.means(RUN)
    with pytest.raises(TypeError, match="in-memory qrels"):
        pickle.dumps(BlockEvaluator("AP", read_qrels(QRELS)))


# --------------------------------------------------------------------------------------------
# the Dask recipe (docs/streaming.md) on a local cluster of processes
# --------------------------------------------------------------------------------------------


def test_dask_recipe_on_a_local_cluster(tmp_path: Path) -> None:
    pytest.importorskip("dask")
    pytest.importorskip("distributed")
    pytest.importorskip("pyarrow")
    import dask.bag as db
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    runs = tmp_path / "runs"
    runs.mkdir()
    lines = Path(RUN).read_text().splitlines(keepends=True)
    (runs / "a").write_text("".join(lines))
    (runs / "b").write_text("".join(lines[::2]))  # another run: every other line
    evaluator = BlockEvaluator(MEASURES, QRELS)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            paths = sorted(str(p) for p in runs.iterdir())
            means: List[dict] = db.from_sequence(paths, npartitions=2).map(evaluator.means).compute()
            run = dd.read_csv(
                RUN, sep=r"\s+", header=None, names=NAMES, dtype={"query_id": str, "doc_id": str}
            )
            run = run.shuffle("query_id", npartitions=3)
            meta = {"query_id": object, "measure": object, "value": float}
            rows = run.map_partitions(evaluator.frame_block, meta=meta).compute()
    for path, got in zip(paths, means):
        assert {str(k): v for k, v in got.items()} == command_means(path)
    sums = rows.groupby("measure")["value"].sum() / len(evaluator.qrels_ids)
    expected = command_means(RUN)
    assert set(sums.index) == set(expected)
    for name, value in expected.items():
        assert sums[name] == pytest.approx(value, abs=1e-12)


def test_in_memory_qrels_of_every_kind_ir_measures_takes(tmp_path: Path) -> None:
    """A dict of dicts, a DataFrame and Qrel tuples (the qrels ir_measures accepts, which the
    docstring promises) give a BlockEvaluator whose standard measures are ir_measures' own values
    and whose package measures are those of the same qrels read from a file (a dict with a
    standard measure used to stop with an AttributeError)."""
    import ir_measures
    import pandas as pd

    from ir_measures_pres import InputError

    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 1, "d4": 0}}
    tuples = [ir_measures.Qrel(q, d, r) for q, docs in qrels.items() for d, r in docs.items()]
    frame = pd.DataFrame(tuples)
    run = pd.DataFrame(
        {
            "query_id": ["q1", "q1", "q1", "q2", "q2"],
            "doc_id": ["d1", "d2", "d3", "d5", "d1"],
            "score": [2.0, 1.0, 3.0, 2.0, 1.0],
        }
    )
    path = tmp_path / "qrels.txt"
    path.write_text("".join(f"{t.query_id} 0 {t.doc_id} {t.relevance}\n" for t in tuples))
    from_file = {
        (str(m.measure), m.query_id): m.value for m in BlockEvaluator("PRES@10 AP", path).calc_block(run)
    }
    standard = {
        (str(m.measure), m.query_id): m.value
        for m in ir_measures.iter_calc([ir_measures.AP, ir_measures.nDCG @ 10], qrels, run)
    }
    for given in (qrels, frame, tuples):
        got = {
            (str(m.measure), m.query_id): m.value
            for m in BlockEvaluator("AP nDCG@10 PRES@10", given).calc_block(run)
        }
        assert {k: v for k, v in got.items() if not k[0].startswith("PRES")} == pytest.approx(standard)
        assert {k: v for k, v in got.items() if k[0].startswith("PRES")} == {
            k: v for k, v in from_file.items() if k[0].startswith("PRES")
        }
    assert standard[("AP", "q2")] == 0.5  # d1 at rank 2 of 2, the only relevant document
    with pytest.raises(InputError, match="dict of dicts"):
        BlockEvaluator("AP", {"q1": [("d1", 1)]})
