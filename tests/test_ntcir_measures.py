"""The NTCIREVAL families and ``ir_measures_pres ntcir`` on hand-computed cases, and the
command's errors.

Expected values are arithmetic written out below from the formulas of docs/ntcir.md (which are
NTCIREVAL 190111's, checked on real runs in tests/test_ntcir_reference.py).

The topic ``T`` of most cases: qrels d1 L2, d2 L1, d3 L0, d4 L1 (R = 3, N = 1), gains
g(L1) = 1, g(L2) = 2 (g_max = 2); the run ranks x (unjudged), d2, d3, d1 (d4 is missed):

    rank  1  2   3   4
    doc   x  d2  d3  d1
    level -  L1  L0  L2
"""

from __future__ import annotations

import contextlib
import io
import math
import subprocess
import sys
from pathlib import Path

import ir_measures
import pytest

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres import OMeasure, QMeasure
from ir_measures_pres.cli._command import guarded
from ir_measures_pres.cli.ntcir import ntcir_cli
from ir_measures_pres.measures.ntcir import (
    EBR,
    GAP,
    NCU,
    NTCIR_ERR,
    NTCIR_RBP,
    MSnDCG,
    NTCIR_bpref,
    NTCIR_nDCG,
    NTCIR_nERR,
    NTCIR_rpref,
    iRBU,
)

G = {1: 1, 2: 2}
QRELS = {"T": {"d1": 2, "d2": 1, "d3": 0, "d4": 1}}
RUN = {"T": {"x": 4.0, "d2": 3.0, "d3": 2.0, "d1": 1.0}}

# pi(L) = g(L) / (g_max + 1)
PI1, PI2 = 1 / 3, 2 / 3
# blended ratio (beta = 1) at d2 (rank 2) and d1 (rank 4): (cg + count) / (cgI + r), cgI = 2, 3, 4, 4
BR2, BR4 = (1 + 1) / (3 + 2), (3 + 2) / (4 + 4)

