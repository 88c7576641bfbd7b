"""``ir_measures_pres QRELS RUN MEASURE ... --bounds``: the columns and keys it adds (docs/cli.md).

Per-query bounds are the Python function's (tests/test_bounds.py checks those against brute
force over every completion, scored by ir_measures); here the command's layout, its means over
every qrels topic (DEFAULTs included), blocks, several runs and its usage errors. One case is
written out by hand.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Dict, Tuple

import ir_measures
import pytest

from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data import runblocks
from ir_measures_pres.engine.bounds import calc_bounds

SAMPLE = Path(__file__).resolve().parents[1] / "ir_measures_pres" / "data" / "sample"
QRELS = SAMPLE / "qrels.test"
RUN = SAMPLE / "results.test"
MEASURES = "AP nDCG@10 P@10 PRES@1000 Rprec QMeasure"


def in_process(*args: str) -> Tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(list(args))
    return status, out.getvalue()


def write(path: Path, lines: str) -> Path:
    path.write_text(lines)
    return path


def test_hand_case(tmp_path: Path) -> None:
    """d1 (unjudged) d2 (relevant) d3 (unjudged); a second topic q2 the run lacks (DEFAULT 0).
    AP of q1: 1/2 as judged, from 1/2 (nothing more relevant) to 1 ({d1}: (1 + 1) / 2).
    Means over both topics: value 1/4, lo 1/4, hi 1/2. P@2: 1/2 .. 2/2 for q1, 0 for q2.
    unj@10, added by --bounds without bounds: q1 has d1 and d3 unjudged in its top 10, 2/10
    (trec_eval 10 divides by the cutoff); q2 0 (DEFAULT): mean 0.1."""
    qrels = write(tmp_path / "qrels", "q1 0 d2 1\nq2 0 x 1\n")
    run = write(tmp_path / "run", "q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\n")
    status, out = in_process(str(qrels), str(run), "AP P@2", "--bounds")
    assert status == 0
    assert out.splitlines() == [
        "AP\t0.2500\t0.2500\t0.5000\ttrue",
        "P@2\t0.2500\t0.2500\t0.5000\ttrue",
        "unj@10\t0.1000\t\t\t",
    ]
    status, out = in_process(str(qrels), str(run), "AP", "--bounds", "-q", "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [
        {"query_id": "q1", "measure": "AP", "value": 0.5, "lo": 0.5, "hi": 1.0, "exact": True},
        {"query_id": "q1", "measure": "unj@10", "value": 0.2},
        {"query_id": "q2", "measure": "AP", "value": 0.0, "lo": 0.0, "hi": 0.0, "exact": True},
        {"query_id": "q2", "measure": "unj@10", "value": 0.0},
        {"query_id": "all", "measure": "AP", "value": 0.25, "lo": 0.25, "hi": 0.5, "exact": True},
        {"query_id": "all", "measure": "unj@10", "value": 0.1},
    ]
    # unj@10 asked for: printed once, without bounds (its value does not depend on relevance)
    status, out = in_process(str(qrels), str(run), "unj@10 AP", "--bounds")
    assert status == 0
    assert out.splitlines() == ["unj@10\t0.1000\t\t\t", "AP\t0.2500\t0.2500\t0.5000\ttrue"]


def test_bounds_with_intervals(tmp_path: Path) -> None:
    """--ci and --bounds together: tsv ``measure value ci_low ci_high lo hi exact``, the interval
    on the mean rows only. Three topics, AP as judged 1/2, 1, 0 (mean 1/2, sample sd 1/2):
    Student's 95% interval 1/2 -+ t(0.975, 2) * (1/2) / sqrt(3), t from scipy. AP's bounds: q1
    as in test_hand_case (1/2 .. 1), q2 and q3 judged throughout: means lo 1/2, hi 2/3."""
    from scipy import stats

    qrels = write(tmp_path / "qrels", "q1 0 d2 1\nq2 0 e1 1\nq3 0 f1 1\nq3 0 f2 0\n")
    run = write(
        tmp_path / "run",
        "q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\nq2 Q0 e1 1 1 t\nq3 Q0 f2 1 1 t\n",
    )
    half = stats.t.ppf(0.975, 2) * 0.5 / 3**0.5
    status, out = in_process(str(qrels), str(run), "AP", "--bounds", "--ci", "0.95", "-p", "6")
    assert status == 0
    ap, unj = (line.split("\t") for line in out.splitlines())
    assert ap[0] == "AP" and ap[-1] == "true"
    assert [float(x) for x in ap[1:6]] == pytest.approx([0.5, 0.5 - half, 0.5 + half, 0.5, 2 / 3], abs=1e-6)
    assert unj[0] == "unj@10" and unj[4:] == ["", "", ""] and unj[2] != ""  # unj's mean has an interval
    status, out = in_process(
        str(qrels), str(run), "AP", "--bounds", "--ci", "0.95", "-q", "--format", "jsonl"
    )
    rows = [json.loads(line) for line in out.splitlines() if '"AP"' in line]
    assert [r["query_id"] for r in rows] == ["q1", "q2", "q3", "all"]
    assert all("ci_low" not in r for r in rows[:3]) and rows[0]["hi"] == 1.0
    assert rows[3]["ci_low"] == pytest.approx(0.5 - half) and rows[3]["ci_high"] == pytest.approx(0.5 + half)
    assert rows[3]["lo"] == 0.5 and rows[3]["hi"] == pytest.approx(2 / 3)
    status, out = in_process(str(qrels), str(run), "AP", "--bounds", "--ci", "0.95", "-q")
    assert [len(line.split("\t")) for line in out.splitlines()] == [8] * 8  # qid measure value + 5


def _python_bounds() -> Dict[str, object]:
    measures = list(ir_measures.read_trec_qrels(str(QRELS)))
    run = list(ir_measures.read_trec_run(str(RUN)))
    return {str(m): b for m, b in calc_bounds(MEASURES, measures, run).items()}


def test_calc_bounds_reads_files_as_the_command_does() -> None:
    """Paths (the strict readers, as the command reads them) give what ir_measures' objects give."""
    from_files = calc_bounds(MEASURES, str(QRELS), RUN)
    for m, b in calc_bounds(
        MEASURES, list(ir_measures.read_trec_qrels(str(QRELS))), list(ir_measures.read_trec_run(str(RUN)))
    ).items():
        f = from_files[m]
        assert (f.value, f.lo, f.hi, f.exact) == (
            pytest.approx(b.value),
            pytest.approx(b.lo),
            pytest.approx(b.hi),
            b.exact,
        )
        assert list(f.per_query) == list(b.per_query)
        for qid, q in b.per_query.items():
            assert (f.per_query[qid].lo, f.per_query[qid].hi) == (pytest.approx(q.lo), pytest.approx(q.hi))


