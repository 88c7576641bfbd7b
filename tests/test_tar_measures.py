"""TAR measures: hand-computed cases for the edge cases of the CLEF tools (docs/tar.md), the
registered measures against the ``tar`` command, and properties.

Expected values are arithmetic written out below from the tool's rules (docs/tar.md),
formatted as the tool formats them (``str(round(v, 3))``), or the official result files.
"""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.cli._command import guarded
from ir_measures_pres.cli.tar import tar_cli
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.measures.catalogue import parse_measures

TAR = DATA / "clef-tar-2017"


def t(v: float) -> str:
    """The 2017 tool's float formatting."""
    return str(round(v, 3))


def run_tar(*args: object) -> Tuple[int, str, str]:
    """The ``tar`` command as ``ir_measures_pres tar ...`` runs it (errors through the shared
    error path: one line, exit status)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = guarded(lambda: tar_cli([str(a) for a in args], out=out, err=err))
    return code, out.getvalue(), err.getvalue()


def rows(text: str) -> Dict[Tuple[str, str], str]:
    return {(q, m): v for q, m, v in (line.split("\t") for line in text.splitlines())}


# --------------------------------------------------------------------------------------------
# a hand-computed 2017 case: every code, unjudged, -1, 3 and 4, a duplicate, R = 0, 10 | N
# --------------------------------------------------------------------------------------------

QRELS = (
    # topic A: N = 20 (d1..d20), R = 3 (d1, d2, d5); x3, x4 (values 3, 4) and m1 (-1) not in N
    "".join(f"A 0 d{i} {2 if i == 2 else 1 if i in (1, 5) else 0}\n" for i in range(1, 21))
    + "A 0 x3 3\nA 0 x4 4\nA 0 m1 -1\n"
    # topic B: R = 0, skipped
    + "".join(f"B 0 e{i} 0\n" for i in range(1, 6))
    # topic D: N = 10, R = 2 (f1, f2)
    + "".join(f"D 0 f{i} {1 if i in (1, 2) else 0}\n" for i in range(1, 11))
)
RUN = (
    "A NF d3 1 0 x\n"  # shown, non-relevant
    "A AF d1 2 0 x\n"  # relevant, feedback
    "A NF x3 3 0 x\n"  # value 3: dropped
    "A NF m1 4 0 x\n"  # value -1: shown, non-relevant
    "A NF u9 5 0 x\n"  # unjudged: shown, non-relevant
    "A NS d2 6 0 x\n"  # relevant, not shown
    "A AFN d5 7 0 x\n"  # relevant, shown; costs as AF
    "A NFN d4 8 0 x\n"  # shown; costs as NS
    "A NF d1 9 0 x\n"  # repeated: dropped
    "B NF e1 1 0 x\n"
    "D AFS f1 1 0 x\n"  # relevant; a plain shown document
    "D DFN f3 2 0 x\n"  # costs as AF
    "D DFS f4 3 0 x\n"  # costs as AF
    "D NFS f5 4 0 x\n"  # costs as NF
    "D Q0 f6 5 0 x\n"
    "D NF f2 6 0 x\n"  # relevant
)

# topic A, lines left: d3 d1 m1 u9 d2(NS) d5 d4 -> shown ranks 1 2 3 4 - 5 6
A = {
    "num_docs": "20",
    "num_rels": "3",
    "num_shown": "6",
    "num_feedback": "1",  # only the exact code AF
    "rels_found": "2",  # d1 (k = 2), d5 (k = 5)
    "last_rel": "5",
    "wss_100": "0",  # 2 < R: the integer 0
    "wss_95": "0",  # R95 = round(2.85) = 3 > 2
    # t = 2; checkpoints i = 2 (pos 1, cg 1), 4 (pos 2, cg 1), 6 (pos 3, cg 2): 10 | N shifts
    "NCG@10": t(0 / 3),
    "NCG@20": t(1 / 3),
    "NCG@30": t(1 / 3),
    **{f"NCG@{p}": t(2 / 3) for p in range(40, 101, 10)},
    "total_cost": t(1.0 + 3 + 1 + 1 + 0 + 3 + 0),  # NF 1, AF 1+2, NS 0, AFN->AF 3, NFN->NS 0
    "total_cost_uniform": t(9.0 + 2 * (20 - 5) * (3 - 2) / 3),  # Cp Nu Mr / R, n_c = 5
    "total_cost_weighted": t(9.0),  # Mr = 1: no penalty in the code
    # area: 0 + 0.5 + 1 + 1 + 1.5 + 2 = 6, + (20 - 6) * 2; max 3 * 20 - 9 / 2
    "norm_area": t((6 + 14 * 2) / (3 * 20 - 9 / 2)),
    "ap": t((1 / 2 + 2 / 5) / 3),
    "r": t(2 / 3),
    "loss_e": t((100 / 20) ** 2 * (6 / 103) ** 2),
    "loss_r": t((1 - 2 / 3) ** 2),
    "loss_er": t((1 - 2 / 3) ** 2 + (100 / 20) ** 2 * (6 / 103) ** 2),
}
# topic D: all six lines shown, f1 at 1, f2 at 6; N = 10, so t = 1 and pos = i
D = {
    "num_docs": "10",
    "num_rels": "2",
    "num_shown": "6",
    "num_feedback": "0",
    "rels_found": "2",
    "last_rel": "6",
    "wss_100": t((10 - 6) / 10),
    "wss_95": t((10 - 6) / 10 - 0.05),  # R95 = round(1.9) = 2
    "NCG@10": t(0.0),
    **{f"NCG@{p}": t(1 / 2) for p in range(20, 61, 10)},
    **{f"NCG@{p}": t(2 / 2) for p in range(70, 101, 10)},
    "total_cost": t(1.0 + 3 + 3 + 1 + 1 + 1),
    "total_cost_uniform": t(10.0),
    "total_cost_weighted": t(10.0),
    "norm_area": t((0.5 + 1 + 1 + 1 + 1 + 1.5 + (10 - 6) * 2) / (2 * 10 - 4 / 2)),
    "ap": t((1 / 1 + 2 / 6) / 2),
    "r": t(1.0),
    "loss_e": t((100 / 10) ** 2 * (6 / 102) ** 2),
    "loss_r": t(0.0),
    "loss_er": t((100 / 10) ** 2 * (6 / 102) ** 2),
}


@pytest.fixture
def files(tmp_path: Path) -> Tuple[Path, Path]:
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return tmp_path / "qrels", tmp_path / "run"


def test_hand_computed_2017_topics(files: Tuple[Path, Path]) -> None:
    code, out, err = run_tar("--edition", "2017", *files)
    assert code == 0
    assert err == "A Duplicate d1\nSkipping topic: B\n"
    got = rows(out)
    for name, value in A.items():
        assert got[("A", name)] == value, name
    for name, value in D.items():
        assert got[("D", name)] == value, name
    assert ("B", "num_docs") not in got


def test_hand_computed_2017_all_block(files: Tuple[Path, Path]) -> None:
    _, out, _ = run_tar("--edition", "2017", *files)
    got = rows(out)
    assert got[("ALL", "num_docs")] == "30" and got[("ALL", "num_rels")] == "5"
    assert got[("ALL", "num_shown")] == "12" and got[("ALL", "rels_found")] == "4"
    assert got[("ALL", "last_rel")] == t((5 + 6) / 2)
    assert got[("ALL", "wss_95")] == t((0.0 + ((10 - 6) / 10 - 0.05)) / 2)
    # micro: mean cg / mean R per checkpoint (A then D)
    assert got[("ALL", "NCG@10")] == t(0.0)
    assert got[("ALL", "NCG@20")] == t(((1 + 1) / 2) / ((3 + 2) / 2))
    assert got[("ALL", "NCG@40")] == t(((2 + 1) / 2) / ((3 + 2) / 2))
    assert got[("ALL", "NCG@70")] == t(((2 + 2) / 2) / ((3 + 2) / 2))
    assert got[("ALL", "total_cost_uniform")] == t((19.0 + 10.0) / 2)
    # norm_area: the mean of the rounded per-topic values
    assert got[("ALL", "norm_area")] == t((float(A["norm_area"]) + float(D["norm_area"])) / 2)
    assert list(got)[-1] == ("ALL", "loss_er")


def test_n_below_10_gives_values_where_the_tool_crashes(tmp_path: Path) -> None:
    (tmp_path / "q").write_text("E 0 g1 1\nE 0 g2 0\nE 0 g3 0\nE 0 g4 0\nE 0 g5 0\n")
    (tmp_path / "r").write_text("E NF g2 1 0 x\nE NF g1 2 0 x\n")
    code, out, _ = run_tar("--edition", "2017", tmp_path / "q", tmp_path / "r")
    got = rows(out)
    # t = 1 (the tool: N // 10 = 0, modulo by zero); pos(i=1) = 2, pos(i=2) = 4
    assert code == 0
    assert [got[("E", f"NCG@{p}")] for p in range(10, 101, 10)] == ["0.0"] * 4 + ["1.0"] * 6


# --------------------------------------------------------------------------------------------
# file order vs score order
# --------------------------------------------------------------------------------------------


def test_ties_in_score_but_not_in_file_order(tmp_path: Path) -> None:
    (tmp_path / "q").write_text("q 0 a 1\nq 0 b 0\nq 0 c 0\n")
    (tmp_path / "r").write_text("q NF c 1 0.0 x\nq NF a 2 0.0 x\nq NF b 3 0.0 x\n")
    qrels = read_qrels(tmp_path / "q")
    file_order = read_run(tmp_path / "r", order="file")
    score_order = read_run(tmp_path / "r")
    # file order: a at rank 2; score order (ties by doc id descending): c, b, a
    assert ir_measures.calc_aggregate([ir_measures.AP], qrels, file_order)[ir_measures.AP] == 1 / 2
    assert ir_measures.calc_aggregate([ir_measures.AP], qrels, score_order)[ir_measures.AP] == 1 / 3
    last = parse_measures("LastRel")[0]
    assert ir_measures.calc_aggregate([last], qrels, file_order)[last] == 2
    _, out, _ = run_tar("--edition", "2017", tmp_path / "q", tmp_path / "r")
    assert rows(out)[("q", "ap")] == t(1 / 2)


def test_file_order_reader_keeps_the_first_duplicate_and_warns_once(tmp_path: Path) -> None:
    (tmp_path / "r").write_text("q NF a 1 9 x\nq NF b 2 8 x\nq NF a 3 7 x\nq NF a 4 6 x\n")
    with pytest.warns(UserWarning, match="2 repeated") as caught:
        cols = read_run(tmp_path / "r", order="file")
    assert len(caught) == 1 and "lines 3, 4" in str(caught[0].message)
    assert cols.doc_ids.tolist() == ["a", "b"] and cols.values.tolist() == [2.0, 1.0]
    assert cols.duplicates == (("q", "a", 3), ("q", "a", 4))


def test_read_run_order_is_checked() -> None:
    with pytest.raises(ValueError, match="order must be"):
        read_run(io.BytesIO(b"q NF a 1 9 x\n"), order="rank")


# --------------------------------------------------------------------------------------------
# registered measures
# --------------------------------------------------------------------------------------------


def test_wss_r30_rounds_half_even_and_cohen_takes_the_ceiling() -> None:
    qrels = {"q": {**{f"r{i}": 1 for i in range(30)}, **{f"n{i}": 0 for i in range(70)}}}
    order = [f"r{i}" for i in range(28)] + [f"n{i}" for i in range(70)]
    run = {"q": {d: float(len(order) - i) for i, d in enumerate(order)}}
    clef, cohen = parse_measures("WSS WSS(rule='cohen')")
    got = ir_measures.calc_aggregate([clef, cohen], qrels, run)
    # round(0.95 * 30) = 28 (half-even: 28.5 -> 28): the 28th relevant at rank 28 of N' = 100
    assert got[clef] == pytest.approx((100 - 28) / 100 - 0.05)
    assert got[cohen] == 0.0  # ceil(28.5) = 29 relevant needed, 28 found


def test_wss_subtracts_what_the_tool_subtracts_to_the_last_bit() -> None:
    """The tool's line is ``(N' - k95) / N' - 0.05``; 1 - 0.95 in binary is 0.050000000000000044,
    which gives 0.44999999999999996 below where the tool has 0.45. N = 10, R = 2, both relevant
    found by rank 5: round(0.95 * 2) = 2, k95 = 5."""
    qrels = {"q": {**{f"r{i}": 1 for i in range(2)}, **{f"n{i}": 0 for i in range(8)}}}
    order = ["n0", "r0", "n1", "n2", "r1", "n3", "n4", "n5", "n6", "n7"]
    run = {"q": {d: float(len(order) - i) for i, d in enumerate(order)}}
    wss95, wss100, wss90 = parse_measures("WSS WSS(recall=1.0) WSS(recall=0.9)")
    got = ir_measures.calc_aggregate([wss95, wss100, wss90], qrels, run)
    assert got[wss95] == (10 - 5) / 10 - 0.05 == 0.45
    assert got[wss100] == (10 - 5) / 10  # the 2nd relevant is the last one: the tool's wss_100
    assert got[wss90] == (10 - 5) / 10 - 0.1  # round(0.9 * 2) = 2 relevant needed: rank 5


def test_measures_needing_column2_say_so() -> None:
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0}}
    for name in ("NumFeedback", "TarCost", "TarLoss(threshold=True)"):
        with pytest.raises(ValueError, match="column 2"):
            ir_measures.calc_aggregate(parse_measures(name), qrels, run)


def test_value_3_and_4_are_dropped_and_r0_scores_0() -> None:
    qrels = {"q": {"a": 3, "b": 1, "c": 0}, "z": {"a": 0}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}, "z": {"a": 1.0}}
    last, area, n = parse_measures("LastRel NormArea NumCandidates")
    got = {(m.measure, m.query_id): m.value for m in ir_measures.iter_calc([last, area, n], qrels, run)}
    assert got[(last, "q")] == 1  # a dropped: b at rank 1
    assert got[(n, "q")] == 2  # b, c
    assert got[(area, "q")] == pytest.approx((0.5 + 1 + 0) / (1 * 2 - 1 / 2))  # N = n: no tail
    assert got[(area, "z")] == 0.0


MEASURE_LINES = {
    "NumCandidates": "num_docs",
    "NumRel": "num_rels",
    "NumRet": "num_shown",
    "NumShown": "num_shown",
    "NumShown(rel=1)": "rels_found",
    "NumFeedback": "num_feedback",
    "NumRet(rel=1)": "rels_found",
    "LastRel": "last_rel",
    "WSS(recall=1.0)": "wss_100",
    "WSS": "wss_95",
    **{f"RecallPct(pct={p},positions='2017')": f"NCG@{p}" for p in range(10, 101, 10)},
    "TarCost": "total_cost",
    "TarCost(penalty='uniform')": "total_cost_uniform",
    "TarCost(penalty='weighted')": "total_cost_weighted",
    "NormArea": "norm_area",
    "AP": "ap",
    "SetR": "r",
    "TarLoss(part='e')": "loss_e",
    "TarLoss(part='r')": "loss_r",
    "TarLoss": "loss_er",
}


@pytest.mark.parametrize(
    "level,run", [("abstract", "uos.sis.TMAL30Q_BM25"), ("document", "waterloo.A-thresh-normal")]
)
def test_registered_measures_equal_the_official_per_topic_lines(level: str, run: str) -> None:
    """ir_measures.iter_calc on read_run(order='file').frame(), pytrec_eval's AP and counts
    included, against the official tool's per-topic lines."""
    qrels_file = {"abstract": "qrel_abs_test.txt", "document": "qrel_content_test.txt"}[level]
    expected = rows(
        "\n".join(
            line
            for line in (TAR / "official_tar_eval" / level / f"{run}.results").read_text().splitlines()
            if line.count("\t") == 2
        )
    )
    qrels = read_qrels(TAR / "qrels" / qrels_file)
    with pytest.warns(UserWarning) if run.startswith("uos.sis.TMAL") else _nothing():
        frame = read_run(TAR / "runs" / f"{run}.gz", order="file").frame()
    measures = {key: parse_measures(key)[0] for key in MEASURE_LINES}
    got = {
        (m.query_id, m.measure): m.value for m in ir_measures.iter_calc(list(measures.values()), qrels, frame)
    }
    topics = {q for q, _ in expected if q != "ALL"}
    assert topics
    for key, line in MEASURE_LINES.items():
        for q in topics:
            want, value = expected[(q, line)], got[(q, measures[key])]
            if "." in want:
                assert t(value) == want, (q, line)
            else:
                assert int(value) == int(want), (q, line)


