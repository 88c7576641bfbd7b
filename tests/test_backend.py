"""The standard measures of the command (``_backend.StandardMeasures``): pytrec_eval fed in batches
of queries, already ranked, unjudged documents renamed. Every value must be what pytrec_eval
gives on the original run, handed over as written (original ids and scores), and every mean the
same to the last bit as the whole-run path's.

The expected values are pytrec_eval's, called here directly on dicts built from the files by
plain Python (no package code), one ``RelevanceEvaluator`` per relevance level and flag.
"""

from __future__ import annotations

import gzip
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import ir_measures
import pytest
import pytrec_eval
from conftest import shared_data
from ir_measures import (
    AP,
    RR,
    Bpref,
    IPrec,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    Rprec,
    SetF,
    SetP,
    SetR,
    Success,
    infAP,
    nDCG,
)

import ir_measures_pres.engine.backend as backend
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.engine.evaluation import Evaluation

# measure -> (pytrec_eval measure name, relevance_level, judged_docs_only_flag)
STANDARD: Dict[Any, Tuple[str, int, int]] = {
    AP: ("map", 1, 0),
    AP @ 5: ("map_cut_5", 1, 0),
    AP(judged_only=True): ("map", 1, 1),
    P @ 10: ("P_10", 1, 0),
    P(rel=2) @ 5: ("P_5", 2, 0),
    P(judged_only=True) @ 5: ("P_5", 1, 1),
    nDCG: ("ndcg", 1, 0),
    nDCG @ 10: ("ndcg_cut_10", 1, 0),
    R @ 1000: ("recall_1000", 1, 0),
    R @ 5: ("recall_5", 1, 0),
    Rprec: ("Rprec", 1, 0),
    RR: ("recip_rank", 1, 0),
    Bpref: ("bpref", 1, 0),
    infAP: ("infAP", 1, 0),
    SetP: ("set_P", 1, 0),
    SetR: ("set_recall", 1, 0),
    SetF: ("set_F", 1, 0),
    NumRet: ("num_ret", 1, 0),
    NumRet(rel=1): ("num_rel_ret", 1, 0),
    NumRel: ("num_rel", 1, 0),
    Success @ 5: ("success_5", 1, 0),
    IPrec @ 0.2: ("iprec_at_recall_0.20", 1, 0),
}


def _lines(path: Path) -> List[List[str]]:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.split() for line in f if line.strip()]


def _expected(qrels_path: Path, run_path: Path) -> Dict[Tuple[str, Any], float]:
    qrels: Dict[str, Dict[str, int]] = {}
    for q, _, d, rel in _lines(qrels_path):
        qrels.setdefault(q, {})[d] = int(rel)
    run: Dict[str, Dict[str, float]] = {}
    for q, _, d, _, score, *_ in _lines(run_path):
        run.setdefault(q, {})[d] = float(score)
    out: Dict[Tuple[str, Any], float] = {}
    for measure, (name, rel, judged) in STANDARD.items():
        ev = pytrec_eval.RelevanceEvaluator(qrels, {name}, relevance_level=rel, judged_docs_only_flag=judged)
        for qid, values in ev.evaluate(run).items():
            out[(qid, measure)] = values[name]
    return out


def _ours(qrels_path: Path, run_path: Path) -> Dict[Tuple[str, Any], float]:
    evaluation = Evaluation(list(STANDARD), read_qrels(qrels_path, doc_ids="bytes"))
    assert evaluation.others is not None and set(evaluation.others.batched) == set(STANDARD)
    evaluation.others._whole_run = lambda *a: pytest.fail("the run was not fed in batches")  # type: ignore[method-assign]
    run = read_run(run_path, doc_ids="bytes")
    return {(m.query_id, m.measure): m.value for m in evaluation.iter_calc(run)}


def _check(qrels_path: Path, run_path: Path) -> None:
    expected = _expected(qrels_path, run_path)
    got = _ours(qrels_path, run_path)
    for key, value in expected.items():
        assert got[key] == value, (run_path.name, key)
    # the qrels queries the run lacks get the DEFAULT, as ir_measures gives them
    for key in set(got) - set(expected):
        assert got[key] == key[1].DEFAULT, key