def test_jsonl_per_query_and_means_equal_the_function() -> None:
    status, out = in_process(str(QRELS), str(RUN), MEASURES, "--bounds", "-q", "--format", "jsonl")
    assert status == 0
    expected = _python_bounds()
    plain = {
        (r["query_id"], r["measure"]): r["value"]
        for r in map(
            json.loads, in_process(str(QRELS), str(RUN), MEASURES, "-q", "--format", "jsonl")[1].splitlines()
        )
        if r["query_id"] != "all"
    }
    seen = 0
    for row in map(json.loads, out.splitlines()):
        if row["measure"] == "unj@10":  # added by --bounds, without bounds (test_hand_case)
            continue
        b = expected[row["measure"]]
        if row["query_id"] != "all":
            q = b.per_query[row["query_id"]]  # type: ignore[attr-defined]
            assert row["value"] == pytest.approx(plain[(row["query_id"], row["measure"])], abs=1e-12)
            assert (row["lo"], row["hi"], row["exact"]) == (pytest.approx(q.lo), pytest.approx(q.hi), q.exact)
            assert row["lo"] <= row["value"] + 1e-12 <= row["hi"] + 2e-12
            seen += 1
        else:
            assert (row["lo"], row["hi"], row["exact"]) == (pytest.approx(b.lo), pytest.approx(b.hi), b.exact)  # type: ignore[attr-defined]
    assert seen == 6 * 3


def test_tsv_columns_and_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """tsv: measure, value, lo, hi, exact; the same whatever the blocks the run is read in."""
    status, whole = in_process(str(QRELS), str(RUN), MEASURES, "--bounds", "-p", "6")
    assert status == 0
    expected = _python_bounds()
    plain = dict(
        line.split("\t") for line in in_process(str(QRELS), str(RUN), MEASURES, "-p", "6")[1].splitlines()
    )
    for line in whole.splitlines()[:-1]:  # the last: unj@10, added without bounds
        measure, value, lo, hi, exact = line.split("\t")
        b = expected[measure]
        assert value == plain[measure]
        assert (float(lo), float(hi)) == (pytest.approx(b.lo, abs=1e-6), pytest.approx(b.hi, abs=1e-6))  # type: ignore[attr-defined]
        assert exact == ("true" if b.exact else "false")  # type: ignore[attr-defined]
    monkeypatch.setattr(runblocks, "BLOCK_LINES", 120)
    assert in_process(str(QRELS), str(RUN), MEASURES, "--bounds", "-p", "6")[1] == whole


def test_graded_outer_bounds_say_so(tmp_path: Path) -> None:
    qrels = write(tmp_path / "qrels", "q1 0 d2 2\nq1 0 d4 1\n")
    run = write(tmp_path / "run", "q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\n")
    status, out = in_process(str(qrels), str(run), "nDCG AP", "--bounds")
    assert status == 0
    assert [line.split("\t")[-1] for line in out.splitlines()] == ["false", "true", ""]  # unj@10 last