@pytest.mark.parametrize(
    "level,run", [("abstract", "uos.sis.TMAL30Q_BM25"), ("document", "waterloo.A-thresh-normal")]
)
def test_pyterrier_gives_the_official_per_topic_lines(level: str, run: str) -> None:
    """The same measures as strings in PyTerrier's pt.Evaluate (a results frame in screening
    order, column 2 as its 'iteration' column) against the official tool's per-topic lines."""
    pt = pytest.importorskip("pyterrier")
    pd = pytest.importorskip("pandas")
    qrels_file = {"abstract": "qrel_abs_test.txt", "document": "qrel_content_test.txt"}[level]
    official = (TAR / "official_tar_eval" / level / f"{run}.results").read_text().splitlines()
    expected = rows("\n".join(line for line in official if line.count("\t") == 2))
    cols = read_qrels(TAR / "qrels" / qrels_file)
    qrels = pd.DataFrame({"qid": cols.query_ids, "docno": cols.doc_ids, "label": cols.values})
    with pytest.warns(UserWarning) if run.startswith("uos.sis.TMAL") else _nothing():
        frame = read_run(TAR / "runs" / f"{run}.gz", order="file").frame()
    results = frame.rename(columns={"query_id": "qid", "doc_id": "docno"})
    got = pt.Evaluate(results, qrels, metrics=list(MEASURE_LINES), perquery=True)
    topics = {q for q, _ in expected if q != "ALL"}
    assert topics and topics <= set(got)
    for key, line in MEASURE_LINES.items():  # PyTerrier names each column as the string given
        for q in topics:
            want, value = expected[(q, line)], got[q][key]
            if "." in want:
                assert t(value) == want, (q, line)
            else:
                assert int(value) == int(want), (q, line)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


