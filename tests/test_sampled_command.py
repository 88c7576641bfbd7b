"""``ir_measures_pres sampled``: sample_eval.pl's lines, byte for byte.

Expected values: the tool's own outputs in ../shared/data/sampled-judgements/sample_eval/ (both
variants, all 17 Robust 2003 runs; made by NIST's Perl script, see that folder's README), and
small cases whose numbers are worked out by hand below, the arithmetic written in each test from
the formulas of docs/judgements.md (spec/judgements.md §1.2).
"""

import io
import math
from pathlib import Path
from typing import List

import pytest
from conftest import needs_shared, shared_path

from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.cli.sampled import sampled_cli

SAMPLED = shared_path("sampled-judgements")
RUNS = shared_path("real", "trec-robust-2003", "runs")
NAMES = [
    "InexpC2",
    "MU03rob01",
    "NLPR03vb10",
    "SABIR03BASE",
    "Sel50",
    "THUIRr0301",
    "UAmsT03RDesc",
    "UIUC03Rd1",
    "VTcdhgp1",
    "aplrob03a",
    "fub03IeOLKe3",
    "humR03dc",
    "oce03noXbmD",
    "pircRBa1",
    "rutcor03100",
    "uic0301",
    "uwmtCR0",
]


def run_command(*args: str) -> str:
    out = io.StringIO()
    assert sampled_cli(list(args), out=out) == 0
    return out.getvalue()


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
@pytest.mark.parametrize("variant", ["cds", "trecvid"])
@pytest.mark.parametrize("name", NAMES)
def test_reference_output_byte_for_byte(variant: str, name: str) -> None:
    expected = (SAMPLED / "sample_eval" / variant / f"input.{name}.sampleval").read_text()
    got = run_command(
        str(SAMPLED / "qrels.sampled"), str(RUNS / f"input.{name}.gz"), "--variant", variant, "-q"
    )
    assert got == expected


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_without_q_only_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    expected = (SAMPLED / "sample_eval" / "cds" / "input.Sel50.sampleval").read_text().splitlines(True)
    assert main(["sampled", str(SAMPLED / "qrels.sampled"), str(RUNS / "input.Sel50.gz")]) == 0
    assert capsys.readouterr().out == "".join(line for line in expected if "\tall\t" in line)


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_several_runs_one_block_each() -> None:
    qrels = str(SAMPLED / "qrels.sampled")
    got = run_command(
        qrels, str(RUNS / "input.Sel50.gz"), str(RUNS / "input.uic0301.gz"), "--variant", "trecvid"
    )
    blocks = []
    for name in ("Sel50", "uic0301"):
        lines = (SAMPLED / "sample_eval" / "trecvid" / f"input.{name}.sampleval").read_text().splitlines(True)
        blocks.append(f"runid\t\tall\t\tinput.{name}\n" + "".join(x for x in lines if "\tall\t" in x))
    assert got == "".join(blocks)


# --------------------------------------------------------------------------------------------
# hand-computed cases
# --------------------------------------------------------------------------------------------


def files(tmp_path: Path, qrels: str, run: str) -> List[str]:
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text(qrels)
    r.write_text(run)
    return [str(q), str(r)]