HAND = [
    # ERR = sum dsat(r-1) / r * pi(r)
    (NTCIR_ERR(gains=G), 1 / 2 * PI1 + (1 - PI1) / 4 * PI2),
    (NTCIR_ERR(gains=G) @ 2, 1 / 2 * PI1),
    # nERR@2: the ideal list d1, d2|d4: ERR@2 = pi2 + (1 - pi2) / 2 * pi1
    (NTCIR_nERR(gains=G) @ 2, (1 / 2 * PI1) / (PI2 + (1 - PI2) / 2 * PI1)),
    # RBP = (1 - p) sum g/g_max p^(r-1)
    (NTCIR_RBP(gains=G, p=0.5), 0.5 * (1 / 2 * 0.5**1 + 2 / 2 * 0.5**3)),
    (NTCIR_RBP(gains=G, p=0.5) @ 3, 0.5 * (1 / 2 * 0.5**1)),
    # nDCG (b = 2): ranks 1, 2 undiscounted, rank 4 / log2(4); ideal 2, 1, 1 at ranks 1..3
    (NTCIR_nDCG(gains=G) @ 4, (1 / 1 + 2 / 2) / (2 + 1 + 1 / math.log2(3))),
    # cutoff beyond the list: the whole list over the ideal at min(l, R) = R
    (NTCIR_nDCG(gains=G) @ 10, (1 / 1 + 2 / 2) / (2 + 1 + 1 / math.log2(3))),
    # b = 10: no discount up to rank 10
    (NTCIR_nDCG(gains=G, logb=10.0) @ 10, (1 + 2) / (2 + 1 + 1)),
    # b = 0: natural log from rank 2 on (ln 2 < 1: rank 2 weighs more than rank 1)
    (
        NTCIR_nDCG(gains=G, logb=0.0) @ 4,
        (1 / math.log(2) + 2 / math.log(4)) / (2 + 1 / math.log(2) + 1 / math.log(3)),
    ),
    (
        MSnDCG(gains=G) @ 4,
        (1 / math.log(3) + 2 / math.log(5)) / (2 / math.log(2) + 1 / math.log(3) + 1 / math.log(4)),
    ),
    # GAP: rank 2: 1*2 / 2; rank 4: (min(2,1)(2) + 2*3) / 4; ideal 2*3 + 1*2 + 1*2
    (GAP, (2 / 2 + (2 + 6) / 4) / (6 + 2 + 2)),
    (GAP @ 2, (2 / 2) / (6 + 2)),  # ideal top 2: L2, L1
    # NCU: graded-uniform stops = gains, denominator X1 s1 + X2 s2 = 2*1 + 1*2
    (NCU(gains=G), (1 * BR2 + 2 * BR4) / (2 * 1 + 1 * 2)),
    (NCU(gains=G, beta=0.0), (1 * (1 / 2) + 2 * (2 / 4)) / (2 * 1 + 1 * 2)),
    (NCU(gains=G, stops={1: 1, 2: 3}), (1 * BR2 + 3 * BR4) / (2 * 1 + 1 * 3)),
    # rank-biased: gamma^(count-1) / sum_{k<R} gamma^k
    (NCU(gains=G, stopping="rb", gamma=0.5), (BR2 + 0.5 * BR4) / (1 + 0.5 + 0.25)),
    # EBR = sum BR(r) pi(r) dsat(r-1); iRBU = sum p^r pi(r) dsat(r-1)
    (EBR(gains=G), BR2 * PI1 + BR4 * PI2 * (1 - PI1)),
    (iRBU(gains=G, p=0.9), 0.9**2 * PI1 + 0.9**4 * PI2 * (1 - PI1)),
    # RR and AP as O and Q with beta = 0
    (OMeasure(beta=0.0), 1 / 2),
    (QMeasure(beta=0.0), (1 / 2 + 2 / 4) / 3),
    # condensed list d2 (r1), d3 (r2), d1 (r3); R = 3, N = 1, n(r) non-relevant above
    (NTCIR_bpref, ((1 - 0 / 1) + (1 - min(3, 1) / 1)) / 3),  # min(R, N) = 1
    (NTCIR_bpref(variant="R"), ((1 - 0 / 3) + (1 - 1 / 3)) / 3),
    (NTCIR_bpref(variant="N"), ((1 - 0 / 1) + (1 - 1 / 1)) / 3),
    (NTCIR_bpref(variant="relative"), (0 + (1 - 1 / 2)) / 3),  # rank 1 counts 0
    # rpref: penalty(d1) = (2-1)/2 for d2 + 1 for d3 = 1.5; CG* = 4; D_N = R + N - CG*/g_max = 2
    (NTCIR_rpref(gains=G), (1 * (1 - 0 / 2) + 2 * (1 - 1.5 / 2)) / 4),
    (NTCIR_rpref(gains=G, variant="relative"), (1 * 0 + 2 * (1 - 1.5 / 2)) / 4),
    (NTCIR_rpref(gains=G, variant="relative2"), (1 * (1 - 0 / 1) + 2 * (1 - 1.5 / 3)) / 4),
]


def values(measure: object, qrels: dict = QRELS, run: dict = RUN) -> dict[str, float]:
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


@pytest.mark.parametrize(("measure", "expected"), HAND, ids=[str(m) for m, _ in HAND])
def test_hand_computed_topic(measure: object, expected: float) -> None:
    assert values(measure)["T"] == pytest.approx(expected, abs=1e-12)


def test_err_is_not_rr_with_binary_relevance() -> None:
    # one level only, g(L1) = 1: pi = 1 / (1 + 1), so a relevant document at rank 1 gives 1/2
    assert values(NTCIR_ERR, {"T": {"a": 1}}, {"T": {"a": 1.0}})["T"] == pytest.approx(1 / 2)
    assert values(NTCIR_nERR, {"T": {"a": 1}}, {"T": {"a": 1.0}})["T"] == pytest.approx(1.0)
    # RBP with one level is Moffat and Zobel's: (1 - p) p^(r-1)
    assert values(NTCIR_RBP, {"T": {"a": 1}}, {"T": {"b": 2.0, "a": 1.0}})["T"] == pytest.approx(0.05 * 0.95)


