"""A battery of bad and odd inputs against the commands, each in a real process.

Every bad input must end with exit status 1 (input) or 2 (usage) and one line
``ir_measures_pres: error: ...`` that names the file and line (or the option / parameter); never
a signal (segfault 139, abort 134), a traceback, or a number where an error was due. Valid but
odd inputs must give the number trec_eval's rules give, written out here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from ir_measures_pres.cli import evaluate as cli

PREFIX = "ir_measures_pres: error: "


def run(argv: List[str], cwd: Path, stdin: Optional[bytes] = None, **popen) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *argv],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=300,
        **popen,
    )


def write(folder: Path, files: Dict[str, bytes]) -> None:
    for name, data in files.items():
        (folder / name).write_bytes(data)


def _a_provider_not_installed() -> str:
    """An ir_measures provider whose package is not installed here (ranx was the example, until a
    machine had it installed); 'trectools' is named when every one is."""
    import ir_measures

    missing = [name for name, p in ir_measures.providers.registry.items() if not p.is_available()]
    return sorted(missing)[0] if missing else "trectools"


NOT_INSTALLED = _a_provider_not_installed()
QRELS_OK = b"1 0 d1 1\n1 0 d2 0\n"
RUN_OK = b"1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n"

#: (case, files, argv, exit status, words the one error line must hold)
BAD = [
    (
        "relevance beyond C int",
        {"q": b"1 0 d1 4294967296\n", "r": RUN_OK},
        ["q", "r", "AP"],
        1,
        ["q:1:", "4294967296"],
    ),
    (
        "relevance 2**31 with nDCG",
        {"q": b"1 0 d1 2147483648\n", "r": RUN_OK},
        ["q", "r", "nDCG"],
        1,
        ["q:1:"],
    ),
    ("fractional relevance", {"q": b"1 0 d1 0.5\n", "r": RUN_OK}, ["q", "r", "AP"], 1, ["q:1:", "'0.5'"]),
    ("score nan", {"q": QRELS_OK, "r": b"1 Q0 d1 1 nan t\n"}, ["q", "r", "AP"], 1, ["r:1:", "finite"]),
    ("too few columns", {"q": QRELS_OK, "r": b"1 Q0 d1 1\n"}, ["q", "r", "AP"], 1, ["r:1:", "6 columns"]),
    ("NUL in an id", {"q": QRELS_OK, "r": b"1 Q0 d\x001 1 1 t\n"}, ["q", "r", "AP"], 1, ["r:1:", "NUL"]),
    ("empty run", {"q": QRELS_OK, "r": b""}, ["q", "r", "AP"], 1, ["r:", "empty file"]),
    (  # gdeval.pl (ir_measures' ERR@k) takes numeric topic ids only (tests/test_gdeval_inputs.py)
        "ERR@k on a non-numeric topic id",
        {"q": b"q1 0 d1 1\n", "r": b"q1 Q0 d1 1 1.0 t\n"},
        ["q", "r", "ERR@20"],
        1,
        ["q:", "gdeval", "numeric topic ids", "'q1'"],
    ),
    ("missing file", {"q": QRELS_OK}, ["q", "nope", "AP"], 1, ["nope", "No such file"]),
    (
        "truncated gzip",
        {"q": QRELS_OK, "r": b"\x1f\x8b\x08\x00\x00"},
        ["q", "r", "AP"],
        1,
        ["r:", "readable"],
    ),
    ("P@0", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "P@0"], 2, ["P@0", "cutoff", "from 1"]),
    ("AP(rel=0)", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "AP(rel=0)"], 2, ["rel", "from 1"]),
    ("huge cutoff", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "PRES@99999999999999999999999"], 2, ["cutoff"]),
    ("huge beta", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "QMeasure(beta=1e308)"], 2, ["beta", "1e+12"]),
    ("empty measure", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", ""], 2, ["no measure"]),
    ("unknown measure", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "Foo"], 2, ["unknown measure 'Foo'"]),
    ("runid", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "runid"], 2, ["unsupported trec_eval", "'runid'"]),
    ("negative places", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "AP", "-p", "-5"], 2, ["-p", "from -1"]),
    (
        "provider not installed",
        {"q": QRELS_OK, "r": RUN_OK},
        ["q", "r", "AP", "--provider", NOT_INSTALLED],
        2,
        [NOT_INSTALLED],
    ),
    ("unknown option", {"q": QRELS_OK, "r": RUN_OK}, ["q", "r", "AP", "--nope"], 2, ["--nope"]),
    ("both from stdin", {}, ["-", "-", "AP"], 2, ["standard input"]),
    # meta-evaluation options: usage errors, found before any file is read
    (
        "meta bucket width 0",
        {},
        ["discriminative-power", "q", "r", "-m", "AP", "--bucket-width", "0"],
        2,
        ["bucket"],
    ),
    (
        "meta fuzziness -1",
        {},
        ["discriminative-power", "q", "r", "-m", "AP", "--fuzziness", "-1"],
        2,
        ["fuzziness"],
    ),
    ("meta splits -1", {}, ["discriminative-power", "q", "r", "-m", "AP", "--splits", "-1"], 2, ["splits"]),
    ("meta rel 0", {}, ["robustness", "q", "r", "-m", "AP", "--rel", "0"], 2, ["--rel"]),
    ("meta fraction 0", {}, ["robustness", "q", "r", "-m", "AP", "--fractions", "0"], 2, ["--fractions"]),
    ("meta unknown measure", {}, ["agreement", "q", "r", "-m", "Foo"], 2, ["unknown measure 'Foo'"]),
    ("sensitivity repeats 0", {}, ["sensitivity", "q", "r", "-m", "AP", "--repeats", "0"], 2, ["--repeats"]),
    ("tar edition 2019", {}, ["tar", "--edition", "2019", "q", "r"], 2, ["--edition", "2019"]),
    (
        "tar unknown code",
        {"q": b"T 0 d1 1\n", "r": b"T NF d1 1 1 x\nT XX d2 2 1 x\n"},
        ["tar", "--edition", "2017", "q", "r"],
        1,
        ["r:2:", "interaction code"],
    ),
    ("compare alpha 2", {}, ["compare", "q", "r", "-m", "AP", "--alpha", "2"], 2, ["alpha"]),
    ("compare unknown measure", {}, ["compare", "q", "r", "-m", "Foo"], 2, ["unknown measure 'Foo'"]),
]


@pytest.mark.parametrize("case, files, argv, status, words", BAD, ids=[c[0] for c in BAD])
def test_bad_input_is_one_line_and_the_right_status(tmp_path, case, files, argv, status, words):
    write(tmp_path, files)
    done = run(argv, tmp_path)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == status, err
    assert done.stdout == b""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX), err
    for word in words:
        assert word in lines[0], (word, lines[0])


#: (case, qrels, run, measures, the expected stdout: trec_eval's numbers written out)
ODD = [
    # a non-UTF-8 id, asked for a pytrec_eval measure: it crashed with a segfault (139)
    ("non-UTF-8 doc id", b"1 0 d\xff 1\n", b"1 Q0 d\xff 1 1.0 t\n", ["AP", "RR"], "AP\t1.0000\nRR\t1.0000\n"),
    # a run-only query with a non-UTF-8 id is ignored, as every run-only query
    ("non-UTF-8 run-only query", b"1 0 d1 1\n", b"1 Q0 d1 1 1 t\n\xe9 Q0 d1 1 1 t\n", ["AP"], "AP\t1.0000\n"),
    # ids compared as bytes: d\xff > d\xfe, so the relevant d\xfe is 2nd of two tied: AP 1/2
    (
        "tie broken by bytes",
        b"1 0 d\xfe 1\n",
        b"1 Q0 d\xfe 1 5 t\n1 Q0 d\xff 2 5 t\n",
        ["AP", "P_plus"],
        None,
    ),
    # a byte order mark is not part of the first query id
    (
        "BOM",
        b"\xef\xbb\xbf1 0 d1 1\n",
        b"\xef\xbb\xbf1 Q0 d1 1 1 t\n",
        ["AP", "PRES@10"],
        "AP\t1.0000\nPRES@10\t1.0000\n",
    ),
    # scores beyond float32 are +inf to pytrec_eval: a tie, d2 (larger id) first; d1 relevant: AP 1/2
    ("scores beyond float32", b"1 0 d1 1\n1 0 d2 0\n", b"1 Q0 d1 1 1e39 t\n1 Q0 d2 2 2e39 t\n", ["AP"], None),
]


@pytest.mark.parametrize("case, qrels, run_file, measures, expected", ODD, ids=[c[0] for c in ODD])
def test_valid_but_odd_input_gives_the_right_number(tmp_path, case, qrels, run_file, measures, expected):
    write(tmp_path, {"q": qrels, "r": run_file})
    done = run(["q", "r", *measures], tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    if expected is None:  # the relevant document second of two: AP = 1/2, P+ = BR(2) = (1+1)/(1+2)
        rows = dict(line.split("\t") for line in out.splitlines())
        assert rows["AP"] == "0.5000"
        if "PPlusMeasure" in rows:
            assert rows["PPlusMeasure"] == f"{2 / 3:.4f}"
    else:
        assert out == expected


def test_meta_fallback_measures_take_non_utf8_ids(tmp_path):
    # infAP and SetP go through ir_measures (pytrec_eval): they crashed on these ids
    write(tmp_path, {"q": b"1 0 d\xff 1\n1 0 d2 0\n"})
    (tmp_path / "runs").mkdir()
    write(
        tmp_path / "runs",
        {"a": b"1 Q0 d\xff 1 2 t\n1 Q0 d2 2 1 t\n", "b": b"1 Q0 d2 1 2 t\n1 Q0 d\xff 2 1 t\n"},
    )
    done = run(["agreement", "q", "runs", "-m", "infAP SetP AP", "-q"], tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"Kendall" in done.stdout


def test_closed_stdin_and_stdout(tmp_path):
    write(tmp_path, {"q": QRELS_OK, "r": RUN_OK})
    closed_in = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "q", "-", "AP"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(0),
        timeout=300,
    )
    assert closed_in.returncode == 1
    assert (
        closed_in.stderr.decode()
        == f"{PREFIX}<stdin>: expected a readable file on standard input, found it closed\n"
    )
    closed_out = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "q", "r", "AP"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),
        timeout=300,
    )
    assert closed_out.returncode == 2
    assert closed_out.stderr.decode().startswith(f"{PREFIX}standard output is closed")


def test_a_closed_pipe_ends_quietly(tmp_path):
    qrels = b"".join(b"%d 0 d1 1\n" % q for q in range(3000))
    run_file = b"".join(b"%d Q0 d%d %d %d t\n" % (q, d, d, 100 - d) for q in range(3000) for d in range(3))
    write(tmp_path, {"q": qrels, "r": run_file})
    proc = subprocess.Popen(
        [sys.executable, "-m", "ir_measures_pres", "q", "r", "AP P@1 P@2 RR", "-q"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read()
    status = proc.wait(timeout=300)
    assert first.startswith(b"0\t")
    assert err == b""
    assert status == 141  # 128 + SIGPIPE, as a shell reports a tool SIGPIPE ended (docs/cli.md)


def test_ctrl_c_exits_130_quietly(monkeypatch, capsys):
    def interrupted(argv, out=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_cli", interrupted)
    assert cli.main(["q", "r", "AP"]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def _wait_until_reading_stdin(pid: int, seconds: float = 120.0) -> None:
    """Wait until the process is blocked in read(0, ...) (Linux: /proc/PID/syscall), so that
    the signal arrives while the command runs, not while Python is still importing."""
    read_syscall = {"x86_64": "0", "aarch64": "63"}.get(os.uname().machine)
    path = Path(f"/proc/{pid}/syscall")
    if read_syscall is None or not path.exists():
        pytest.skip("needs Linux's /proc/PID/syscall to know when the command is running")
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            fields = path.read_text().split()
        except OSError:  # not allowed to read it here
            pytest.skip("cannot read /proc/PID/syscall here")
        if len(fields) > 1 and fields[0] == read_syscall and int(fields[1], 16) == 0:  # read(0, ...)
            return
        time.sleep(0.05)
    pytest.fail("the command never waited on standard input")


def test_a_real_sigint_exits_130_without_a_traceback(tmp_path):
    # a process waiting on standard input gets SIGINT
    write(tmp_path, {"q": QRELS_OK})
    proc = subprocess.Popen(
        [sys.executable, "-m", "ir_measures_pres", "q", "-", "AP"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"1 Q0 d1 1 1 t\n")
    proc.stdin.flush()
    _wait_until_reading_stdin(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130
    assert b"Traceback" not in err and err == b""


def _children(pid: int) -> List[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pytest.skip("needs Linux's /proc/PID/task/PID/children to find the workers")


def test_ctrl_c_with_forked_workers_exits_130_and_leaves_no_process(tmp_path):
    """Ctrl-C reaches the whole foreground process group: the workers ignore it, the command
    stops them, says nothing and exits 130. A worker waits on a named pipe nobody writes to."""
    open_syscall = {"x86_64": "257", "aarch64": "56"}.get(os.uname().machine)  # openat
    if open_syscall is None or not hasattr(os, "mkfifo"):
        pytest.skip("needs Linux's /proc/PID/syscall and named pipes")
    write(tmp_path, {"q": QRELS_OK, "r": RUN_OK})
    os.mkfifo(tmp_path / "fifo")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ir_measures_pres", "q", "r", "fifo", "AP", "--jobs", "2"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a shell gives a command
    )
    end = time.monotonic() + 120
    waiting: List[int] = []
    while not waiting and time.monotonic() < end:
        for pid in _children(proc.pid):
            try:
                fields = Path(f"/proc/{pid}/syscall").read_text().split()
            except OSError:
                continue
            if fields and fields[0] == open_syscall:
                waiting.append(pid)
        time.sleep(0.05)
    if not waiting:
        proc.kill()
        pytest.skip("could not see a worker waiting to open the named pipe (/proc/PID/syscall)")
    workers = _children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130
    assert b"Traceback" not in err and err == b""
    for pid in workers:  # no worker left behind
        assert not Path(f"/proc/{pid}").exists()


def test_a_run_on_standard_input_among_several_is_read(tmp_path):
    """Forked workers get no standard input (multiprocessing closes it): with '-' among the
    runs, every run is scored in the command's own process."""
    write(tmp_path, {"q": QRELS_OK, "r": RUN_OK})
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "q", "r", "-", "AP", "--jobs", "2"],
        cwd=tmp_path,
        input=RUN_OK,
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == ["r\tAP\t1.0000", "<stdin>\tAP\t1.0000"]


