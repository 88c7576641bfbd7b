"""``NumShown``: the lines a 2017 TAR run shows, all but those coded ``NS`` (the tool's
``num_shown``; ir_measures' ``NumRet`` counts every line), and ``NumShown(rel=1)``, the relevant
ones shown (``rels_found``).

Expected values are arithmetic written out below from the tool's rules (docs/tar.md), the
properties compare with ir_measures' ``NumRet``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tar_measures import rows, run_tar

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.measures.catalogue import parse_measures
from ir_measures_pres.measures.tar import CODES_2017

# --------------------------------------------------------------------------------------------
# NS lines: NumShown reads the codes, NumRet counts every line
# --------------------------------------------------------------------------------------------

QRELS_NS = (
    # P: N = 6 (p1..p6), R = 2 (p1, p4); x (value 3) not in N
    "".join(f"P 0 p{i} {1 if i in (1, 4) else 0}\n" for i in range(1, 7)) + "P 0 x 3\n"
)
RUN_NS = (
    "P NF p2 1 0 x\n"  # shown
    "P NS p1 2 0 x\n"  # relevant, not shown
    "P AF p3 3 0 x\n"  # shown
    "P NS p5 4 0 x\n"  # not shown
    "P NF x 5 0 x\n"  # value 3: dropped by the tool (ir_measures' NumRet counts it)
    "P NFN p4 6 0 x\n"  # relevant, shown (NFN counts as shown; only its cost is NS's)
    "P NF u 7 0 x\n"  # unjudged: shown
)


def test_numshown_leaves_out_ns_lines_by_hand(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS_NS)
    (tmp_path / "r").write_text(RUN_NS)
    frame = read_run(tmp_path / "r", order="file").frame()
    qrels = read_qrels(tmp_path / "q")
    shown, found, ret, ret_rel = parse_measures("NumShown NumShown(rel=1) NumRet NumRet(rel=1)")
    got = ir_measures.calc_aggregate([shown, found, ret, ret_rel], qrels, frame)
    assert got[ret] == 7  # every line
    assert got[shown] == 7 - 2 - 1  # less the two NS lines and the line valued 3
    assert got[found] == 1  # p4; p1 was not shown
    assert got[ret_rel] == 3  # p1, p4 and x (3 >= 1)
    # the tar command's 2017 num_shown and rels_found lines say the same
    code, out, _ = run_tar("--edition", "2017", tmp_path / "q", tmp_path / "r")
    assert code == 0
    assert rows(out)[("P", "num_shown")] == "4" and rows(out)[("P", "rels_found")] == "1"
    # and the measures reading the codes rank the shown lines only: p4 is the third shown
    last = parse_measures("LastRel")[0]
    assert ir_measures.calc_aggregate([last], qrels, frame)[last] == 3
    assert rows(out)[("P", "last_rel")] == "3"


def test_numshown_without_codes_is_numret() -> None:
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 3.0, "b": 2.0, "u": 1.0}}
    shown, ret = parse_measures("NumShown NumRet")
    got = ir_measures.calc_aggregate([shown, ret], qrels, run)
    assert got[shown] == got[ret] == 3


def test_numshown_of_a_2018_run_counts_every_line(tmp_path: Path) -> None:
    """Flags are not codes: every line is shown (the 2018 tool's num_shown)."""
    (tmp_path / "q").write_text("A 0 a 1\nA 0 b 0\n")
    (tmp_path / "r").write_text("A 0 a 1 0 x\nA 1 b 2 0 x\nA 0 u 3 0 x\n")
    frame = read_run(tmp_path / "r", order="file").frame()
    shown = parse_measures("NumShown")[0]
    assert ir_measures.calc_aggregate([shown], read_qrels(tmp_path / "q"), frame)[shown] == 3
    _, out, _ = run_tar(tmp_path / "q", tmp_path / "r")
    assert rows(out)[("A", "num_shown")] == "3"


# a screening of one topic: qrels without values 3 and 4, lines with 2017 codes
LABEL = st.sampled_from([None, -1, 0, 0, 1, 1, 2])


@st.composite
def coded_screening(draw: st.DrawFn, codes: List[str]) -> Tuple[Dict[str, int], List[Tuple[str, str]]]:
    pool = [f"d{i}" for i in range(draw(st.integers(1, 20)))]
    qrels = {d: v for d in pool if (v := draw(LABEL)) is not None}
    if not qrels:
        qrels = {pool[0]: 1}
    order = draw(st.permutations(pool))[: draw(st.integers(0, len(pool)))]
    return qrels, [(d, draw(st.sampled_from(codes))) for d in order]


def _frame(lines: List[Tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "query_id": pd.Series(["q"] * len(lines), dtype=object),
            "doc_id": pd.Series([d for d, _ in lines], dtype=object),
            "score": pd.Series([float(len(lines) - i) for i in range(len(lines))], dtype=float),
            "iteration": pd.Series([c for _, c in lines], dtype=object),
        }
    )


@settings(max_examples=60, deadline=None)
@given(coded_screening([c for c in CODES_2017 if c != "NS"]))
def test_numshown_is_numret_when_no_line_is_ns(case: Tuple[Dict[str, int], List[Tuple[str, str]]]) -> None:
    qrels, lines = case
    measures = parse_measures("NumShown NumRet NumShown(rel=1) NumRet(rel=1)")
    shown, ret, found, ret_rel = measures
    for run in (_frame(lines), {"q": {d: float(len(lines) - i) for i, (d, _) in enumerate(lines)}}):
        got = ir_measures.calc_aggregate(measures, {"q": qrels}, run)
        assert got[shown] == got[ret]
        assert got[found] == got[ret_rel]


@settings(max_examples=60, deadline=None)
@given(coded_screening(list(CODES_2017)))
def test_numshown_is_numret_less_the_ns_lines(case: Tuple[Dict[str, int], List[Tuple[str, str]]]) -> None:
    qrels, lines = case
    shown, ret = parse_measures("NumShown NumRet")
    got = ir_measures.calc_aggregate([shown, ret], {"q": qrels}, _frame(lines))
    assert got[shown] == got[ret] - sum(1 for _, c in lines if c == "NS")
