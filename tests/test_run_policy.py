"""One policy for every command that evaluates runs one after another (cli/_runs.py): with
several runs a bad run is reported and the good ones are still printed (``1 of 3 runs could not
be evaluated``, exit 1); a command stopped by SIGTERM mid-run exits 143 and prints nothing (also
``compare`` and the meta-evaluation, which read their runs one after another too).

The stop is sent while the command waits on a FIFO given as its last run: every run before it is
done by then, so an output written run by run would show their blocks."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

PREFIX = "ir_measures_pres: error: "

# per command: (judgements file, good run, argument list with QRELS and RUNS placeholders)
RUN = "3 Q0 a 1 3 r\n3 Q0 b 2 2 r\n3 Q0 c 3 1 r\n4 Q0 d 1 1 r\n"
CASES: Dict[str, Tuple[str, str, List[str]]] = {
    "main": ("3 0 a 1\n3 0 c 1\n4 0 d 1\n", RUN, ["QRELS", "RUNS", "AP", "P@2"]),
    "sampled": ("3 0 a 1 1\n3 0 b 1 0\n3 0 c 2 -1\n4 0 d 1 1\n", RUN, ["sampled", "QRELS", "RUNS", "-q"]),
    "statap": (
        "3 a 1 1 1\n3 b 0 1 0.5\n3 c 1 1 0.5\n4 d 1 1 1\n",
        RUN,
        ["sampled", "--tool", "statap", "QRELS", "RUNS"],
    ),
    "tar": ("3 0 a 1\n3 0 b 0\n3 0 c 1\n4 0 d 1\n", RUN.replace(" Q0 ", " 0 "), ["tar", "QRELS", "RUNS"]),
    "curves": ("3 0 a 1\n3 0 c 1\n4 0 d 1\n", RUN, ["curves", "QRELS", "RUNS", "--format", "csv"]),
    "ntcir": ("3 0 a 1\n3 0 c 2\n4 0 d 1\n", RUN, ["ntcir", "QRELS", "RUNS"]),
    "trec_eval": ("3 0 a 1\n3 0 c 1\n4 0 d 1\n", RUN, ["trec_eval", "-q", "QRELS", "RUNS"]),
    # NTCIREVAL's diversity scripts: PROB is written beside QRELS (:data:`PROBS`)
    "diversity": (
        "3 1 a L1\n3 2 c L2\n4 1 d L1\n",
        RUN,
        ["diversity", "D-NTCIR-eval", "PROB", "QRELS", "RUNS", "--cutoff", "2"],
    ),
}
#: trec_eval keeps its own exit statuses (2: a file with a malformed line) and names itself
STATUS = {"trec_eval": 2}
SAYS = {"trec_eval": "trec_eval: "}
#: the intent probabilities of the commands that take them
PROBS = {"diversity": "3 1 0.5\n3 2 0.5\n4 1 1\n"}
#: the commands that take one run (ntcir_eval's and the diversity scripts' one file per run)
ONE_RUN = ("ntcir", "diversity")
#: the commands that take several runs
SEVERAL = [c for c in CASES if c not in ONE_RUN]
#: commands that read runs one after another into one result: stopped, they print nothing either
CASES["compare"] = (CASES["main"][0], RUN, ["compare", "QRELS", "RUNS", "-m", "AP"])
CASES["agreement"] = (CASES["main"][0], RUN, ["agreement", "QRELS", "RUNS", "-m", "AP", "P@2", "--quiet"])


def command(name: str, qrels: Path, runs: List[Path]) -> List[str]:
    args: List[str] = []
    for a in CASES[name][2]:
        if a == "RUNS":
            args += [str(r) for r in runs]
        elif a in ("QRELS", "PROB"):
            args.append(str(qrels.with_name(a.lower())))
        else:
            args.append(a)
    return [sys.executable, "-m", "ir_measures_pres", *args]


def files(tmp_path: Path, name: str) -> Tuple[Path, Path, Path]:
    judgements, run, _ = CASES[name]
    (tmp_path / "qrels").write_text(judgements)
    (tmp_path / "prob").write_text(PROBS.get(name, ""))
    (tmp_path / "good1").write_text(run)
    (tmp_path / "good2").write_text(run.replace("c 3 1", "c 3 5"))
    (tmp_path / "bad").write_text(run.replace("b 2 2", "b 2 not-a-score"))  # line 2
    return tmp_path / "qrels", tmp_path / "good1", tmp_path / "good2"


@pytest.mark.parametrize("name", SEVERAL)
def test_a_bad_run_among_good_ones(tmp_path: Path, name: str) -> None:
    qrels, good1, good2 = files(tmp_path, name)
    bad = tmp_path / "bad"
    alone = subprocess.run(command(name, qrels, [good1, good2]), capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0, alone.stderr
    done = subprocess.run(
        command(name, qrels, [good1, bad, good2]), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == STATUS.get(name, 1), done.stderr
    # the good runs' output, as without the bad run (curves: the same table, its columns the good runs')
    assert done.stdout == alone.stdout
    if name == "trec_eval":  # a block per file, each opened by the run's tag (not its file name)
        assert done.stdout.count("runid                 \tall\tr\n") == 2, done.stdout
    else:
        assert "good1" in done.stdout and "good2" in done.stdout
    errors = [line for line in done.stderr.splitlines() if line.startswith(PREFIX)]
    said = PREFIX + SAYS.get(name, "")
    assert errors[0].startswith(f"{said}{bad}:2: ") and "not-a-score" in errors[0], done.stderr
    assert errors[1:] == [
        f"{PREFIX}1 of 3 runs could not be evaluated (see above); the others are in the output"
    ], done.stderr
    assert "Traceback" not in done.stderr


def _wait_for_reader(fifo: Path, process: "subprocess.Popen[str]") -> int:
    """Open the FIFO for writing once the command opens it for reading (the runs before it are
    done); the command then waits in its read."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:
                raise
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("the command never opened the FIFO")


@pytest.mark.parametrize("name", list(CASES))
def test_a_stopped_command_prints_nothing(tmp_path: Path, name: str) -> None:
    qrels, good1, good2 = files(tmp_path, name)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    runs = [fifo] if name in ONE_RUN else [good1, good2, fifo]
    process = subprocess.Popen(
        command(name, qrels, runs), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    writer = _wait_for_reader(fifo, process)
    try:
        os.write(writer, b"3 Q0 a 1 3 r\n")  # a line, then the command waits for more
        time.sleep(0.3)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        os.close(writer)
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, err
    assert out == "" and err == ""
