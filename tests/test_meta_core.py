"""The meta-evaluation's evaluation core (ir_measures_pres.meta._core).

Expected values come from pytrec_eval / the package's ir_measures provider (through
``ir_measures.iter_calc`` on the same qrels and runs), from the core's own ranking builder
(``rank_run`` on the reduced qrels, ``RankedRun.relabel``), from NIST's official MAP of the TREC
2003 Robust runs, and from arithmetic written out in the tests.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import ir_measures
import numpy as np
import pytest
from conftest import shared_data

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.data.qrels import Qrels
from ir_measures_pres.data.ranking import rank_run
from ir_measures_pres.data.runfiles import run_name
from ir_measures_pres.engine.scores import resolve_runs
from ir_measures_pres.measures.standard.kernels import STANDARD_KERNELS
from ir_measures_pres.meta import Core, Scores, evaluate, parse_measures
from ir_measures_pres.meta.sampling import f_qrels_mask, sample_rng

pytest.importorskip("pandas")


def random_collection(seed: int, n_queries: int = 12, n_runs: int = 4, ties: bool = True):
    """Graded qrels (labels 0-2, a query without relevant documents, a query no run has) and
    runs with tied scores, unjudged documents and a query missing from one run."""
    rng = np.random.default_rng(seed)
    docs = [f"d{i:03d}" for i in range(80)]
    qrels = {}
    for q in range(n_queries):
        judged = rng.choice(docs, 35, replace=False)
        qrels[f"q{q}"] = {str(d): int(rng.choice([0, 0, 0, 1, 1, 2])) for d in judged}
    qrels["q1"] = {d: 0 for d in qrels["q1"]}  # no relevant document
    runs = {}
    for r in range(n_runs):
        run = {}
        for q in range(n_queries - 1):  # the last query is in no run
            if r == 1 and q == 4:
                continue
            ranked = rng.choice(docs, int(rng.integers(5, 60)), replace=False)
            scores = rng.integers(0, 6, len(ranked)) if ties else rng.random(len(ranked))
            run[f"q{q}"] = {str(d): float(s) for d, s in zip(ranked, scores)}
        runs[f"r{r}"] = run
    return qrels, runs


FAST = (
    "AP AP@10 AP(rel=2)@20 AP(judged_only=True) P@5 P(rel=2)@10 P(judged_only=True)@5 R@10 R@50 "
    "R(judged_only=True)@10 nDCG nDCG@10 nDCG(judged_only=True)@10 nDCG(gains={0:0,1:1,2:5})@10 RR "
    "RR(judged_only=True) Rprec Rprec(rel=2) Success@3 Bpref Bpref(rel=2)"
)


def reference(measures, qrels, runs):
    """values[m, r, q] from ir_measures (pytrec_eval and the package's provider), one measure per
    call: ir_measures 0.4.3 mixes up nDCG's gains when nDCG and nDCG(gains=...) share a call
    (for about half of the hash seeds), which would make the reference wrong."""
    qids = list(qrels)
    out = np.full((len(measures), len(runs), len(qids)), np.nan)
    for i, measure in enumerate(measures):
        for j, run in enumerate(runs.values()):
            for metric in ir_measures.iter_calc([measure], qrels, run):
                out[i, j, qids.index(metric.query_id)] = metric.value
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_kernels_equal_pytrec_eval_per_query(seed):
    qrels, runs = random_collection(seed)
    core = Core(qrels, runs, FAST, progress=False)
    assert [kind for kind, _ in core._plan] == ["fast"] * len(core.measures)
    np.testing.assert_allclose(core.evaluate(), reference(core.measures, qrels, runs), rtol=0, atol=1e-12)


def test_every_fast_measure_is_tested():
    tested = {m.NAME for m in parse_measures(FAST)}
    assert tested == set(STANDARD_KERNELS)


@pytest.mark.parametrize("seed", [0, 1])
def test_plugin_measures_equal_the_provider(seed):
    qrels, runs = random_collection(seed)
    measures = "PRES@20 PRES(judged_only=True)@10 QMeasure QMeasure(beta=0.5)@10 OMeasure PMeasure Bpref10"
    core = Core(qrels, runs, measures, progress=False)
    assert {kind for kind, _ in core._plan} == {"plugin"}
    np.testing.assert_allclose(core.evaluate(), reference(core.measures, qrels, runs), rtol=0, atol=1e-12)


def test_fallback_measures_equal_ir_measures_on_tie_free_runs():
    # other providers (judged, set measures ...) see our ranking through synthetic scores; on
    # runs without ties their own ordering is the same, so the values must be equal
    qrels, runs = random_collection(3, ties=False)
    core = Core(qrels, runs, "Judged@10 SetP SetR infAP AP@10", progress=False)
    assert [kind for kind, _ in core._plan] == ["fallback"] * 4 + ["fast"]
    np.testing.assert_allclose(core.evaluate(), reference(core.measures, qrels, runs), rtol=0, atol=1e-12)


def test_missing_queries_get_default_and_means_cover_all_qrels_queries():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1, "d": 1}}
    runs = {"x": {"q1": {"a": 1.0}}, "y": {"q1": {"z": 1.0}, "q3": {"c": 2.0, "d": 1.0}}}
    scores = evaluate(qrels, runs, "AP PRES@10", progress=False)
    assert scores.query_ids == ["q1", "q2", "q3"]
    ap = scores.values[0]
    np.testing.assert_array_equal(ap, [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(scores.means()[0], [1 / 3, 1 / 3])
    # PRES@10, run x, q1: relevant at rank 1, n = 1 -> 1 - (1 - 1) / 10 = 1; missing queries 0
    assert scores.values[1, 0].tolist() == [1.0, 0.0, 0.0]


def test_reduced_ranking_equals_ranking_against_the_reduced_qrels():
    qrels, runs = random_collection(4)
    core = Core(qrels, runs, "AP", progress=False)
    keep = f_qrels_mask(core.line_qidx, core.line_labels, len(core.query_ids), 0.4, sample_rng(5, 0.4, 1))
    reduced, ranked = core.ranked_runs(keep)
    full = Qrels.from_any(qrels)
    for run, mine in zip(runs.values(), ranked):
        direct = rank_run(run, reduced)
        np.testing.assert_array_equal(mine.labels, direct.labels)
        np.testing.assert_array_equal(mine.offsets, direct.offsets)
        np.testing.assert_array_equal(mine.qpos, direct.qpos)
        np.testing.assert_array_equal(mine.labels, rank_run(run, full).relabel(reduced).labels)
    # and the scores equal ir_measures on the reduced qrels written as a dict
    reduced_dict = {q: dict(d) for q, d in zip(reduced.query_ids, reduced.lookup)}
    np.testing.assert_allclose(
        core.evaluate(keep)[0], reference(core.measures, reduced_dict, runs)[0], atol=1e-12
    )


def test_full_qrels_ranking_equals_rank_run():
    qrels, runs = random_collection(6)
    core = Core(qrels, runs, "AP", progress=False)
    full = Qrels.from_any(qrels)
    for run, mine in zip(runs.values(), core.ranked):
        np.testing.assert_array_equal(mine.labels, rank_run(run, full).labels)


def test_parse_measures_splits_outside_brackets_and_dedups():
    got = parse_measures(["AP@100 QMeasure(beta=0.5, gains={1: 1, 2: 3})@10", "AP@100", "PRES@1000"])
    assert [str(m) for m in got] == [
        str(ir_measures.parse_measure("AP@100")),
        str(ir_measures.parse_measure("QMeasure(beta=0.5,gains={1:1,2:3})@10")),
        "PRES@1000",
    ]
    with pytest.raises(ValueError, match="NoSuchMeasure"):
        parse_measures("AP NoSuchMeasure@3")
    with pytest.raises(ValueError, match="cutoff required"):
        parse_measures("Success")
    # one catalogue for every surface: 'P' is trec_eval's P, at its default cutoffs, as on the CLI
    assert parse_measures("P") == [ir_measures.P @ k for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    with pytest.raises(ValueError, match="must be an integer from 1 to"):
        parse_measures("PRES(cutoff=0)")
    with pytest.raises(ValueError, match="no measure"):
        parse_measures("   ")


def test_runs_from_a_directory_and_names(tmp_path: Path):
    qrels = {"q1": {"a": 1, "b": 0}}
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "first").write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\n")
    with gzip.open(tmp_path / "runs" / "input.second.gz", "wt") as f:
        f.write("q1 Q0 b 1 2.0 t\nq1 Q0 a 2 1.0 t\n")
    (tmp_path / "runs" / ".hidden").write_text("ignored")
    assert [n for n, _ in resolve_runs(tmp_path / "runs")] == ["first", "input.second"]
    assert run_name("input.uwmtCR0.gz") == "input.uwmtCR0"
    scores = evaluate(qrels, tmp_path / "runs", "RR", progress=False)
    assert scores.runs == ["first", "input.second"]
    assert scores.values[0, :, 0].tolist() == [1.0, 0.5]
    with pytest.raises(ValueError, match="at least 2 runs"):
        Core(qrels, [tmp_path / "runs" / "first"], "AP", progress=False)


def test_scores_frame_round_trip():
    qrels, runs = random_collection(7, n_queries=5, n_runs=3)
    scores = evaluate(qrels, runs, "AP P@5", progress=False)
    df = scores.frame()
    assert len(df) == 2 * 3 * 5
    assert Scores.from_frame(df).measures == scores.measures  # order of first appearance
    back = Scores.from_frame(df.sample(frac=1.0, random_state=1))
    assert set(back.measures) == set(scores.measures) and set(back.runs) == set(scores.runs)
    order_m = [back.measures.index(m) for m in scores.measures]
    order_r = [back.runs.index(r) for r in scores.runs]
    order_q = [back.query_ids.index(q) for q in scores.query_ids]
    np.testing.assert_array_equal(back.values[order_m][:, order_r][:, :, order_q], scores.values)
    with pytest.raises(ValueError, match="missing"):
        Scores.from_frame(df.iloc[1:])


def test_ap_equals_nist_official_map_on_trec_robust_2003():
    base = shared_data("real", "trec-robust-2003")
    official = dict(
        line.split("\t")
        for line in (base / "expected" / "nist_official_map.tsv").read_text().split("\n")[1:]
        if line
    )
    names = ["input.pircRBa1", "input.rutcor03100", "input.NLPR03vb10"]  # ties, depth 10 runs included
    runs = {n: base / "runs" / f"{n}.gz" for n in names}
    scores = evaluate(base / "qrels" / "robust03_qrels.txt", runs, "AP", progress=False)
    for j, n in enumerate(names):
        assert round(float(scores.means()[0, j]), 4) == float(official[n.split(".", 1)[1]])


def test_progress_goes_to_stderr_through_tqdm_and_quiet_silences_it(capsys):
    qrels, runs = random_collection(8, n_queries=4, n_runs=2)
    evaluate(qrels, runs, "AP", progress=True)
    out = capsys.readouterr()
    # the bar is drawn on stderr and, with leave=False, erased at the end (its last write is a \r)
    assert "ranking runs" in out.err and "/2 " in out.err and out.err.endswith("\r") and out.out == ""
    evaluate(qrels, runs, "AP", progress=False)
    assert capsys.readouterr() == ("", "")


def test_a_qrels_file_gives_its_topics_in_id_order_whatever_its_line_order(tmp_path: Path) -> None:
    """Seeded draws index topics: the same judgements in another line order give the same
    topics in the same order, so the same per-topic matrix the experiments draw from."""
    rng = np.random.default_rng(5)
    topics = ["q2", "q10", "q1", "é", "q21", "Q3"]
    judged = [f"{q} 0 d{d} {rng.integers(0, 2)}\n" for q in topics for d in range(8)]
    runs = {}
    for r in "ab":
        lines = [f"{q} Q0 d{d} {d} {rng.random():.4f} {r}\n" for q in topics for d in range(8)]
        runs[r] = tmp_path / f"run_{r}"
        runs[r].write_text("".join(lines), encoding="utf-8")
    files = []
    for k, order in enumerate([judged, judged[::-1]]):
        files.append(tmp_path / f"qrels{k}")
        files[-1].write_text("".join(order), encoding="utf-8")
    cores = [Core(f, [(r, p) for r, p in runs.items()], "AP P@5", progress=False) for f in files]
    # UTF-8 byte order: capitals first, 'é' (0xC3 0xA9) last
    assert cores[0].query_ids == cores[1].query_ids == ["Q3", "q1", "q10", "q2", "q21", "é"]
    assert np.array_equal(cores[0].evaluate(), cores[1].evaluate())