def test_several_runs_have_a_run_column(tmp_path: Path) -> None:
    status, out = in_process(str(QRELS), str(RUN), str(RUN), "AP", "--bounds")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 4 and all(len(line.split("\t")) == 6 for line in lines)  # AP, unj@10 per run
    assert [line.split("\t")[1] for line in lines] == ["AP", "unj@10"] * 2


@pytest.mark.parametrize(
    "args, words",
    [
        (("AP Bpref",), "Bpref: no bounds"),
        (("AP(judged_only=True)",), "judged_only=True"),
        (("AP", "--format", "trec"), "--format trec"),
        (("rbp(p=0.5)",), "rbp(p=0.5): no bounds over unjudged documents: trec_eval 10's rbp"),
    ],
)
def test_usage_errors(args: Tuple[str, ...], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = in_process(str(QRELS), str(RUN), *args, "--bounds")
    assert status == 2 and out == ""
    assert words in capsys.readouterr().err


def test_without_bounds_nothing_changes() -> None:
    """The option off: the stock rows (two columns)."""
    _, out = in_process(str(QRELS), str(RUN), "AP P@10")
    assert [len(line.split("\t")) for line in out.splitlines()] == [2, 2]


def test_rbp_residual_in_jsonl(tmp_path: Path) -> None:
    """NTCIR_RBP(p=0.5) of d1 (unjudged) d2 (relevant) d3 (unjudged) d4 (non-relevant): 0.25,
    hi 0.25 + 0.5 * (1 + 0.25) = 0.875, residual 0.625 + 0.5^4 = 0.6875; q2, which the run
    lacks: 0 with residual 1. Means: residual (0.6875 + 1) / 2."""
    qrels = write(tmp_path / "qrels", "q1 0 d2 1\nq1 0 d4 0\nq2 0 x 1\n")
    run = write(tmp_path / "run", "".join(f"q1 Q0 d{k} {k} {5 - k} t\n" for k in range(1, 5)))
    status, out = in_process(str(qrels), str(run), "NTCIR_RBP(p=0.5)", "--bounds", "-q", "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines() if "unj@10" not in line]
    assert [(r["query_id"], r["value"], r["lo"], r["hi"], r["residual"]) for r in rows] == [
        ("q1", 0.25, 0.25, 0.875, 0.6875),
        ("q2", 0.0, 0.0, 0.0, 1.0),
        ("all", 0.125, 0.125, 0.4375, (0.6875 + 1) / 2),
    ]


def test_unjudged_fraction_beside_the_bounds() -> None:
    """With --bounds each run also reports unj@10 (trec_eval 10's measure, issue #29), without
    bounds of its own. Expected value: the fraction of each topic's top 10 (trec_eval's order)
    that the qrels lack, from the files."""
    from ir_measures_pres.measures.catalogue import parse_measures

    (unj,) = parse_measures("unj@10")
    judged: Dict[str, set] = {}
    for q in ir_measures.read_trec_qrels(str(QRELS)):
        if q.relevance >= 0:
            judged.setdefault(q.query_id, set()).add(q.doc_id)
    by_query: Dict[str, list] = {}
    for d in ir_measures.read_trec_run(str(RUN)):
        by_query.setdefault(d.query_id, []).append((d.score, d.doc_id))
    fractions = []
    for q in judged:
        top = sorted(by_query.get(q, []), reverse=True)[:10]
        fractions.append(sum(doc not in judged[q] for _, doc in top) / 10 if top else 0.0)
    status, out = in_process(str(QRELS), str(RUN), "AP", "--bounds", "-p", "6")
    assert status == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[1][0] == str(unj) and rows[1][2:] == ["", "", ""]
    assert float(rows[1][1]) == pytest.approx(sum(fractions) / len(fractions), abs=1e-6)


def test_a_measure_without_bounds_leaves_the_cells_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer's place for unj@10, tried with NumRet standing in for it: tsv prints its value
    and three empty cells, jsonl no lo/hi/exact keys."""
    from ir_measures_pres.cli import evaluate

    monkeypatch.setattr(evaluate, "with_unjudged_fraction", lambda measures: measures + [ir_measures.NumRet])
    status, out = in_process(str(QRELS), str(RUN), "AP", "--bounds")
    assert status == 0
    assert out.splitlines()[1].split("\t") == ["NumRet", "1500.0000", "", "", ""]  # 3 topics x 500
    status, out = in_process(str(QRELS), str(RUN), "AP", "--bounds", "--format", "jsonl")
    assert json.loads(out.splitlines()[1]) == {"measure": "NumRet", "value": 1500.0}