def _write(path: Path, rows: List[str]) -> Path:
    path.write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def _random_case(tmp_path: Path, seed: int) -> Tuple[Path, Path]:
    """Tie-heavy scores (a few distinct values, some differing beyond float32), non-ASCII ids,
    graded and negative labels, duplicates in the run, queries only in one of the two files."""
    rng = random.Random(seed)
    pool = [f"d{i}" for i in range(40)] + ["é1", "文書", "z-9", "D10", "d1a"]
    qrels_rows, run_rows = [], []
    for q in range(12):
        qid = f"q{q}"
        if q != 11:
            for d in rng.sample(pool, rng.randint(1, 15)):
                qrels_rows.append(f"{qid} 0 {d} {rng.choice([-1, 0, 0, 1, 2, 3])}")
        if q not in (3, 7):
            depth = rng.randint(1, 30)
            docs = rng.sample(pool, depth) + rng.sample(pool, 2)  # two duplicates: last line wins
            for r, d in enumerate(docs):
                score = rng.choice([1.0, 2.0, 2.5, 100000.001, 100000.002, -3.0])
                run_rows.append(f"{qid} Q0 {d} {r} {score} tag")
    rng.shuffle(run_rows)  # queries interleaved: not grouped, not in score order
    return _write(tmp_path / f"qrels{seed}", qrels_rows), _write(tmp_path / f"run{seed}", run_rows)


@pytest.mark.parametrize("seed", range(8))
def test_random_tie_heavy_runs_give_pytrec_evals_values(tmp_path: Path, seed: int, monkeypatch: Any) -> None:
    monkeypatch.setattr(backend, "GROUP_QUERIES", 5)  # several groups, some without a run query
    with pytest.warns(UserWarning, match="duplicate"):
        _check(*_random_case(tmp_path, seed))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks are used on Linux only")
@pytest.mark.parametrize("seed", range(3))
def test_batches_scored_in_forked_processes_give_the_same_metrics_in_the_same_order(
    tmp_path: Path, seed: int, monkeypatch: Any
) -> None:
    """A large run's groups are scored by forked processes (here every run is large): the metrics,
    their order included (it decides the last bit of a mean), are those of one process, and
    pytrec_eval's values."""
    monkeypatch.setattr(backend, "GROUP_QUERIES", 5)
    monkeypatch.setattr(backend, "PARALLEL_MIN_LINES", 0)
    calls: List[Tuple[int, int]] = []
    real = backend.forked_map

    def spy(work: Any, items: Any, processes: int) -> Any:
        items = list(items)
        calls.append((len(items), processes))
        return real(work, items, processes)

    monkeypatch.setattr(backend, "forked_map", spy)
    qrels, run = _random_case(tmp_path, seed)
    metrics = {}
    for processes in (1, 3):
        evaluation = Evaluation(list(STANDARD), read_qrels(qrels, doc_ids="bytes"), processes=processes)
        with pytest.warns(UserWarning, match="duplicate"):
            metrics[processes] = list(evaluation.iter_calc(read_run(run, doc_ids="bytes")))
    assert calls == [(1, 1), (3, 3)]  # 11 qrels queries in 3 groups of 5: one to each of 3 processes
    assert metrics[3] == metrics[1] and len(metrics[1]) == 11 * len(STANDARD)  # every qrels query
    expected = _expected(qrels, run)
    got = {(m.query_id, m.measure): m.value for m in metrics[3]}
    assert all(got[key] == value for key, value in expected.items())


def test_every_robust_2003_run_gives_pytrec_evals_values() -> None:
    folder = shared_data("real", "trec-robust-2003")
    qrels = folder / "qrels" / "robust03_qrels.txt"
    for run in sorted((folder / "runs").iterdir()):
        _check(qrels, run)


def _cli(args: List[str], capsys: Any) -> str:
    assert main(args) == 0
    return str(capsys.readouterr().out)