def test_debug_shows_the_traceback(tmp_path):
    write(tmp_path, {"q": b"1 0 d1 x\n", "r": RUN_OK})
    done = run(["q", "r", "AP", "--debug"], tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 1
    assert "Traceback" in err and err.rstrip().endswith(
        "q:1: expected an integer in column 4 (relevance), found 'x'"
    )


def test_a_bug_is_one_line_unless_debug(monkeypatch, capsys):
    def broken(argv, out=None):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "run_cli", broken)
    assert cli.main(["q", "r", "AP"]) == 70
    assert capsys.readouterr().err == (
        f"{PREFIX}internal error (ZeroDivisionError: division by zero); "
        "run again with --debug for the traceback\n"
    )
    with pytest.raises(ZeroDivisionError):
        cli.main(["q", "r", "AP", "--debug"])


#: every command that reads QRELS and runs, with the words that make it run (after the files)
COMMANDS = {
    "main": ([], ["P@5"]),
    "compare": (["compare"], ["-m", "P@5", "-q"]),
    "robustness": (["robustness"], ["-m", "P@5", "-q"]),
    "tar": (["tar"], []),
    "ntcir": (["ntcir"], []),
    "curves": (["curves"], ["--kind", "pr11"]),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_names_a_missing_file_in_the_same_words(tmp_path, command):
    """One voice: a missing QRELS (not a file, and no ir_datasets id) and a missing RUN read the
    same in every command, exit status 1."""
    write(tmp_path, {"qrels.txt": b"1 0 d1 1\n", "run.txt": b"1 Q0 d1 1 1.0 r\n"})
    head, tail = COMMANDS[command]
    extra = ["run.txt"] if command in ("compare", "robustness") else []  # two runs wanted
    missing_qrels = run([*head, "nosuchqrels", "run.txt", *extra, *tail], tmp_path)
    assert missing_qrels.returncode == 1
    assert missing_qrels.stderr.decode().startswith(PREFIX + "nosuchqrels not found.")
    missing_run = run([*head, "qrels.txt", "nosuchrun", *extra, *tail], tmp_path)
    assert missing_run.returncode == 1
    assert missing_run.stderr.decode() == PREFIX + "nosuchrun: No such file or directory\n"
