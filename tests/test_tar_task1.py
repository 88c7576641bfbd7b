"""TAR measures for the 2018 tool's Task 1: ``task=1``, N = 5000 minus the documents valued -1
or above 2 (spec §1, §3 "Task 1"), on every measure that reads N.

Expected values are arithmetic written out below from the tool's rules (docs/tar.md), and the
registered measures are compared with the ``tar --edition 2018 --task 1`` command's per-topic
lines (the command and the measures take N from one function, ``tar.candidate_counts``).
"""

from __future__ import annotations

import contextlib
import gzip
from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import pandas as pd
import pytest
from conftest import DATA
from test_tar_measures import rows, run_tar, t18

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.measures.catalogue import parse_measures

TAR = DATA / "clef-tar-2017"


def per_query(measures: List[object], qrels: object, run: object) -> Dict[Tuple[str, object], float]:
    return {(m.query_id, m.measure): m.value for m in ir_measures.iter_calc(measures, qrels, run)}


# --------------------------------------------------------------------------------------------
# Task 1, by hand: -1, 3 and 4 in the qrels, two flags, a topic without a flag
# --------------------------------------------------------------------------------------------

QRELS_T1 = (
    # A: d1..d10 (R = 3: d1, d2, d5) and m1 (-1), x3 (3), x4 (4): Task 1 N = 5000 - 3 = 4997
    "".join(f"A 0 d{i} {1 if i in (1, 2, 5) else 0}\n" for i in range(1, 11))
    + "A 0 m1 -1\nA 0 x3 3\nA 0 x4 4\n"
    # B: e1 (relevant), e2, e3 (-1): Task 1 N = 5000 - 1 = 4999
    + "B 0 e1 1\nB 0 e2 0\nB 0 e3 -1\n"
)
RUN_T1 = (
    "A 0 d1 1 0 x\n"  # line 1, relevant
    "A 0 d3 2 0 x\n"  # line 2
    "A 0 x3 3 0 x\n"  # value 3: dropped
    "A 1 d2 4 0 x\n"  # line 3, relevant, the first flag
    "A 0 m1 5 0 x\n"  # line 4, value -1: shown, non-relevant
    "A 0 d4 6 0 x\n"  # line 5
    "A 1 d6 7 0 x\n"  # line 6, the last flag: T = 6
    "A 0 d5 8 0 x\n"  # line 7, relevant
    "B 0 e2 1 0 x\n"  # line 1
    "B 0 e1 2 0 x\n"  # line 2, relevant; no flag in B: T = N, every line seen
)
N_A, N_B = 5000 - 3, 5000 - 1
# A: area = sum over lines of (cg before + rel / 2) = .5 + 1 + 1.5 + 2 + 2 + 2 + 2.5 = 11.5,
# plus (N - n) found for the documents never shown; max = R N' - R^2 / 2
AREA_A = (11.5 + (N_A - 7) * 3) / (3 * N_A - 9 / 2)
AREA_B = (0 + 0.5 + (N_B - 2) * 1) / (1 * N_B - 1 / 2)

#: measure -> the Task 1 values of A and B, written from the tool's rules
TASK1: Dict[str, Tuple[float, float]] = {
    "NumCandidates(task=1)": (N_A, N_B),
    "NumCandidates": (10, 2),  # the qrels' candidates (values 0-2): task 2, the default
    "NumShown": (7, 2),
    "NumShown(rel=1)": (3, 1),
    "LastRel": (7, 2),
    "LastRel(normalised=True,task=1)": (7 / N_A, 2 / N_B),
    "Threshold(task=1)": (6, N_B),  # B has no flag: T = N
    "Threshold(normalised=True,task=1)": (6 / N_A, N_B / N_B),
    "Threshold(flag='first')": (3, 2),
    "WSS(recall=1.0,task=1)": ((N_A - 7) / N_A, (N_B - 2) / N_B),
    # round(0.95 * 3) = 3 relevant (k = 7); round(0.95 * 1) = 1 (k = 2)
    "WSS(task=1)": ((N_A - 7) / N_A - 0.05, (N_B - 2) / N_B - 0.05),
    "NormArea(task=1)": (AREA_A, AREA_B),
    # A seen = lines 1-3: d1 -19, d3 1, d2 -19; unseen d5 20; R - found seen = 1 missed: 20
    # B seen = both lines: e2 1, e1 -19
    "TarUtility": (-19 + 1 - 19 + 20 + 1 * 20, 1 - 19),
    "RecallAtThreshold(flag='first')": (2 / 3, 1 / 1),
    "RecallAtThreshold(task=1)": (2 / 3, 1 / 1),  # cg at line 6: d1, d2; B: all lines
    # loss_e = (100 / N')^2 (n / (R + 100))^2, n = lines seen (threshold=True)
    "TarLoss(part='e',threshold=True,task=1)": (
        (100 / N_A) ** 2 * (3 / 103) ** 2,
        (100 / N_B) ** 2 * (2 / 101) ** 2,
    ),
}


