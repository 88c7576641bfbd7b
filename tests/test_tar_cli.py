"""The ``tar`` command against the official CLEF TAR 2017 tool's outputs, and its errors.

Expected values: the organisers' own result files (tests/data/clef-tar-2017/official_tar_eval,
produced by tar_eval.py), compared byte for byte.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Tuple

import pytest
from conftest import DATA

from ir_measures_pres.cli._command import guarded
from ir_measures_pres.cli.tar import tar_cli

TAR = DATA / "clef-tar-2017"
QRELS = {"abstract": TAR / "qrels" / "qrel_abs_test.txt", "document": TAR / "qrels" / "qrel_content_test.txt"}
OFFICIAL = sorted(
    (level, path.name[: -len(".results")])
    for level in QRELS
    for path in (TAR / "official_tar_eval" / level).glob("*.results")
)


def run_tar(*args: str) -> Tuple[int, str, str]:
    """The ``tar`` command as ``ir_measures_pres tar ...`` runs it (errors through the shared
    error path: one line, exit status)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = guarded(lambda: tar_cli([str(a) for a in args], out=out, err=err))
    return code, out.getvalue(), err.getvalue()


def is_notice(line: str) -> bool:
    return line.startswith("Skipping topic: ") or " Duplicate " in line


def test_all_23_official_outputs_are_there() -> None:
    assert len(OFFICIAL) == 23


#: the package's own warning (not the tool's) for the one run that lacks qrels topics (issue #20)
LACKS = {
    "iiit.run1": "ir_measures_pres: warning: run iiit.run1 lacks 3 of the 30 topics "
    "(CD009135, CD010276, CD011145), left out, as the tool leaves them\n"
}


def runid(run: str) -> str:
    """The line that opens each run's block when several runs are given (trec_eval's runid)."""
    return f"ALL\trunid\t{run}\n"


@pytest.mark.parametrize("level,run", OFFICIAL)
def test_official_2017_output_byte_for_byte(level: str, run: str) -> None:
    """With --notices stdout the output is the tool's, notices where the tool prints them."""
    expected = (TAR / "official_tar_eval" / level / f"{run}.results").read_text()
    code, out, err = run_tar(
        "--edition", "2017", "--notices", "stdout", QRELS[level], TAR / "runs" / f"{run}.gz"
    )
    assert code == 0 and err == LACKS.get(run, "")
    assert out == expected


@pytest.mark.parametrize("level,run", [("document", "uos.sis.TMAL30Q_BM25"), ("document", "amc.run")])
def test_notices_go_to_stderr_by_default(level: str, run: str) -> None:
    expected = (TAR / "official_tar_eval" / level / f"{run}.results").read_text().splitlines(keepends=True)
    code, out, err = run_tar("--edition", "2017", QRELS[level], TAR / "runs" / f"{run}.gz")
    assert code == 0
    assert out == "".join(line for line in expected if not is_notice(line))
    assert err == "".join(line for line in expected if is_notice(line))


def test_several_runs_print_one_after_the_other(tmp_path: Path) -> None:
    """Each run's block opens with its name (issue #20, item 10: they were not told apart)."""
    runs = ["waterloo.A-thresh-normal", "iiit.run1"]
    expected = "".join(
        runid(r) + (TAR / "official_tar_eval" / "abstract" / f"{r}.results").read_text() for r in runs
    )
    code, out, err = run_tar(
        "--edition", "2017", QRELS["abstract"], *(TAR / "runs" / f"{r}.gz" for r in runs)
    )
    assert code == 0 and out == expected
    assert err == LACKS["iiit.run1"]
    # a folder of runs is its files in name order, labelled the same way
    folder = tmp_path / "runs"
    folder.mkdir()
    for r in runs:
        (folder / f"{r}.gz").write_bytes((TAR / "runs" / f"{r}.gz").read_bytes())
    code, out, _ = run_tar("--edition", "2017", QRELS["abstract"], folder)
    assert code == 0 and out == "".join(
        runid(r) + (TAR / "official_tar_eval" / "abstract" / f"{r}.results").read_text() for r in sorted(runs)
    )


