"""``ir_measures_pres QRELS RUN [RUN ...] MEASURE [MEASURE ...]``: many runs in one process.

Expected values are written out by hand for the small cases (the arithmetic is in the comments),
and come from pytrec_eval called directly on the Robust 2003 files (read by plain Python here).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
import pytrec_eval
from conftest import shared_data

from ir_measures_pres.cli.evaluate import main

REPO = Path(__file__).resolve().parents[1]
PREFIX = "ir_measures_pres: error: "

QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\n"
# run A, q1: a c b -> relevant at 1 and 2 of R = 2: AP = (1/1 + 2/2) / 2 = 1; q2: x at 1: AP 1
RUN_A = "q1 Q0 a 1 3 tagA\nq1 Q0 c 2 2 tagA\nq1 Q0 b 3 1 tagA\nq2 Q0 x 1 1 tagA\n"
# run B, q1: b a -> a relevant at 2: AP = (1/2) / 2 = 0.25; q2 missing: AP 0 (every qrels query counts)
RUN_B = "q1 Q0 b 1 2 tagB\nq1 Q0 a 2 1 tagB\n"


def cli(args: List[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *args],
        cwd=cwd,
        capture_output=True,
        timeout=300,
        text=True,
    )


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "qrels").write_text(QRELS)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.run").write_text(RUN_A)
    with gzip.open(runs / "b.run.gz", "wt") as f:
        f.write(RUN_B)
    (runs / ".hidden").write_text("not a run")
    return tmp_path


def test_tsv_has_a_run_column(files: Path) -> None:
    done = cli(["qrels", "runs/a.run", "runs/b.run.gz", "AP", "NumRet"], files)
    assert done.returncode == 0, done.stderr
    # NumRet: the sum over queries (3 + 1 = 4 and 2)
    assert (
        done.stdout == "a.run\tAP\t1.0000\na.run\tNumRet\t4.0000\nb.run\tAP\t0.1250\nb.run\tNumRet\t2.0000\n"
    )


def test_a_directory_is_its_runs_sorted_hidden_files_left_out(files: Path) -> None:
    done = cli(["qrels", "runs", "AP"], files)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a.run\tAP\t1.0000\nb.run\tAP\t0.1250\n"


def test_per_query_rows_and_jsonl(files: Path) -> None:
    done = cli(["qrels", "runs", "AP", "-q"], files)
    assert done.stdout.splitlines() == [
        "a.run\tq1\tAP\t1.0000",
        "a.run\tq2\tAP\t1.0000",
        "a.run\tall\tAP\t1.0000",
        "b.run\tq1\tAP\t0.2500",
        "b.run\tq2\tAP\t0.0000",  # DEFAULT for the missing query, as ir_measures gives it
        "b.run\tall\tAP\t0.1250",
    ]
    done = cli(["qrels", "runs", "AP", "-o", "jsonl"], files)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows == [
        {"run": "a.run", "measure": "AP", "value": 1.0},
        {"run": "b.run", "measure": "AP", "value": 0.125},
    ]


def test_trec_format_opens_each_run_with_its_runid_line(files: Path) -> None:
    done = cli(["qrels", "runs", "map", "--format", "trec"], files)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{'runid':<22}\tall\ttagA",
        f"{'map':<22}\tall\t1.0000",
        f"{'runid':<22}\tall\ttagB",
        f"{'map':<22}\tall\t0.1250",
    ]


def test_one_run_keeps_the_stock_output(files: Path) -> None:
    done = cli(["qrels", "runs/a.run", "AP"], files)
    assert done.stdout == "AP\t1.0000\n"


def test_runs_sharing_a_file_name_are_named_by_path(files: Path) -> None:
    (files / "other").mkdir()
    (files / "other" / "a.run").write_text(RUN_B)
    done = cli(["qrels", "runs/a.run", "other/a.run", "AP"], files)
    assert done.stdout == "runs/a.run\tAP\t1.0000\nother/a.run\tAP\t0.1250\n"


def test_a_bad_run_is_reported_and_the_others_are_still_evaluated(files: Path) -> None:
    (files / "bad.run").write_text("q1 Q0 a 1 high tagC\n")
    done = cli(["qrels", "runs/a.run", "bad.run", "runs/b.run.gz", "AP"], files)
    assert done.returncode == 1
    assert done.stdout == "a.run\tAP\t1.0000\nb.run.gz\tAP\t0.1250\n".replace("b.run.gz", "b.run")
    lines = done.stderr.splitlines()
    assert len(lines) == 3 and "Traceback" not in done.stderr
    assert lines[0].startswith(PREFIX + "bad.run:1:") and "'high'" in lines[0]
    # b.run has no line for q2: said, not scored 0 silently (issue #20, item 2)
    assert (
        lines[1] == "ir_measures_pres: warning: run b.run lacks 1 of the 2 topics (q2), "
        "scored as an empty ranking on them "
        "(0 for most measures)"
    )
    assert lines[2] == PREFIX + "1 of 3 runs could not be evaluated (see above); the others are in the output"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["qrels", "runs/a.run", "AP", "runs/b.run.gz"], ["'runs/b.run.gz' is a file after the measures"]),
        (["qrels", "runs/a.run", "runs/nope.run", "AP"], ["'runs/nope.run' is neither a run file"]),
        (["qrels", "runs/a.run", "runs/b.run.gz"], ["expected at least one MEASURE"]),
        (["qrels", "runs/a.run", "-", "-", "AP"], ["only one RUN can be read from standard input"]),
    ],
)
def test_misplaced_arguments_are_usage_errors(files: Path, argv: List[str], words: List[str]) -> None:
    done = cli(argv, files)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(PREFIX)
    for word in words:
        assert word in done.stderr


def test_a_file_named_like_a_measure_at_the_end_is_the_measure(files: Path) -> None:
    (files / "AP").write_text("a file called AP\n")
    done = cli(["qrels", "runs/a.run", "runs/b.run.gz", "AP"], files)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a.run\tAP\t1.0000\nb.run\tAP\t0.1250\n"


def _read(path: Path, qrels: bool) -> Dict[str, Dict[str, float]]:
    out: Dict[str, Dict[str, float]] = {}
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        for line in f:
            p = line.split()
            if qrels:
                out.setdefault(p[0], {})[p[2]] = int(p[3])
            else:
                out.setdefault(p[0], {})[p[2]] = float(p[4])
    return out


def test_the_17_robust_runs_in_one_call_give_pytrec_evals_means(capsys: pytest.CaptureFixture) -> None:
    folder = shared_data("real", "trec-robust-2003")
    qrels_path = folder / "qrels" / "robust03_qrels.txt"
    assert main([str(qrels_path), str(folder / "runs"), "AP P@10 nDCG@10 R@1000", "-p", "-1"]) == 0
    got = {}
    for line in capsys.readouterr().out.splitlines():
        run, measure, value = line.split("\t")
        got[(run, measure)] = float(value)
    qrels = _read(qrels_path, True)
    names = {"AP": "map", "P@10": "P_10", "nDCG@10": "ndcg_cut_10", "R@1000": "recall_1000"}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(names.values()))
    runs = sorted((folder / "runs").iterdir())
    assert len(runs) == 17 and len(got) == 17 * 4
    for path in runs:
        per_query = evaluator.evaluate(_read(path, False))
        for measure, name in names.items():
            # the mean over every qrels query (0 for a query the run lacks), as ir_measures
            expected = sum(v[name] for v in per_query.values()) / len(qrels)
            assert got[(path.name[: -len(".gz")], measure)] == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("output", [[], ["-q"], ["-o", "jsonl"], ["--format", "trec", "-q"]])
def test_runs_scored_in_forked_workers_give_the_same_bytes_as_one_process(
    files: Path, output: List[str]
) -> None:
    """--jobs 3 scores the runs in forked workers; what they print (rows, a run's warning, a bad
    run's error) comes back and is written in the order of the runs, as --jobs 1 writes it."""
    (files / "bad.run").write_text("q1 Q0 a 1 0.5 tagC\nq1 Q0 b 2 high tagC\n")
    (files / "dup.run").write_text("q1 Q0 a 1 2 tagD\nq1 Q0 a 2 1 tagD\nq2 Q0 x 1 1 tagD\n")
    argv = ["qrels", "runs/a.run", "bad.run", "dup.run", "runs/b.run.gz", "AP", "P@1", "PRES@10", *output]
    one = cli([*argv, "--jobs", "1"], files)
    forked = cli([*argv, "--jobs", "3"], files)
    assert (forked.returncode, forked.stdout, forked.stderr) == (one.returncode, one.stdout, one.stderr)
    assert one.returncode == 1 and "Traceback" not in one.stderr
    errors = one.stderr.splitlines()
    assert len(errors) == 4
    assert errors[0].startswith(PREFIX + "bad.run:2:") and "'high'" in errors[0]
    assert "dup.run: 1 duplicate (query, document) result line(s) dropped" in errors[1]
    assert (
        errors[2] == "ir_measures_pres: warning: run b.run lacks 1 of the 2 topics (q2), "
        "scored as an empty ranking on them "
        "(0 for most measures)"
    )
    assert (
        errors[3] == PREFIX + "1 of 4 runs could not be evaluated (see above); the others are in the output"
    )