def test_ties_are_broken_by_document_id_descending() -> None:
    # all scores 1: the order is c, b, a; only a is relevant, at rank 3
    run = {"T": {"a": 1.0, "b": 1.0, "c": 1.0}}
    assert values(NTCIR_ERR, {"T": {"a": 1}}, run)["T"] == pytest.approx(1 / 3 * 1 / 2)
    assert values(OMeasure(beta=0.0), {"T": {"a": 1}}, run)["T"] == pytest.approx(1 / 3)


def test_no_relevant_document_in_the_qrels_scores_0() -> None:
    qrels = {"T": {"a": 0, "b": 0}}
    run = {"T": {"a": 2.0, "b": 1.0}}
    for measure, _ in HAND:
        assert values(measure, qrels, run)["T"] == 0.0, measure


def test_every_document_unjudged_in_a_condensed_list_scores_0() -> None:
    run = {"T": {"x": 2.0, "y": 1.0}}
    for measure in (NTCIR_bpref, NTCIR_rpref, NTCIR_ERR(judged_only=True), GAP(judged_only=True)):
        assert values(measure, QRELS, run)["T"] == 0.0


# --------------------------------------------------------------------------------------------
# the command
# --------------------------------------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def run_ntcir(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = guarded(lambda: ntcir_cli([str(a) for a in args], out=out))
    return code, out.getvalue(), err.getvalue()


QRELS_TEXT = "T 0 d1 2\nT 0 d2 1\nT 0 d3 0\nT 0 d4 1\nE 0 e1 1\nZ 0 z1 0\n"
RUN_TEXT = "T Q0 x 1 4 r\nT Q0 d2 2 3 r\nT Q0 d3 3 2 r\nT Q0 d1 4 1 r\n"


def test_command_lines_for_a_topic_an_empty_list_and_a_topic_without_relevant(tmp_path: Path) -> None:
    qrels = write(tmp_path, "qrels", QRELS_TEXT)
    run = write(tmp_path, "run", RUN_TEXT)
    code, out, err = run_ntcir(qrels, run, "-g", "1:2", "-cutoffs", "2,10000", "--mean")
    assert code == 0
    lines = out.splitlines()
    # T: r1 = 2 (d2), rp = 4 (d1, the first L2)
    assert lines[:3] == [
        "T # syslen=4 jrel=3 jnonrel=1",
        "T # r1=2 rp=4",
        "T RR=                  0.5000",
    ]
    assert f"T ERR=                 {1 / 2 * PI1 + (1 - PI1) / 4 * PI2:.4f}" in lines
    assert "T P@0002=              0.5000" in lines
    # the name field is 21 characters wide, whatever the cutoff (the contract)
    assert "T P@10000=             0.0002" in lines
    # E: the run lacks it: an empty list; Z has no relevant document: nothing (a warning)
    assert "E # syslen=0 jrel=1 jnonrel=0" in lines and "E # r1=0 rp=0" in lines
    assert "E Q-measure=           0.0000" in lines
    assert not any(line.startswith("Z ") for line in lines)
    assert "1 topic(s)" in err and "Z" in err
    # --mean: the printed values summed over the 3 qrels topics (Z and E count 0), over 3
    assert f"ALL {'RR=':<21}0.1667" in lines
    assert lines[-1].startswith("ALL Hit@10000=")


def test_digits_and_condensed_lists(tmp_path: Path) -> None:
    qrels = write(tmp_path, "qrels", QRELS_TEXT)
    run = write(tmp_path, "run", RUN_TEXT)
    code, out, _ = run_ntcir(qrels, run, "-j", "-g", "1:2", "--digits", "6")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "T # syslen=3 jrel=3 jnonrel=1"
    assert "T rpref_relative2=     0.500000" in lines
    assert "T bpref_R=             0.555556" in lines
    # -j: E has no judged non-relevant document: nothing printed for it (nor for Z)
    assert not any(line.startswith(("E ", "Z ")) for line in lines)