def lines_of(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        name, topic, value = line.split()
        out[(name, topic)] = value
    return out


# stratum S1: a (relevant), b (judged non-relevant), c (not sampled); stratum S2: d, e, none
# sampled. The run retrieves a, x (outside the pool), d, b.
QRELS_A = "1 0 a S1 1\n1 0 b S1 0\n1 0 c S1 -1\n1 0 d S2 -1\n1 0 e S2 -1\n"
RUN_A = "1 Q0 a 1 5 r\n1 Q0 x 2 4 r\n1 Q0 d 3 3 r\n1 Q0 b 4 2 r\n"


def test_a_stratum_with_nothing_sampled_and_a_short_list(tmp_path: Path) -> None:
    got = lines_of(run_command(*files(tmp_path, QRELS_A, RUN_A), "-q"))
    # R = r_S1 N_S1 / n_S1 = 1 * 3 / 2 (S2 has n = 0: left out)
    assert got[("inum_rel", "1")] == "1.5000"
    # a at rank 1, nothing above: prec = 1; xinfAP = (1.5 / 1.5) * (SAP_S1 / r_S1) = 1
    assert got[("infAP", "1")] == "1.0000"
    # est(k) = sum_c D_c (Q_c + 1e-5) / (S_c + 3e-5) with the counters at rank 4:
    # S1: D = 2, S = 2, Q = 1; S2: D = 1, S = 0, Q = 0 (adds 1/3)
    est4 = 2 * (1 + 1e-5) / (2 + 3e-5) + 1 * (0 + 1e-5) / (0 + 3e-5)
    assert got[("inum_rel_ret", "1")] == f"{est4:.4f}" == "1.3333"
    # the list (4) is shorter than 10 and 50: est(4) / k
    assert got[("iP10", "1")] == f"{est4 / 10:.4f}" == "0.1333"
    assert got[("iP50", "1")] == f"{est4 / 50:.4f}"
    assert got[("iP1000", "1")] == f"{est4 / 1000:.4f}"
    # DCG: D = 3, S1 has D_c = 2, S_c = 2, G = 1 / log2(2) = 1 -> D * (2/3 * 1 / 2) = 1
    # ideal (cds): E_1 = 1 * 3 / 2 = 1.5, rounded int(1.5 + 0.5) = 2 ranks: 1 + 1 / log2(3)
    assert got[("infNDCG", "1")] == f"{1 / (1 + 1 / math.log2(3)):.4f}" == "0.6131"
    assert got[("num_ret", "1")] == "4"


def test_trecvid_ideal_is_fractional(tmp_path: Path) -> None:
    got = lines_of(run_command(*files(tmp_path, QRELS_A, RUN_A), "-q", "--variant", "trecvid"))
    # E_1 = 1.5: rank 1 (1 <= 1.5), rank 2 > 1.5: ideal DCG = 1, so infNDCG = 1 / 1
    assert got[("infNDCG", "1")] == "1.0000"
    est4 = 2 * (1 + 1e-5) / (2 + 3e-5) + 1 / 3
    assert got[("iP5", "1")] == f"{est4 / 5:.4f}"


def test_iprec_points_by_hand(tmp_path: Path) -> None:
    got = lines_of(run_command(*files(tmp_path, QRELS_A, RUN_A)))
    # cut-offs x * R = x * 1.5; est(4) = 1.33333 so 1.5 (x=1) and 1.35 (x=.9) are never reached.
    # Walking up from rank 4: rank 4 and 3 (est 1.3333) are not below 1.2 (x=.8); rank 2
    # (est = 1.00001/1.00003) is: x=.8 takes the running maximum of est/k, est(2)/2 = 0.49999;
    # rank 1 takes x=.7 with est(1)/1 = 0.99998; the levels left get that maximum.
    e1 = (1 + 1e-5) / (1 + 3e-5)
    expected = [e1] * 8 + [e1 / 2, 0.0, 0.0]
    for i, value in enumerate(expected):
        assert got[(f"iprec@rec{i / 10:4.2f}", "all")] == f"{value:6.4f}"
    assert got[("inum_rel_ret", "all")] == "1.3333"
    assert got[("num_ret", "all")] == "4"


def test_no_relevant_sampled(tmp_path: Path) -> None:
    qrels = "2 0 a S1 0\n2 0 b S1 -1\n"
    got = lines_of(run_command(*files(tmp_path, qrels, "2 Q0 a 1 2 r\n2 Q0 b 2 1 r\n"), "-q"))
    # R = 0: infAP 0; no grade sampled: ideal DCG 0, infNDCG 0
    assert got[("infAP", "2")] == got[("infNDCG", "2")] == got[("inum_rel", "2")] == "0.0000"
    # est(2) = D (0 + 1e-5) / (S + 3e-5) with D = 2, S = 1
    assert got[("inum_rel_ret", "2")] == f"{2 * 1e-5 / (1 + 3e-5):.4f}" == "0.0000"
    # every cut-off is 0, never above est: all 11 points take max est(k)/k = est(1) = 1e-5/1.00003
    assert got[("iprec@rec0.00", "all")] == "0.0000"


# one stratum, every document sampled: a relevant, b judged non-relevant
QRELS_TIES = "3 0 a S 1\n3 0 b S 0\n"


def test_ties_by_docno_descending(tmp_path: Path) -> None:
    got = lines_of(run_command(*files(tmp_path, QRELS_TIES, "3 Q0 a 1 1.0 r\n3 Q0 b 2 1.0 r\n"), "-q"))
    # tied scores: b before a (docno descending). At a (rank 2): D = 1, S = 1, Q = 0:
    # prec = 1/2 + (1/2) * (1/1) * (0 + 1e-5) / (1 + 3e-5); R = 1 so xinfAP = prec
    prec = 1 / 2 + (1 / 2) * 1 * (0 + 1e-5) / (1 + 3e-5)
    assert got[("infAP", "3")] == f"{prec:6.4f}" == "0.5000"


def test_scores_compared_as_doubles(tmp_path: Path) -> None:
    # equal in float32 (pytrec_eval's ties), not in float64: the Perl tool puts a first
    run = "3 Q0 a 1 1.00000002 r\n3 Q0 b 2 1.00000001 r\n"
    got = lines_of(run_command(*files(tmp_path, QRELS_TIES, run), "-q"))
    assert got[("infAP", "3")] == "1.0000"


# four relevant documents, all sampled: R = 4 above a depth of 2
QRELS_DEEP = "4 0 a S 1\n4 0 b S 1\n4 0 c S 1\n4 0 d S 1\n"
RUN_DEEP = "4 Q0 a 1 3 r\n4 Q0 b 2 2 r\n4 Q0 c 3 1 r\n"


@pytest.mark.parametrize("variant", ["cds", "trecvid"])
def test_r_above_the_depth(tmp_path: Path, variant: str) -> None:
    got = lines_of(
        run_command(*files(tmp_path, QRELS_DEEP, RUN_DEEP), "-q", "--variant", variant, "--depth", "2")
    )
    # ranks 1 and 2 read: SAP = 1 + (1/2 + (1/2) * 1 * (1 + 1e-5) / (1 + 3e-5)); xinfAP = SAP / 4,
    # times R / depth = 4 / 2 in the trecvid variant
    sap = 1 + (1 / 2 + (1 / 2) * (1 + 1e-5) / (1 + 3e-5))
    ap = sap / 4 * (4 / 2 if variant == "trecvid" else 1)
    assert got[("infAP", "4")] == f"{ap:6.4f}"
    # the ideal stops at the depth (ranks 1, 2), as the list: infNDCG = 1
    assert got[("infNDCG", "4")] == "1.0000"
    assert got[("num_ret", "4")] == "3"  # lines of the topic
    assert got[("num_ret", "all")] == "2"  # capped at the depth
    est2 = 2 * (2 + 1e-5) / (2 + 3e-5)
    assert got[("inum_rel_ret", "4")] == f"{est2:.4f}"


def test_ideal_grades_in_string_order_and_past_the_depth(tmp_path: Path) -> None:
    # grades 10 and 2, one document each: the tool takes "2" before "10" (descending string
    # order), so the ideal DCG is 2/log2(2) + 10/log2(3), below the run's 10/log2(2) + 2/log2(3)
    qrels = "5 0 a S 10\n5 0 b S 2\n"
    got = lines_of(run_command(*files(tmp_path, qrels, "5 Q0 a 1 2 r\n5 Q0 b 2 1 r\n"), "-q"))
    dcg = 10 + 2 / math.log2(3)
    assert got[("infNDCG", "5")] == f"{dcg / (2 + 10 / math.log2(3)):6.4f}" == "1.3553"
    # depth 2 and grades 2, 2, 1: grade 2 fills ranks 1, 2 (the cap), grade 1 still adds rank 3
    qrels = "6 0 a S 2\n6 0 b S 2\n6 0 c S 1\n"
    run = "6 Q0 a 1 3 r\n6 Q0 b 2 2 r\n6 Q0 c 3 1 r\n"
    got = lines_of(run_command(*files(tmp_path, qrels, run), "-q", "--depth", "2"))
    ideal = 2 + 2 / math.log2(3) + 1 / math.log2(4)
    assert got[("infNDCG", "6")] == f"{(2 + 2 / math.log2(3)) / ideal:6.4f}"


# --------------------------------------------------------------------------------------------
# what is refused or noted
# --------------------------------------------------------------------------------------------


def test_no_topic_in_common_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sampled", *files(tmp_path, QRELS_TIES, "9 Q0 a 1 1 r\n")]) == 1
    assert "expected some topic of the qrels, found none" in capsys.readouterr().err


def test_four_column_qrels_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sampled", *files(tmp_path, "3 0 a 1\n", "3 Q0 a 1 1 r\n")]) == 1
    assert "expected sampled judgements, 5 columns" in capsys.readouterr().err


def test_leading_zeros_are_noted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = "3 Q0 a 1 1 r\n03 Q0 a 1 1 r\n"
    assert main(["sampled", *files(tmp_path, QRELS_TIES, run)]) == 0
    err = capsys.readouterr().err
    assert "1 topic(s) match a qrels topic only without their leading zeros (03), left out" in err


def test_duplicate_documents_are_noted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a listed twice: its last score (0.5) wins, below b (0.7), as in the tool; the per-topic
    # num_ret counts the 3 lines, the summary the 2 distinct documents (the tool's $sum_num_ret)
    run = "3 Q0 a 1 1 r\n3 Q0 b 2 0.7 r\n3 Q0 a 3 0.5 r\n"
    assert main(["sampled", *files(tmp_path, QRELS_TIES, run), "-q"]) == 0
    captured = capsys.readouterr()
    assert "duplicate" in captured.err
    got = lines_of(captured.out)
    assert got[("num_ret", "3")] == "3"
    assert got[("num_ret", "all")] == "2"
    prec = 1 / 2 + (1 / 2) * 1 * (0 + 1e-5) / (1 + 3e-5)  # a at rank 2 under b (non-relevant)
    assert got[("infAP", "3")] == f"{prec:6.4f}"


def test_bad_ranks_are_a_usage_error(tmp_path: Path) -> None:
    assert main(["sampled", *files(tmp_path, QRELS_TIES, "3 Q0 a 1 1 r\n"), "--ranks", "10,x"]) == 2