def test_means_are_those_of_the_whole_run_path_to_the_last_bit(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    qrels, run = _random_case(tmp_path, 99)
    measures = "AP P@10 nDCG@10 R@1000 Bpref infAP NumQ NumRet PRES@1000"
    batched = _cli([str(qrels), str(run), measures, "-p", "-1"], capsys)
    monkeypatch.setattr(backend.StandardMeasures, "_can_batch", lambda self, run, ranked: False)
    whole = _cli([str(qrels), str(run), measures, "-p", "-1"], capsys)
    assert batched == whole and batched.count("\n") == 9


def test_a_qrels_id_that_looks_like_a_placeholder_sends_the_run_whole(tmp_path: Path) -> None:
    """An unjudged document is handed over as ' <rank>'; a qrels id starting with a blank (only
    possible outside the TREC files) could meet one, so such qrels go the whole-run way."""
    import pandas as pd

    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": [" 1", "d2"], "relevance": [1, 1]})
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["x", "d2"], "score": [2.0, 1.0]})
    from ir_measures_pres.data.inputs import as_columns, predict_kind

    q_cols = as_columns(qrels, predict_kind(qrels, "qrels"), "relevance", "qrels")
    evaluation = Evaluation([AP, NumRet(rel=1)], q_cols)
    assert evaluation.others is not None and not evaluation.others._placeholders_safe
    values = {
        m.measure: m.value
        for m in evaluation.iter_calc(as_columns(run, predict_kind(run, "run"), "score", "run"))
    }
    assert values == {AP: (1 / 2) / 2, NumRet(rel=1): 1}  # d2 relevant at rank 2 of R = 2


def test_measures_of_other_providers_still_come_from_them(tmp_path: Path, capsys: Any) -> None:
    """RR@10 is msmarco's (pytrec_eval has no RR cutoff): it takes the whole-run path."""
    qrels = _write(tmp_path / "qrels", ["q1 0 a 1", "q1 0 b 0", "q2 0 c 1"])
    run = _write(tmp_path / "run", ["q1 Q0 b 1 3 t", "q1 Q0 a 2 2 t", "q2 Q0 x 1 1 t"])
    evaluation = Evaluation([RR @ 10, AP, NumQ], read_qrels(qrels, doc_ids="bytes"))
    assert evaluation.others is not None
    assert evaluation.others.whole == [RR @ 10] and evaluation.others.batched == [AP, NumQ]
    values = {
        (m.query_id, str(m.measure)): m.value for m in evaluation.iter_calc(read_run(run, doc_ids="bytes"))
    }
    assert values[("q1", "RR@10")] == 1 / 2 and values[("q2", "RR@10")] == 0
    assert values[("q1", "AP")] == 1 / 2 and values[("q2", "AP")] == 0


def test_one_evaluation_scores_many_runs_with_the_qrels_prepared_once(
    tmp_path: Path, monkeypatch: Any
) -> None:
    qrels, run_a = _random_case(tmp_path, 5)
    _, run_b = _random_case(tmp_path, 6)
    made: List[Any] = []
    real = ir_measures.evaluator
    monkeypatch.setattr(ir_measures, "evaluator", lambda *a, **k: made.append(a) or real(*a, **k))
    monkeypatch.setattr(backend, "GROUP_QUERIES", 4)
    evaluation = Evaluation([AP, P @ 10], read_qrels(qrels, doc_ids="bytes"))
    groups = len(made)
    assert groups == 3  # 12 qrels queries (11 with judgements) in groups of 4
    with pytest.warns(UserWarning):
        first = list(evaluation.iter_calc(read_run(run_a, doc_ids="bytes")))
        second = list(evaluation.iter_calc(read_run(run_b, doc_ids="bytes")))
    assert len(made) == groups  # no evaluator made for the runs
    fresh = Evaluation([AP, P @ 10], read_qrels(qrels, doc_ids="bytes"))
    with pytest.warns(UserWarning):
        assert second == list(fresh.iter_calc(read_run(run_b, doc_ids="bytes")))
    assert first != second


def test_num_ret_beside_a_judged_only_measure_counts_every_document(tmp_path: Path) -> None:
    """ir_measures' pytrec_eval provider puts NumRet into whichever pytrec_eval invocation comes
    first, a judged-only one included, where num_ret counts the judged documents only; which
    comes first follows the hash seed (9 did it). Every seed must give the run's 3 documents."""
    qrels = _write(tmp_path / "qrels", ["q1 0 a 1", "q1 0 b 0"])
    run = _write(tmp_path / "run", ["q1 Q0 a 1 3 r", "q1 Q0 x 2 2 r", "q1 Q0 b 3 1 r"])
    for seed in range(16):
        out = subprocess.run(
            [sys.executable, "-m", "ir_measures_pres", str(qrels), str(run), "AP(judged_only=True) NumRet"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            check=True,
        ).stdout
        # AP on the judged documents only (a, b): a at rank 1 = 1; NumRet: a, x and b
        assert out == "AP(judged_only=True)\t1.0000\nNumRet\t3.0000\n", (seed, out)