@pytest.fixture
def task1_files(tmp_path: Path) -> Tuple[Path, Path]:
    (tmp_path / "qrels").write_text(QRELS_T1)
    (tmp_path / "run").write_text(RUN_T1)
    return tmp_path / "qrels", tmp_path / "run"


def test_task1_measures_by_hand(task1_files: Tuple[Path, Path]) -> None:
    qrels_path, run_path = task1_files
    frame = read_run(run_path, order="file").frame()
    measures = {key: parse_measures(key)[0] for key in TASK1}
    got = per_query(list(measures.values()), read_qrels(qrels_path), frame)
    for key, (a, b) in TASK1.items():
        assert got[("A", measures[key])] == pytest.approx(a, abs=1e-12), key
        assert got[("B", measures[key])] == pytest.approx(b, abs=1e-12), key


def test_task1_through_calc_aggregate(task1_files: Tuple[Path, Path]) -> None:
    """The aggregates ir_measures makes of them: sums for the counts, means otherwise."""
    qrels_path, run_path = task1_files
    frame = read_run(run_path, order="file").frame()
    n, shown, wss = parse_measures("NumCandidates(task=1) NumShown WSS(recall=1.0,task=1)")
    got = ir_measures.calc_aggregate([n, shown, wss], read_qrels(qrels_path), frame)
    assert got[n] == N_A + N_B
    assert got[shown] == 7 + 2
    assert got[wss] == pytest.approx(((N_A - 7) / N_A + (N_B - 2) / N_B) / 2)


def test_task_changes_only_n(task1_files: Tuple[Path, Path]) -> None:
    """task=2 (default) keeps the qrels' candidate count: N_A = 10 (d1..d10), N_B = 2."""
    qrels_path, run_path = task1_files
    frame = read_run(run_path, order="file").frame()
    plain, task2, task1 = (
        parse_measures(s)[0] for s in ("WSS(recall=1.0)", "WSS(recall=1.0,task=2)", "WSS(recall=1.0,task=1)")
    )
    assert task2 == plain and str(task2) == "WSS(recall=1.0)"
    got = per_query([plain, task1], read_qrels(qrels_path), frame)
    assert got[("A", plain)] == pytest.approx((10 - 7) / 10)
    assert got[("A", task1)] == pytest.approx((N_A - 7) / N_A)


#: Task 1's per-topic lines and the registered measures that give them
TASK1_LINES = {
    "NumShown": "num_shown",
    "NumShown(rel=1)": "rels_found",
    "LastRel": "last_rel",
    "LastRel(normalised=True,task=1)": "norm_last_rel",
    "Threshold(task=1)": "threshold",
    "Threshold(normalised=True,task=1)": "norm_threshold",
    "WSS(recall=1.0,task=1)": "wss_100",
    "WSS(task=1)": "wss_95",
    "TarUtility": "total_cost",
    "NormArea(task=1)": "norm_area",
    "RecallAtThreshold(flag='first')": "recall_at_threshold",
    "Threshold(flag='first')": "recall_threshold",
}
#: with qrels without values 3 and 4 (ir_measures counts those as relevant and ranks them)
TASK1_LINES_NO_34 = {
    **TASK1_LINES,
    "NumRel": "num_rels",
    "AP": "ap",
    **{f"R@{k}": f"recall@{k}" for k in (50, 100, 200, 300, 400, 500, 1000, 2000, 3000, 4000, 5000)},
}


def _same_as_command(measures: Dict[str, object], lines: Dict[str, str], got: Dict, command: Dict) -> None:
    topics = {q for q, _ in command if q != "ALL"}
    assert topics
    for key, line in lines.items():
        for q in topics:
            want, value = command[(q, line)], float(got[(q, measures[key])])
            if line in ("threshold", "recall_threshold", "num_shown", "rels_found", "last_rel", "num_rels"):
                assert str(int(value)) == want, (q, key)
            elif want == "0":  # wss_* when the target is not reached: the tool's int 0
                assert value == 0.0, (q, key)
            else:
                assert t18(value) == want, (q, key)