# --------------------------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------------------------

LABEL = st.sampled_from([None, -1, 0, 0, 1, 1, 2, 3, 4])


@st.composite
def screening(draw: st.DrawFn) -> Tuple[Dict[str, int], List[str]]:
    pool = [f"d{i}" for i in range(draw(st.integers(1, 25)))]
    qrels = {d: v for d in pool if (v := draw(LABEL)) is not None}
    if not qrels:
        qrels = {pool[0]: 1}
    order = draw(st.permutations(pool))
    return qrels, order[: draw(st.integers(0, len(order)))]


def _values(measures: List[object], qrels: Dict[str, int], order: List[str]) -> Dict[object, float]:
    run = {"q": {d: float(len(order) - i) for i, d in enumerate(order)}} if order else {}
    return ir_measures.calc_aggregate(measures, {"q": qrels}, run)


@settings(max_examples=60, deadline=None)
@given(screening(), st.sampled_from([0.5, 0.8, 0.95, 1.0]), st.sampled_from(["clef", "cohen"]))
def test_wss_at_target_r_is_never_above_r(
    case: Tuple[Dict[str, int], List[str]], r: float, rule: str
) -> None:
    qrels, order = case
    wss = parse_measures(f"WSS(recall={r},rule='{rule}')")[0]
    assert _values([wss], qrels, order)[wss] <= r + 1e-12


