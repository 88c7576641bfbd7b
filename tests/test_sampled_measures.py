"""The sampled-judgement measures on every surface: ir_measures (calc_aggregate, iter_calc), the
main command, the engine behind compare and the meta-evaluation (:class:`Core`).

Expected values: the per-topic lines of NIST's sample_eval.pl in
../shared/data/sampled-judgements/sample_eval/ (both variants, all 17 runs), at their 4 decimals.
The registered measures rank a run as every measure of the package does (scores compared as
float32, pytrec_eval's rule, docs/conventions.md), the ``sampled`` command as the Perl tool does
(doubles): they differ only where two scores are equal in float32 and not in float64, which
happens in one run, on two topics (listed in FLOAT32_TIES and checked to differ).
"""

import io
from pathlib import Path
from typing import Dict, Tuple

import ir_measures
import numpy as np
import pandas as pd
import pytest
from conftest import needs_shared, shared_path

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.inputs import InputError, SampledQrel
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.engine.scores import Core
from ir_measures_pres.measures.sampled.measures import (
    infIPrec,
    infNDCG,
    infP,
    inum_rel,
    inum_rel_ret,
    xinfAP,
)

SAMPLED = shared_path("sampled-judgements")
RUNS = shared_path("real", "trec-robust-2003", "runs")
NAMES = sorted(
    p.name[len("input.") : -len(".sampleval")] for p in (SAMPLED / "sample_eval" / "cds").glob("*")
)
#: (run, variant, line name, topic): where float32 ties reorder the list (see the docstring)
FLOAT32_TIES = {
    ("oce03noXbmD", "cds", "infAP", "350"),
    ("oce03noXbmD", "trecvid", "infAP", "350"),
    ("oce03noXbmD", "trecvid", "infNDCG", "397"),
}

pytestmark = [needs_shared("sampled-judgements"), needs_shared("real", "trec-robust-2003")]


def reference(name: str, variant: str) -> Dict[Tuple[str, str], str]:
    out = {}
    for line in (SAMPLED / "sample_eval" / variant / f"input.{name}.sampleval").read_text().splitlines():
        measure, topic, value = line.split()
        out[(measure, topic)] = value
    return out


def measures_of(variant: str) -> Dict[str, object]:
    ranks = (10, 50, 1000) if variant == "cds" else (5, 10, 15, 20, 30, 100, 200, 500, 1000)
    out = {
        "infAP": xinfAP(variant=variant),
        "infNDCG": infNDCG(variant=variant),
        "inum_rel_ret": inum_rel_ret(variant=variant),
        "inum_rel": inum_rel(variant=variant),
    }
    out.update({f"iP{k}": infP(variant=variant) @ k for k in ranks})
    return out


@pytest.fixture(scope="module")
def qrels():
    return read_qrels(SAMPLED / "qrels.sampled")


@pytest.mark.parametrize("variant", ["cds", "trecvid"])
@pytest.mark.parametrize("name", NAMES)
def test_iter_calc_gives_the_tool_per_topic_lines(qrels, name: str, variant: str) -> None:
    expected = reference(name, variant)
    by_measure = {m: line for line, m in measures_of(variant).items()}
    run = read_run(RUNS / f"input.{name}.gz")
    seen = 0
    for metric in ir_measures.iter_calc(list(by_measure), qrels, run):
        line = by_measure[metric.measure]
        width = "14.4f" if line.startswith("inum") else "6.4f"
        got = format(metric.value, width).strip()
        if (name, variant, line, metric.query_id) in FLOAT32_TIES:
            assert got != expected[(line, metric.query_id)]  # the one documented difference
        else:
            assert got == expected[(line, metric.query_id)], (line, metric.query_id)
        seen += 1
    assert seen == len(by_measure) * 100


@pytest.mark.parametrize("variant", ["cds", "trecvid"])
def test_calc_aggregate_gives_the_tool_means(qrels, variant: str) -> None:
    expected = reference("aplrob03a", variant)
    measures = measures_of(variant)
    levels = [i / 10 for i in range(11)]
    measures.update({f"iprec@rec{x:4.2f}": infIPrec(variant=variant) @ x for x in levels})
    run = read_run(RUNS / "input.aplrob03a.gz")
    got = ir_measures.calc_aggregate(list(measures.values()), qrels, run)
    for line, m in measures.items():
        if line in ("inum_rel", "inum_rel_ret"):  # the tool prints sums; ir_measures means
            assert f"{got[m] * 100:.4f}" == expected[(line, "all")]
        else:
            assert f"{got[m]:6.4f}" == expected[(line, "all")]