@pytest.mark.parametrize("fmt", ["tool", "tsv"])
def test_runs_scored_in_forked_processes_print_what_one_process_prints(fmt: str) -> None:
    """--jobs 3: the runs are scored by forked processes, the output (notices on stdout and
    stderr included) is written in the order of the runs, as --jobs 1 writes it; the official
    files are the expected bytes."""
    runs = ["waterloo.A-thresh-normal", "uos.sis.TMAL30Q_BM25", "amc.run", "iiit.run1"]
    paths = [TAR / "runs" / f"{r}.gz" for r in runs]
    args = ["--edition", "2017", "--format", fmt, QRELS["document"], *paths]
    outcomes = [run_tar(*args, "--jobs", jobs) for jobs in ("1", "3")]
    assert outcomes[0] == outcomes[1] and outcomes[0][0] == 0
    if fmt == "tool":
        code, out, _ = run_tar(
            "--edition", "2017", "--notices", "stdout", "--jobs", "3", QRELS["document"], *paths
        )
        expected = "".join(
            runid(r) + (TAR / "official_tar_eval" / "document" / f"{r}.results").read_text() for r in runs
        )
        assert code == 0 and out == expected


def test_a_bad_run_among_forked_ones_is_reported_and_the_others_printed(tmp_path: Path) -> None:
    qrels = write(tmp_path, "qrels.txt", QRELS_SMALL)
    good = write(tmp_path, "good.txt", "T NF d1 1 1 x\nT NF d2 2 1 x\n")
    bad = write(tmp_path, "bad.txt", "T NF d1 1 1 x\nT XX d2 2 1 x\n")
    for jobs in ("1", "3"):
        code, out, err = run_tar("--edition", "2017", "--jobs", jobs, qrels, good, bad, good)
        lines = err.splitlines()
        assert code == 1 and len(lines) == 2 and "bad.txt:2: expected an interaction code" in lines[0]
        assert lines[1].endswith(
            "1 of 3 runs could not be evaluated (see above); the others are in the output"
        )
        # the runs before and after it are printed (the commands' one policy, cli/_runs.py);
        # good.txt is given twice: its label is the path, as the main command labels such runs
        assert out == 2 * (runid(str(good)) + run_tar("--edition", "2017", qrels, good)[1])


def test_tsv_and_jsonl_hold_the_same_rows_unrounded() -> None:
    run = TAR / "runs" / "waterloo.B-thresh-normal.gz"
    _, tool, _ = run_tar("--edition", "2017", QRELS["abstract"], run)
    _, tsv, _ = run_tar("--edition", "2017", "--format", "tsv", QRELS["abstract"], run)
    _, jsonl, _ = run_tar("--edition", "2017", "--format", "jsonl", QRELS["abstract"], run)
    tool_rows = [line.split("\t") for line in tool.splitlines()]
    tsv_rows = [line.split("\t") for line in tsv.splitlines()]
    rows = [json.loads(line) for line in jsonl.splitlines()]
    assert [r[:2] for r in tool_rows] == [r[:2] for r in tsv_rows]
    assert [[r["query_id"], r["measure"]] for r in rows] == [r[:2] for r in tsv_rows]
    ap = [r for r in rows if r["measure"] == "ap" and r["query_id"] == "ALL"][0]["value"]
    assert round(ap, 3) == float([r for r in tool_rows if r[:2] == ["ALL", "ap"]][0][2])


# --------------------------------------------------------------------------------------------
# errors: one line, exit 1 for input, 2 for usage; never a traceback
# --------------------------------------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


QRELS_SMALL = "".join(f"T 0 d{i} {1 if i < 3 else 0}\n" for i in range(20))


@pytest.mark.parametrize(
    "run,message",
    [
        (
            "T NF d1 1 1 x\nT XX d2 2 1 x\n",
            "run.txt:2: expected an interaction code in column 2 (NF, AF, NS, AFN, AFS, DFN, DFS, NFS, "
            "NFN, Q0), found 'XX'",
        ),
        (
            "T NF d1 1 1 x\nU NF d2 1 1 x\nT NF d3 2 1 x\n",
            "run.txt:3: expected the lines of each topic together",
        ),
        ("T NF d1 1 1\n", "run.txt:1: expected at least 6 columns"),
    ],
)
def test_input_errors_name_the_line(tmp_path: Path, run: str, message: str) -> None:
    qrels = write(tmp_path, "qrels.txt", QRELS_SMALL)
    code, out, err = run_tar("--edition", "2017", qrels, write(tmp_path, "run.txt", run))
    assert code == 1 and out == ""
    assert err.startswith("ir_measures_pres: error: ") and message in err
    assert err.count("\n") == 1


