"""ERR@k (and nDCG(dcg='exp-log2')@k) go to ir_measures' gdeval provider, the Perl script
gdeval.pl, which takes numeric topic ids only, reads ``trec-1`` as topic 1 and ``07`` as ``7``,
and grades of at most 4 (``ir_measures_pres/engine/gdeval.py``).

Such input is an input error named before gdeval runs: one line and exit status 1 on the command
line (it was "internal error (CalledProcessError ...)" and 70, or for ``trec-1`` and ``7``/``07``
a wrong number), an :class:`~ir_measures_pres.InputError` from the Python entry points (it was a
bare ``subprocess.CalledProcessError``). Input gdeval takes gives the numbers stock ir_measures
gives, computed here through ir_measures itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path
from typing import Dict, List, Optional

import ir_measures
import pytest
from ir_measures import ERR, Qrel, ScoredDoc, nDCG

import ir_measures_pres
from ir_measures_pres import InputError

PREFIX = "ir_measures_pres: error: "
BY_GDEVAL = "computed by gdeval (ir_measures' provider, the Perl script gdeval.pl), which needs"
NEEDS = f"ERR@20 is {BY_GDEVAL}"
NUMERIC = f"{NEEDS} numeric topic ids (digits 0-9 only), found"
RUN_OK = b"1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n"


def run_command(argv: List[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *argv], cwd=cwd, capture_output=True, timeout=300
    )


def write(folder: Path, files_: Dict[str, bytes]) -> None:
    for name, data in files_.items():
        (folder / name).write_bytes(data)


#: (case, qrels, run, argv after QRELS RUN, the one error line after "ir_measures_pres: error: ")
BAD = [
    (
        "non-numeric topic id",
        b"q1 0 d1 1\nq1 0 d2 0\n",
        b"q1 Q0 d1 1 1.0 r\n",
        ["ERR@20"],
        f"q: {NUMERIC} 'q1'",
    ),
    (
        "the first non-numeric id of the file is named",
        b"1 0 d1 1\ntopicA 0 d2 1\nq2 0 d3 1\n",
        RUN_OK,
        ["ERR@20"],
        f"q: {NUMERIC} 'topicA'",
    ),
    (
        "an id gdeval would read as another topic",
        b"trec-1 0 d1 1\n",
        b"trec-1 Q0 d1 1 1.0 r\n",
        ["ERR@20"],
        f"q: {NUMERIC} 'trec-1' (gdeval would read it as topic '1')",
    ),
    (
        "two ids gdeval would read as one number",
        b"7 0 d1 1\n07 0 d3 2\n",
        b"7 Q0 d1 1 1.0 r\n07 Q0 d3 1 1.0 r\n",
        ["ERR@20"],
        f"q: {NEEDS} topic ids that are different numbers (it reads them as numbers), found '7' and '07'",
    ),
    (
        "a grade above gdeval's 4",
        b"1 0 d1 1\n1 0 d2 5\n",
        RUN_OK,
        ["ERR@20"],
        f"q: {NEEDS} integer relevance grades of at most 4, found 5 at qrels query '1', document 'd2'",
    ),
    (
        "every gdeval measure of the call is named",
        b"q1 0 d1 1\n",
        b"q1 Q0 d1 1 1.0 r\n",
        ["AP", "nDCG(dcg='exp-log2')@10", "ERR@20", "PRES@100"],
        f"q: nDCG(dcg='exp-log2')@10, ERR@20 are {BY_GDEVAL} numeric topic ids (digits 0-9 only), found 'q1'",
    ),
    (
        "--provider gdeval",
        b"q1 0 d1 1\n",
        b"q1 Q0 d1 1 1.0 r\n",
        ["ERR@20", "--provider", "gdeval"],
        f"q: {NUMERIC} 'q1'",
    ),
]


@pytest.mark.parametrize("case, qrels, run, argv, line", BAD, ids=[c[0] for c in BAD])
def test_input_gdeval_cannot_take_is_one_line_and_exit_1(
    tmp_path: Path, case: str, qrels: bytes, run: bytes, argv: List[str], line: str
) -> None:
    write(tmp_path, {"q": qrels, "r": run})
    done = run_command(["q", "r", *argv], tmp_path)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1, err
    assert done.stdout == b""
    # one line: no traceback, no "internal error", nothing of gdeval.pl's own ("format error")
    assert err.splitlines() == [PREFIX + line]


@pytest.mark.parametrize("command", [["compare", "q", "r", "r2", "-m", "ERR@20"], ["q", "r", "r2", "ERR@20"]])
def test_every_command_says_it_in_the_same_words(tmp_path: Path, command: List[str]) -> None:
    write(tmp_path, {"q": b"q1 0 d1 1\n", "r": b"q1 Q0 d1 1 1.0 r\n", "r2": b"q1 Q0 d2 1 1.0 r\n"})
    done = run_command(command, tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.decode().splitlines() == [f"{PREFIX}q: {NUMERIC} 'q1'"]


def test_the_check_is_for_gdeval_only(tmp_path: Path) -> None:
    """Non-numeric ids are fine for every other measure; a run-only topic never reaches gdeval."""
    write(tmp_path, {"q": b"q1 0 d1 1\n", "r": b"q1 Q0 d1 1 1.0 r\n"})
    done = run_command(["q", "r", "AP", "nDCG@10", "PRES@100", "NTCIR_ERR@20"], tmp_path)
    assert done.returncode == 0, done.stderr
    write(tmp_path, {"q2": b"1 0 d1 1\n", "r2": b"1 Q0 d1 1 1.0 r\nq9 Q0 d1 1 1.0 r\n"})
    done = run_command(["q2", "r2", "ERR@20"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"ERR@20\t0.0625\n"  # (2^1 - 1) / 2^4 at rank 1


# ---- numbers: what stock ir_measures gives, computed through it here ----------------------------

#: numeric topics with grades 0-4, a negative grade, tied scores, a qrels topic the run lacks,
#: a topic without relevant documents, and an id with leading zeros (one number of its own)
QRELS_NUM = (
    b"1 0 d1 4\n1 0 d2 0\n1 0 d3 2\n1 0 d4 -1\n1 0 d5 1\n"
    b"2 0 d1 3\n2 0 d6 1\n2 0 d7 0\n"
    b"007 0 d2 2\n007 0 d8 4\n"
    b"10 0 d1 1\n"
    b"11 0 d9 0\n"
)
RUN_NUM = (
    b"1 Q0 d3 1 5.0 r\n1 Q0 d2 2 4.0 r\n1 Q0 d1 3 4.0 r\n1 Q0 d9 4 3.0 r\n1 Q0 d5 5 1.0 r\n1 Q0 d4 6 0.5 r\n"
    b"2 Q0 d7 1 9.0 r\n2 Q0 d6 2 8.0 r\n2 Q0 d1 3 1.0 r\n"
    b"007 Q0 d8 1 2.0 r\n007 Q0 d3 2 2.0 r\n007 Q0 d2 3 2.0 r\n"
    b"11 Q0 d9 1 1.0 r\n"
)
MEASURES = ["ERR@20", "ERR@2", "nDCG(dcg='exp-log2')@5"]


def stock(qrels: Path, run: Path) -> Dict[str, Dict[str, float]]:
    """Per measure, ``{query: value}`` and the mean under ``'all'``, from ir_measures itself."""
    measures = [ir_measures.parse_measure(m) for m in MEASURES]
    q, r = list(ir_measures.read_trec_qrels(str(qrels))), list(ir_measures.read_trec_run(str(run)))
    out: Dict[str, Dict[str, float]] = {str(m): {} for m in measures}
    for metric in ir_measures.iter_calc(measures, q, r):
        out[str(metric.measure)][metric.query_id] = metric.value
    for m, value in ir_measures.calc_aggregate(measures, q, r).items():
        out[str(m)]["all"] = value
    return out


def ours(
    folder: Path, qrels: str, run: str, extra: Optional[List[str]] = None
) -> Dict[str, Dict[str, float]]:
    """Per measure, ``{query: value}`` and the mean under ``'all'``, from the command (jsonl)."""
    done = run_command([qrels, run, *MEASURES, "-q", "--format", "jsonl", *(extra or [])], folder)
    assert done.returncode == 0, done.stderr
    out: Dict[str, Dict[str, float]] = {m: {} for m in MEASURES}
    for line in done.stdout.decode().splitlines():
        row = json.loads(line)
        out[row["measure"]][row["query_id"]] = row["value"]
    return out


def test_numeric_ids_give_ir_measures_own_numbers(tmp_path: Path) -> None:
    write(tmp_path, {"q": QRELS_NUM, "r": RUN_NUM})
    expected = stock(tmp_path / "q", tmp_path / "r")
    assert expected["ERR@20"]["1"] > 0 and expected["ERR@20"]["007"] > 0  # the values say something
    assert ours(tmp_path, "q", "r") == expected
    assert ours(tmp_path, "q", "r", ["--jobs", "1"]) == expected


def test_the_bundled_sample_gives_ir_measures_own_numbers(tmp_path: Path) -> None:
    sample = files("ir_measures_pres") / "data" / "sample"
    qrels, run = Path(str(sample / "qrels.test")), Path(str(sample / "results.test"))
    assert ours(tmp_path, str(qrels), str(run)) == stock(qrels, run)


# ---- the Python entry points ----------------------------------------------------------------------

Q_BAD = [Qrel("1", "d1", 1), Qrel("q2", "d2", 1)]
R_BAD = [ScoredDoc("1", "d1", 1.0), ScoredDoc("q2", "d2", 1.0)]


def test_python_entry_points_raise_input_error(tmp_path: Path) -> None:
    write(tmp_path, {"q": b"1 0 d1 1\nq2 0 d2 1\n", "r": b"1 Q0 d1 1 1.0 r\nq2 Q0 d2 1 1.0 r\n"})
    q, r = str(tmp_path / "q"), str(tmp_path / "r")
    calls = {
        "calc_intervals (files)": lambda: ir_measures_pres.calc_intervals([ERR @ 20], q, r),
        "calc_intervals (objects)": lambda: ir_measures_pres.calc_intervals([ERR @ 20], Q_BAD, R_BAD),
        "calc_intervals (a file and objects)": lambda: ir_measures_pres.calc_intervals([ERR @ 20], q, R_BAD),
        "compare": lambda: ir_measures_pres.compare(Q_BAD, {"a": R_BAD, "b": R_BAD}, [ERR @ 20]),
        "iter_calc_blocks": lambda: list(ir_measures_pres.iter_calc_blocks([ERR @ 20], q, r)),
        "BlockEvaluator": lambda: ir_measures_pres.BlockEvaluator("ERR@20", q),
    }
    for name, call in calls.items():
        with pytest.raises(InputError) as raised:
            call()
        where = q if "file" in name or "block" in name.lower() else "qrels"
        assert str(raised.value) == f"{where}: {NUMERIC} 'q2'", name


def test_calc_intervals_of_objects_checks_what_ir_measures_hands_gdeval() -> None:
    """ir_measures hands gdeval the whole run (a run-only topic included) and writes each grade as
    ``str.format`` does (``1.0`` is no integer to gdeval)."""
    with pytest.raises(InputError) as raised:
        ir_measures_pres.calc_intervals([ERR @ 20], Q_BAD[:1], [R_BAD[0], ScoredDoc("q9", "d1", 1.0)])
    assert str(raised.value) == f"run: {NUMERIC} 'q9'"
    with pytest.raises(InputError) as raised:
        ir_measures_pres.calc_intervals([ERR @ 20], {"1": {"d1": 1.0}}, {"1": {"d1": 1.0}})
    assert str(raised.value) == (
        f"qrels: {NEEDS} integer relevance grades of at most 4, found 1.0 at qrels query '1', document 'd1'"
    )


def test_calc_intervals_of_numeric_ids_is_ir_measures_mean(tmp_path: Path) -> None:
    write(tmp_path, {"q": QRELS_NUM, "r": RUN_NUM})
    q = list(ir_measures.read_trec_qrels(str(tmp_path / "q")))
    r = list(ir_measures.read_trec_run(str(tmp_path / "r")))
    measures = [ERR @ 20, nDCG(dcg="exp-log2") @ 5]
    expected = ir_measures.calc_aggregate(measures, q, r)
    for qrels, run in [(q, r), (iter(q), iter(r)), (str(tmp_path / "q"), str(tmp_path / "r"))]:
        got = ir_measures_pres.calc_intervals(measures, qrels, run)
        assert {m: iv.mean for m, iv in got.items()} == pytest.approx(expected, rel=1e-15, abs=0)


def test_ids_are_one_number_as_perl_reads_them() -> None:
    """Perl compares ids of up to 64 bits exactly and longer ones as doubles (``perl -e 'print
    "18446744073709551616" == "18446744073709551617"'`` prints 1)."""
    from ir_measures_pres.engine.gdeval import check_topics

    check_topics([ERR @ 20], [("q", ["9007199254740993", "9007199254740992", "18446744073709551615"])])
    for pair in (["18446744073709551616", "18446744073709551617"], ["9" * 5000, "8" * 5000], ["0", "00"]):
        with pytest.raises(InputError, match="different numbers"):
            check_topics([ERR @ 20], [("q", pair)])