def test_list_names_every_line_with_a_measure_that_parses(tmp_path: Path) -> None:
    code, out, _ = run_ntcir("--list", "-g", "1:2", "-gap", "-rbup", "0.5", "-cutoffs", "5", "-j")
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["RR", "OMeasure(beta=0.0,judged_only=True)"]
    assert ["P@0005", "P(judged_only=True)@5"] in rows and ["Hit@0005", "Success(judged_only=True)@5"] in rows
    assert ["iRBU@0005", "iRBU(gains={1:1.0,2:2.0},judged_only=True,p=0.5)@5"] in rows
    for _, text in rows:
        assert str(ir_measures.parse_measure(text)) == text
    qrels = write(tmp_path, "qrels", QRELS_TEXT)
    run = write(tmp_path, "run", RUN_TEXT)
    printed = run_ntcir(qrels, run, "-g", "1:2", "-gap", "-rbup", "0.5", "-cutoffs", "5", "-j")[1]
    assert [
        line.split()[1].rstrip("=")
        for line in printed.splitlines()
        if line.startswith("T ") and "#" not in line
    ] == [name for name, _ in rows]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-g", "1:-2"], "-g value must be a positive number"),
        (["-g", "2:1"], "must not decrease"),
        (["-g", "1:x"], "expected numbers separated by ':'"),
        (["-rbp", "1.5"], "argument -rbp"),
        (["-gamma", "0"], "argument -gamma"),
        (["-rbup", "2"], "argument -rbup"),
        (["-cutoffs", ""], "argument -cutoffs"),
        (["-cutoffs", "10,0"], "a cutoff must be a rank >= 1"),
        (["-logb", "0.5"], "argument -logb"),
        (["-g", "1:2", "-s", "1"], "-s gives 1 stop values but -g gives 2"),
        (["-g", "1"], "has relevance level 2 but -g gives gains for levels 1 to 1"),
        (["--digits", "-1"], "argument --digits"),
        (["-gap=1"], "argument -gap"),
    ],
)
def test_usage_errors_name_the_option_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    qrels = write(tmp_path, "qrels", QRELS_TEXT)
    run = write(tmp_path, "run", RUN_TEXT)
    code, out, err = run_ntcir(qrels, run, *args)
    assert code == 2 and out == ""
    assert err.startswith("ir_measures_pres: error: ") and message in err and err.count("\n") == 1


def test_qrels_and_run_are_required_without_list() -> None:
    code, _, err = run_ntcir("-g", "1:2")
    assert code == 2 and "QRELS and RUN are required" in err


def test_input_errors_name_the_file_and_line_and_exit_1(tmp_path: Path) -> None:
    qrels = write(tmp_path, "qrels", QRELS_TEXT)
    code, _, err = run_ntcir(qrels, tmp_path / "nope")
    assert code == 1 and "nope" in err
    bad = write(tmp_path, "run", RUN_TEXT + "T Q0 d9 5\n")
    code, out, err = run_ntcir(qrels, bad)
    assert code == 1 and out == "" and "run:5" in err and err.count("\n") == 1


def test_through_the_console_script() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "ntcir", "--list", "-g", "1:2"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and done.stdout.startswith("RR\tOMeasure(beta=0.0)\n")


def test_a_negative_qrels_value_is_the_tools_l0(tmp_path: Path) -> None:
    # the spec's rule (the tool's .rel files know no "unjudged"): d5 (-1) is judged non-relevant,
    # so the condensed list keeps it at rank 2 and N = 2; n(r) is 0 for d2 (rank 1), 1 for d1 (rank 3)
    qrels = write(tmp_path, "qrels", QRELS_TEXT + "T 0 d5 -1\n")
    run = write(tmp_path, "run", "T Q0 d2 1 5 r\nT Q0 d5 2 4 r\nT Q0 d1 3 3 r\n")
    code, out, _ = run_ntcir(qrels, run, "-j", "-g", "1:2")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "T # syslen=3 jrel=3 jnonrel=2"
    # bpref_N: (1 - 0/2) + (1 - 1/2) over R = 3
    assert f"T {'bpref_N=':<21}{((1 - 0 / 2) + (1 - 1 / 2)) / 3:.4f}" in lines