def test_task1_measures_equal_the_tar_command(task1_files: Tuple[Path, Path]) -> None:
    qrels_path, run_path = task1_files
    code, out, _ = run_tar("--edition", "2018", "--task", "1", qrels_path, run_path)
    assert code == 0
    command = rows(out)
    frame = read_run(run_path, order="file").frame()
    measures = {key: parse_measures(key)[0] for key in TASK1_LINES}
    got = per_query(list(measures.values()), read_qrels(qrels_path), frame)
    _same_as_command(measures, TASK1_LINES, got, command)
    # the hand values are the command's too
    assert command[("A", "norm_last_rel")] == t18(7 / N_A)
    assert command[("B", "threshold")] == str(N_B)
    assert command[("A", "total_cost")] == t18(20.0 - 37 + 20)


def test_task1_measures_in_pyterrier_equal_the_tar_command(task1_files: Tuple[Path, Path]) -> None:
    """The Task 1 measures as strings in pt.Evaluate, the flags in the results' 'iteration'
    column (PyTerrier hands the frame over with it)."""
    pt = pytest.importorskip("pyterrier")
    qrels_path, run_path = task1_files
    _, out, _ = run_tar("--task", "1", qrels_path, run_path)
    cols = read_qrels(qrels_path)
    qrels = pd.DataFrame({"qid": cols.query_ids, "docno": cols.doc_ids, "label": cols.values})
    results = read_run(run_path, order="file").frame().rename(columns={"query_id": "qid", "doc_id": "docno"})
    got = pt.Evaluate(results, qrels, metrics=list(TASK1_LINES), perquery=True)
    measures = {key: key for key in TASK1_LINES}
    flat = {(q, key): value for q, values in got.items() for key, value in values.items()}
    _same_as_command(measures, TASK1_LINES, flat, rows(out))


def _flagged_run(path: Path, src: Path) -> None:
    """A CLEF 2017 run with its codes replaced by 2018 flags: line 40 of every topic flagged,
    and line 150 of every other topic (two flags: first and last differ); some topics none."""
    out: List[str] = []
    topic, i, t = None, 0, -1
    with gzip.open(src, "rt") as f:
        for line in f:
            q, _, rest = line.split(None, 2)
            if q != topic:
                topic, i, t = q, 0, t + 1
            i += 1
            flag = 1 if (i == 40 and t % 5 != 4) or (i == 150 and t % 2 == 0) else 0
            out.append(f"{q} {flag} {rest}")
    path.write_text("".join(out))


@pytest.mark.parametrize("run", ["waterloo.A-thresh-normal", "uos.sis.TMAL30Q_BM25"])
def test_task1_measures_equal_the_tar_command_on_clef_runs(tmp_path: Path, run: str) -> None:
    """Every Task 1 per-topic line of a CLEF 2017 run given flags, through ir_measures.iter_calc,
    and the ALL lines ir_measures aggregates as the tool does through calc_aggregate."""
    qrels_path = TAR / "qrels" / "qrel_abs_test.txt"
    run_path = tmp_path / "run.txt"
    _flagged_run(run_path, TAR / "runs" / f"{run}.gz")
    code, out, _ = run_tar("--task", "1", qrels_path, run_path)
    assert code == 0
    command = rows(out)
    qrels = read_qrels(qrels_path)
    with pytest.warns(UserWarning) if run.startswith("uos") else contextlib.nullcontext():
        frame = read_run(run_path, order="file").frame()
    measures = {key: parse_measures(key)[0] for key in TASK1_LINES_NO_34}
    got = per_query(list(measures.values()), qrels, frame)
    _same_as_command(measures, TASK1_LINES_NO_34, got, command)
    # recall_total and recall_max: found and R, printed through round(v, 0)
    found, n_rel = measures["NumShown(rel=1)"], measures["NumRel"]
    for q in {q for q, _ in command if q != "ALL"}:
        assert t18(float(got[(q, found)])) == command[(q, "recall_total")], q
        assert t18(float(got[(q, n_rel)])) == command[(q, "recall_max")], q
    # ALL: sums and plain means agree when every qrels topic is in the run and has R > 0
    if {q for q, _ in command if q != "ALL"} == set(qrels.query_ids):
        agg = ir_measures.calc_aggregate(
            [measures[k] for k in ("NumShown", "LastRel", "TarUtility")], qrels, frame
        )
        assert str(int(agg[measures["NumShown"]])) == command[("ALL", "num_shown")]
        assert t18(agg[measures["LastRel"]]) == command[("ALL", "last_rel")]
        assert t18(agg[measures["TarUtility"]]) == command[("ALL", "total_cost")]