def test_main_command_per_topic(capsys: pytest.CaptureFixture[str]) -> None:
    expected = reference("Sel50", "trecvid")
    args = [str(SAMPLED / "qrels.sampled"), str(RUNS / "input.Sel50.gz")]
    assert main([*args, "xinfAP_trecvid infNDCG_trecvid iP_trecvid_15", "-q", "--format", "trec"]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    names = {"xinfAP_trecvid": "infAP", "infNDCG_trecvid": "infNDCG", "iP_trecvid_15": "iP15"}
    for name, topic, value in lines:
        assert value == expected[(names[name.strip()], topic)]
    assert len(lines) == 3 * 101  # 100 topics and 'all'


def test_engine_core_and_reduced_qrels() -> None:
    runs = [RUNS / "input.Sel50.gz", RUNS / "input.uic0301.gz"]
    core = Core(SAMPLED / "qrels.sampled", runs, "xinfAP infP@10", progress=False)
    values = core.evaluate()
    for j, name in enumerate(["Sel50", "uic0301"]):
        expected = reference(name, "cds")
        for i, line in enumerate(["infAP", "iP10"]):
            got = [f"{v:6.4f}" for v in values[i, j]]
            assert got == [expected[(line, t)] for t in core.query_ids]
    # a reduced copy (the meta-evaluation's) keeps the strata of the lines it keeps
    keep = np.ones(len(core.line_labels), dtype=bool)
    keep[::7] = False
    qrels, _ = core.ranked_runs(keep)
    assert qrels.strata is not None and len(qrels.strata) == keep.sum()
    assert np.isfinite(core.evaluate(keep)).all()


def test_dataframe_and_tuples_carry_the_strata(qrels) -> None:
    run = read_run(RUNS / "input.Sel50.gz")
    expected = float(reference("Sel50", "cds")[("infAP", "all")])
    frame = pd.DataFrame(
        {
            "query_id": qrels.query_ids,
            "doc_id": qrels.doc_ids,
            "relevance": qrels.values,
            "stratum": qrels.strata,
        }
    )
    tuples = list(map(SampledQrel, qrels.query_ids, qrels.doc_ids, qrels.values.tolist(), qrels.strata))
    for given in (frame, tuples, qrels):
        got = ir_measures.calc_aggregate([xinfAP, ir_measures.P @ 10], given, run)
        assert round(got[xinfAP], 4) == expected


def test_qrels_without_strata_are_refused() -> None:
    run = {"q": {"a": 1.0}}
    for qrels in ({"q": {"a": 1}}, read_qrels(io.BytesIO(b"q 0 a 1\n"))):
        with pytest.raises(InputError, match="need the qrels' strata: read a 5-column file"):
            ir_measures.calc_aggregate([infNDCG], qrels, run)


def test_command_line_error_for_four_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "q").write_text("q 0 a 1\n")
    (tmp_path / "r").write_text("q Q0 a 1 1 r\n")
    assert main([str(tmp_path / "q"), str(tmp_path / "r"), "xinfAP"]) == 1
    err = capsys.readouterr().err  # the command line's words: the columns the file needs
    assert "expected sampled judgements, 5 columns (qid iter docno stratum relevance)" in err


def test_pyterrier_experiment_with_a_stratum_column(qrels) -> None:
    pt = pytest.importorskip("pyterrier")
    run = read_run(RUNS / "input.aplrob03a.gz")
    frame = pd.DataFrame({"qid": qrels.query_ids, "docno": qrels.doc_ids, "label": qrels.values})
    frame["stratum"] = qrels.strata
    results = pd.DataFrame({"qid": run.query_ids, "docno": run.doc_ids, "score": run.values})
    topics = pd.DataFrame({"qid": sorted(set(qrels.query_ids)), "query": "x"})
    table = pt.Experiment(
        [results], topics, frame, eval_metrics=["xinfAP", "infNDCG", "iP_10"], names=["apl"]
    )
    expected = reference("aplrob03a", "cds")
    for column, line in (("xinfAP", "infAP"), ("infNDCG", "infNDCG"), ("iP_10", "iP10")):
        assert f"{table[column][0]:6.4f}" == expected[(line, "all")]


@pytest.mark.parametrize(
    "token, message",
    [
        ("xinfAP(depth=0)", "parameter 'depth' must be an integer from 1 to 10000000, got 0"),
        ("infNDCG(variant='x')", "parameter 'variant' must be one of ['cds', 'trecvid'], got 'x'"),
        ("infP", "infP requires the parameter 'cutoff'"),
        ("infIPrec@0.55", "must be one of the tool's levels 0.0, 0.1, ..., 1.0, got 0.55"),
    ],
)
def test_bad_parameters_are_named(token: str, message: str) -> None:
    from ir_measures_pres.measures.catalogue import MeasureNameError, parse_measures

    with pytest.raises(MeasureNameError) as raised:
        parse_measures(token)
    assert message in str(raised.value)