@pytest.mark.filterwarnings("ignore:run .* lacks")
def test_every_surface_reads_the_names(tmp_path: Path) -> None:
    """The main command (and its trec-style output names), the Python scoring core behind
    compare and the meta-evaluation, and PyTerrier's trec-name reader give the same numbers."""
    from ir_measures_pres.engine.scores import evaluate

    qrels = write(tmp_path, "qrels", QRELS_TEXT)
    run = write(tmp_path, "run", RUN_TEXT)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ir_measures_pres",
            str(qrels),
            str(run),
            "NTCIR_ERR(gains={1:1,2:2})",
            "GAP@2",
            "NCUrb",
        ]
        + ["--format", "trec", "-q"],
        capture_output=True,
        text=True,
    )
    rows = {
        (r.split("\t")[0].strip(), r.split("\t")[1]): float(r.split("\t")[2])
        for r in done.stdout.splitlines()
    }
    assert done.returncode == 0
    assert rows[("NTCIR_ERR(gains={1:1.0,2:2.0})", "T")] == pytest.approx(
        1 / 2 * PI1 + (1 - PI1) / 4 * PI2, abs=1e-4
    )
    assert rows[("GAP_cut_2", "T")] == pytest.approx((2 / 2) / (6 + 2), abs=1e-4)
    assert ir_measures.parse_trec_measure("GAP_cut_2") == [GAP @ 2]
    assert ir_measures.parse_trec_measure("NCUrb") == [NCU(stopping="rb")]
    other = write(tmp_path, "other", "T Q0 d1 1 4 r\n")
    scores = evaluate(
        str(qrels), [str(run), str(other)], "GAP@2 NTCIR_bpref(variant='relative')", progress=False
    )
    t = scores.query_ids.index("T")
    assert scores.values[0, 0, t] == pytest.approx((2 / 2) / (6 + 2))
    assert scores.values[1, 0, t] == pytest.approx((0 + (1 - 1 / 2)) / 3)


def test_running_sums_in_small_groups_give_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels accumulate in padded grids of a bounded size (groups of topics of similar
    length): a tiny bound, many groups, must give the same bits."""
    from ir_measures_pres.measures.ntcir import kernels

    qrels = {f"q{i}": {f"d{j}": (i + j) % 3 for j in range(30)} for i in range(20)}
    run = {f"q{i}": {f"d{j}": float((7 * j + i) % 31) for j in range(i + 5)} for i in range(20)}
    measures = [NTCIR_ERR, EBR, iRBU @ 10, NTCIR_nERR @ 5, NTCIR_nDCG @ 20, GAP, NTCIR_rpref]
    before = {(m.measure, m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels, run)}
    monkeypatch.setattr(kernels, "_GRID_CELLS", 7)
    after = {(m.measure, m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels, run)}
    assert after == before


def test_topics_come_in_qrels_file_order(tmp_path: Path) -> None:
    qrels = write(tmp_path, "qrels", "B 0 b1 1\nA 0 a1 1\nC 0 c1 1\n")
    run = write(tmp_path, "run", "A Q0 a1 1 1 r\nB Q0 b1 1 1 r\n")
    code, out, err = run_ntcir(qrels, run, "-g", "1")
    assert code == 0
    assert [line for line in out.splitlines() if "# r1=" in line] == [
        "B # r1=1 rp=1",
        "A # r1=1 rp=1",
        "C # r1=0 rp=0",
    ]
    assert "lacks 1 of the 3 topics" in err


def test_the_measures_read_a_negative_value_as_unjudged() -> None:
    # the package's convention: d5 (-1) is unjudged, dropped from the condensed list and not in N
    qrels = {"T": {**QRELS["T"], "d5": -1}}
    run = {"T": {"d2": 5.0, "d5": 4.0, "d1": 3.0}}
    # condensed list d2, d1; N = 1 (d3): bpref_N = (1 - 0/1) + (1 - 0/1) over R = 3
    assert values(NTCIR_bpref(variant="N"), qrels, run)["T"] == pytest.approx(2 / 3)
