"""A reader that closes the pipe (``ir_measures_pres ... | head -5``): every command and the demo
stop quietly with one exit status, 141 (128 + SIGPIPE, what a shell reports for a Unix tool that
SIGPIPE ended; docs/cli.md, "Exit status").

Each command runs with its standard output the write end of a pipe whose read end is already
closed, so that its first write fails, whatever the size of its output (``| head`` is a race:
a small output can fit in the pipe before the reader leaves, and then nothing failed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from test_faults import STARTS

SAMPLE = Path(__file__).resolve().parent.parent / "ir_measures_pres" / "data" / "sample"
RUN = "3 Q0 a 1 3 r\n3 Q0 b 2 2 r\n4 Q0 d 1 1 r\n"

#: every subcommand (``ir_measures_pres --help``) and the main command, with inputs that make
#: it print (the files are written by :func:`inputs`): test_faults' command lines, but for the
#: commands whose inputs are of another kind than a qrels file and runs
COMMANDS = {
    **STARTS,
    "tar": ["tar", "tar.qrels", "tar.run"],
    "diversity": ["diversity", "D-NTCIR-eval", "prob", "dqrels", "run.txt", "--cutoff", "10"],
    "sampled": ["sampled", "prels", "small.run"],
}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("closed-pipe")
    qrels = (SAMPLE / "qrels.test").read_text()
    run = (SAMPLE / "results.test").read_text()
    (d / "QRELS").write_text(qrels)
    (d / "run.txt").write_text(run)
    # a second run: the first with its scores negated (the ranking reversed)
    (d / "run2.txt").write_text(
        "".join(
            " ".join([*f[:4], str(-float(f[4])), f[5]]) + "\n"
            for f in (line.split() for line in run.splitlines())
        )
    )
    (d / "tar.qrels").write_text("3 0 a 1\n3 0 b 0\n3 0 c 1\n4 0 d 1\n")
    (d / "tar.run").write_text(RUN.replace(" Q0 ", " 0 "))
    (d / "prels").write_text("3 0 a 1 1\n3 0 b 1 0\n3 0 c 2 -1\n4 0 d 1 1\n")
    (d / "small.run").write_text(RUN)
    (d / "prob").write_text("301 1 1\n302 1 1\n303 1 1\n")
    (d / "dqrels").write_text(
        "".join(f"{q} 1 {doc} L{rel}\n" for q, _, doc, rel in map(str.split, qrels.splitlines()))
    )
    return d


def _closed(command: List[str], cwd: Path) -> "subprocess.CompletedProcess[bytes]":
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the command writes anything
    try:
        return subprocess.run(command, cwd=cwd, stdout=write_end, stderr=subprocess.PIPE, timeout=600)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_ends_quietly_with_141(inputs: Path, name: str) -> None:
    argv = COMMANDS[name]
    printing = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *argv], cwd=inputs, capture_output=True, timeout=600
    )
    assert printing.returncode == 0 and printing.stdout, (name, printing.stderr)  # it does print
    done = _closed([sys.executable, "-m", "ir_measures_pres", *argv], inputs)
    assert (done.returncode, done.stderr) == (141, b""), name


def test_the_demo_ends_quietly_with_141(inputs: Path) -> None:
    done = _closed([sys.executable, "-m", "ir_measures_pres.demo"], inputs)
    assert (done.returncode, done.stderr) == (141, b"")


def test_the_commands_walked_are_every_subcommand() -> None:
    from ir_measures_pres.cli.evaluate import SUBCOMMANDS

    assert set(COMMANDS) == {"evaluate", *SUBCOMMANDS}