def test_unknown_code_after_dropped_lines_still_names_its_line(tmp_path: Path) -> None:
    qrels = write(tmp_path, "qrels.txt", QRELS_SMALL + "T 0 x3 3\n")
    run = write(tmp_path, "run.txt", "T NF x3 1 1 x\nT NF d1 2 1 x\nT NF d1 3 1 x\nT ZZ d2 4 1 x\n")
    code, _, err = run_tar("--edition", "2017", qrels, run)
    assert code == 1 and "run.txt:4: expected an interaction code" in err


def test_usage_errors_exit_2() -> None:
    args = [sys.executable, "-m", "ir_measures_pres", "tar", "--edition", "2017", "--task", "1"]
    done = subprocess.run(args + [str(QRELS["abstract"]), "x"], capture_output=True, text=True)
    assert done.returncode == 2 and "--task belongs to the 2018 tool" in done.stderr
    done = subprocess.run(args[:4] + ["--edition", "2016", "q", "r"], capture_output=True, text=True)
    assert done.returncode == 2


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    code, _, err = run_tar("--edition", "2017", QRELS["abstract"], tmp_path / "nope.txt")
    assert code == 1 and err.startswith("ir_measures_pres: error: ") and "nope.txt" in err


def test_command_line_through_the_console_script() -> None:
    args = [sys.executable, "-m", "ir_measures_pres", "tar", "--edition", "2017"]
    run = TAR / "runs" / "waterloo.B-thresh-normal.gz"
    done = subprocess.run(args + [str(QRELS["abstract"]), str(run)], capture_output=True, text=True)
    assert done.returncode == 0
    assert (
        done.stdout
        == (TAR / "official_tar_eval" / "abstract" / "waterloo.B-thresh-normal.results").read_text()
    )


@pytest.mark.parametrize("run", ["amc.run", "waterloo.B-thresh-normal"])
def test_rel_2_on_the_graded_qrels_is_the_content_level(run: str) -> None:
    """--rel 2 on the graded qrels (0/1/2) gives the official document-level (content) output."""
    expected = (TAR / "official_tar_eval" / "document" / f"{run}.results").read_text()
    graded = TAR / "qrels" / "test.clef2017.qrels"
    code, out, _ = run_tar(
        "--edition", "2017", "--rel", "2", "--notices", "stdout", graded, TAR / "runs" / f"{run}.gz"
    )
    assert code == 0 and out == expected


def test_no_topic_evaluated_prints_the_tools_initial_all_block(tmp_path: Path) -> None:
    qrels = write(tmp_path, "q", "Z 0 a 0\n")
    code, out, err = run_tar("--edition", "2017", qrels, write(tmp_path, "r", "Z NF a 1 0 x\n"))
    assert code == 0 and err == "Skipping topic: Z\n"
    lines = out.splitlines()
    assert lines[:3] == ["ALL\ttopic_id\tALL", "ALL\tnum_docs\t0", "ALL\tnum_rels\t0"]
    assert "ALL\tlast_rel\t0" in lines and "ALL\twss_100\t0.0" in lines and "ALL\tNCG@10\t0.0" in lines


def test_topic_absent_from_the_qrels_is_skipped_and_left_out_of_all(tmp_path: Path) -> None:
    qrels = write(tmp_path, "q", QRELS_SMALL)
    run = write(tmp_path, "r", "X NF a 1 0 x\nT NF d0 1 0 x\n")
    code, out, err = run_tar("--edition", "2017", qrels, run)
    assert code == 0 and err == "Skipping topic: X\n"
    assert "X\t" not in out and "T\tnum_docs\t20" in out and "ALL\tnum_docs\t20" in out