@settings(max_examples=60, deadline=None)
@given(screening())
def test_recall_curves_are_monotone(case: Tuple[Dict[str, int], List[str]]) -> None:
    qrels, order = case
    new = parse_measures([f"RecallPct(pct={p})" for p in range(1, 101)])
    old = parse_measures([f"RecallPct(pct={p},positions='2017')" for p in range(10, 101, 10)])
    for measures in (new, old):
        got = _values(measures, qrels, order)
        values = [got[m] for m in measures]
        assert all(a <= b + 1e-12 for a, b in zip(values, values[1:]))
        assert all(0 <= v <= 1 for v in values)


@settings(max_examples=60, deadline=None)
@given(screening())
def test_loss_er_is_loss_e_plus_loss_r(case: Tuple[Dict[str, int], List[str]]) -> None:
    qrels, order = case
    er, e, r = parse_measures("TarLoss TarLoss(part='e') TarLoss(part='r')")
    got = _values([er, e, r], qrels, order)
    if any(1 <= v <= 2 for v in qrels.values()):
        assert got[er] == pytest.approx(got[e] + got[r], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(screening())
def test_recall_at_100_percent_2018_is_recall_at_rank_n(case: Tuple[Dict[str, int], List[str]]) -> None:
    qrels, order = case
    relevant = {d for d, v in qrels.items() if 1 <= v <= 2}
    n = sum(1 for v in qrels.values() if v != -1 and v <= 2)
    kept = [d for d in order if qrels.get(d, 0) < 3]
    m = parse_measures("RecallPct(pct=100)")[0]
    expected = len(relevant & set(kept[:n])) / len(relevant) if relevant and len(kept) >= n else None
    if expected is not None:
        assert _values([m], qrels, order)[m] == pytest.approx(expected)


def test_loss_e_uses_n_prime() -> None:
    # 3 shown of a candidate set of 2 (one unjudged): N' = 3
    got = _values(parse_measures("TarLoss(part='e')"), {"a": 1, "b": 0}, ["a", "b", "u"])
    assert list(got.values())[0] == pytest.approx((100 / 3) ** 2 * (3 / 101) ** 2)
    assert math.isfinite(list(got.values())[0])
    assert np.isclose(list(got.values())[0], (100 / 3) ** 2 * (3 / 101) ** 2)


# --------------------------------------------------------------------------------------------
# the 2018 tool: two flags in one topic, tasks 1 and 2
# --------------------------------------------------------------------------------------------

QRELS_2018 = "".join(f"A 0 d{i} {1 if i in (1, 2, 5) else 0}\n" for i in range(1, 11))  # N = 10, R = 3
# flags on lines 3 and 5: seen = lines 1-3 (first flag), threshold T = 5 (last flag)
RUN_2018 = "A 0 d1 1 0 x\nA 0 d3 2 0 x\nA 1 d2 3 0 x\nA 0 d4 4 0 x\nA 1 d6 5 0 x\nA 0 d5 6 0 x\n"


def t18(v: float) -> str:
    """The 2018 tool's float formatting."""
    return str(round(v, 3) if v < 1 else round(v, 0))


@pytest.fixture
def files_2018(tmp_path: Path) -> Tuple[Path, Path]:
    (tmp_path / "qrels").write_text(QRELS_2018)
    (tmp_path / "run").write_text(RUN_2018)
    return tmp_path / "qrels", tmp_path / "run"


def test_hand_computed_2018_task2_two_flags(files_2018: Tuple[Path, Path]) -> None:
    code, out, _ = run_tar(*files_2018)  # default: --edition 2018 --task 2
    assert code == 0
    got = rows(out)
    expected = {
        "num_shown": "6",
        "rels_found": "3",
        "num_rels": "3",
        "last_rel": "6",
        "norm_last_rel": t18(6 / 10),
        "threshold": "5",  # the last flag
        "norm_threshold": t18(5 / 10),
        "wss_100": t18((10 - 6) / 10),
        "wss_95": t18((10 - 6) / 10 - 0.05),
        "cg_total": "3.0",
        "cg_max": "3.0",
        "cg_threshold": "2.0",  # d1, d2 up to line 5
        "recall_threshold": t18(2 / 3),
        # positions round-half-even(10 p / 100): p = 5 -> round(0.5) = 0; 6 -> 1; 25 -> 2; 26 -> 3
        "recall@5.0%": "0.0",
        "recall@6.0%": t18(1 / 3),
        "recall@25.0%": t18(1 / 3),
        "recall@26.0%": t18(2 / 3),
        "recall@65.0%": "1.0",  # round(6.5) = 6: d5
        "recall@100.0%": "1.0",  # position 10 > 6 lines: the last reached position, 6
        # seen d1 (-19), d3 (1), d2 (-19); unseen d5 relevant 20; missed at the first flag: 1 * 20
        "total_cost": t18(-19 + 1 - 19 + 0 + 0 + 20 + 20.0),
        "norm_area": t18(round((0.5 + 1 + 1.5 + 2 + 2 + 2.5 + (10 - 6) * 3) / (3 * 10 - 9 / 2), 3)),
        "ap": t18((1 / 1 + 2 / 3 + 3 / 6) / 3),
        "r": t18(2 / 3),  # the first flag: 2 of 3
        "loss_e": t18((100 / 10) ** 2 * (3 / 103) ** 2),
        "loss_r": t18((1 - 2 / 3) ** 2),
        "loss_er": t18((1 - 2 / 3) ** 2 + (100 / 10) ** 2 * (3 / 103) ** 2),
    }
    for name, value in expected.items():
        assert got[("A", name)] == value, name
    names = [line.split("\t")[1] for line in out.splitlines() if line.startswith("A\t")]
    assert names[:14] == [
        "num_shown", "rels_found", "num_rels", "last_rel", "norm_last_rel", "threshold", "norm_threshold",
        "wss_100", "wss_95", "cg_total", "cg_max", "cg_threshold", "recall_threshold", "threshold",
    ]  # fmt: skip
    assert names[14] == "recall@1.0%" and names[113] == "recall@100.0%"
    assert names[114:] == ["total_cost", "norm_area", "ap", "r", "loss_e", "loss_r", "loss_er"]
    assert got[("ALL", "last_rel")] == "6.0" and got[("ALL", "threshold")] == "5.0"


def test_hand_computed_2018_task1(files_2018: Tuple[Path, Path]) -> None:
    code, out, _ = run_tar("--task", "1", *files_2018)
    assert code == 0
    got = rows(out)
    # N = 5000 (no -1, 3 or 4 in the qrels)
    assert got[("A", "norm_last_rel")] == t18(6 / 5000)
    assert got[("A", "wss_100")] == t18((5000 - 6) / 5000)
    assert got[("A", "recall_at_threshold")] == t18(2 / 3)
    assert got[("A", "recall_threshold")] == "3"  # lines seen, a count
    assert got[("ALL", "recall_threshold")] == "3.0"  # its ALL: round(mean, 3)
    assert got[("A", "recall@50")] == "1.0"  # cg at min(50, 6 lines)
    names = [line.split("\t")[1] for line in out.splitlines() if line.startswith("A\t")]
    assert names[9:12] == ["total_cost", "norm_area", "ap"]
    assert names[12:16] == ["recall_total", "recall_max", "recall_at_threshold", "recall_threshold"]
    assert names[16:] == [f"recall@{k}" for k in (50, 100, 200, 300, 400, 500, 1000, 2000, 3000, 4000, 5000)]


def test_2018_flag_must_be_an_integer(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS_2018)
    (tmp_path / "r").write_text("A 0 d1 1 0 x\nA NF d2 2 0 x\n")
    code, _, err = run_tar(tmp_path / "q", tmp_path / "r")
    assert code == 1 and f"{tmp_path / 'r'}:2: expected a threshold flag in column 2" in err


def test_2018_registered_measures_equal_the_tar_command(files_2018: Tuple[Path, Path]) -> None:
    qrels_path, run_path = files_2018
    _, out, _ = run_tar(qrels_path, run_path)
    expected = rows(out)
    frame = read_run(run_path, order="file").frame()
    lines = {
        "Threshold": "threshold",
        "Threshold(normalised=True)": "norm_threshold",
        "RecallAtThreshold": "recall_threshold",
        "RecallAtThreshold(flag='first')": "r",
        "TarUtility": "total_cost",
        "TarLoss(threshold=True)": "loss_er",
        "LastRel(normalised=True)": "norm_last_rel",
        "RecallPct(pct=26)": "recall@26.0%",
        "WSS": "wss_95",
        "NormArea": "norm_area",
        "AP": "ap",
    }
    measures = {key: parse_measures(key)[0] for key in lines}
    got = ir_measures.calc_aggregate(list(measures.values()), read_qrels(qrels_path), frame)
    for key, line in lines.items():
        want = expected[("A", line)]
        value = float(got[measures[key]])
        assert (str(int(value)) if line == "threshold" else t18(value)) == want, key


@pytest.mark.parametrize("extra", ["", "A 0 a-very-long-document-id 0\n"])
def test_ids_longer_than_8_bytes_are_not_confused(tmp_path: Path, extra: str) -> None:
    """The per-topic join compares ids of up to 8 bytes as integers: a run id whose first 8 bytes
    are a judged id is still unjudged (and qrels with longer ids take the general join)."""
    (tmp_path / "q").write_text("A 0 abcdefgh 1\nA 0 other 0\n" + extra)
    (tmp_path / "r").write_text("A NF abcdefghZ 1 0 x\nA NF abcdefgh 2 0 x\n")
    _, out, _ = run_tar("--edition", "2017", tmp_path / "q", tmp_path / "r")
    got = rows(out)
    assert got[("A", "last_rel")] == "2"  # abcdefghZ (rank 1) is unjudged
    assert got[("A", "ap")] == t((1 / 2) / 1)
