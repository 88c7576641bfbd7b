"""``runtime.pool.forked_map``: work spread over forked processes, results in order, as if run here."""

from __future__ import annotations

import os
import pickle
import sys
from typing import Dict, List, Tuple

import pytest

from ir_measures_pres.runtime.pool import can_fork, forked_map, split

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks are used on Linux only")


@linux_only
def test_results_come_in_order_from_other_processes() -> None:
    offset = 1000  # a closure: the workers inherit it, nothing is pickled on the way in

    def work(x: int) -> Tuple[int, int]:
        return x + offset, os.getpid()

    results = list(forked_map(work, range(40), 3))
    assert [value for value, _ in results] == [x + 1000 for x in range(40)]
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids and 1 <= len(pids) <= 3


def test_one_process_runs_here() -> None:
    results = list(forked_map(lambda x: (x * 2, os.getpid()), [1, 2, 3], 1))
    assert results == [(2, os.getpid()), (4, os.getpid()), (6, os.getpid())]


@linux_only
def test_a_worker_does_not_fork_again() -> None:
    def inner(x: int) -> int:
        return os.getpid()

    def outer(x: int) -> Tuple[bool, List[int], int]:
        return can_fork(), list(forked_map(inner, range(4), 4)), os.getpid()

    for allowed, inner_pids, worker_pid in forked_map(outer, range(2), 2):
        assert not allowed and inner_pids == [worker_pid] * 4
    assert can_fork()


@linux_only
def test_an_error_in_a_worker_reaches_the_caller() -> None:
    def work(x: int) -> int:
        if x == 5:
            raise ValueError("item 5 is bad")
        return x

    with pytest.raises(ValueError, match="item 5 is bad"):
        list(forked_map(work, range(10), 2))


@pytest.mark.parametrize("n, parts", [(0, 3), (1, 3), (7, 3), (9, 3), (10, 1), (4, 8)])
def test_split_keeps_order_and_balance(n: int, parts: int) -> None:
    items = list(range(n))
    pieces = split(items, parts)
    assert [x for piece in pieces for x in piece] == items
    assert len(pieces) == max(1, min(parts, n))
    sizes = [len(p) for p in pieces]
    assert max(sizes) - min(sizes) <= 1


# --------------------------------------------------------------------------------------------
# exceptions cross the pool as they were
# --------------------------------------------------------------------------------------------

#: constructor arguments of the package's exceptions whose ``__init__`` takes its own (any other
#: is made from one message); a new such exception must be added here, or the walk below fails
SAMPLE_ARGUMENTS = {
    "TrecFormatError": ("run.txt", 7, "a number in column 5 (score)", "'abc'"),
    "UngroupedRun": ("run.txt", "301", 12),
    "WorkerLost": (-9,),
    "MeasureNameError": (["unknown measure 'APP' (did you mean AP?)", "unknown measure 'nDGC'"],),
    "MeasureSpecError": ("unknown measure 'mapp'", 2),
    "FormatMismatch": ("measure 'map' cannot be computed from -R prefs",),
    "TrecEvalError": ("option -M takes an integer, not 'x'", 1),
    "RangesFailed": ("run.txt:3: a bad line",),
    "_RemoteTraceback": ('Traceback (most recent call last):\n  File "x.py", line 1\nValueError: x\n',),
}


def _package_exceptions() -> List[type]:
    """Every exception class defined in the package, found by importing all its modules."""
    import importlib
    import inspect
    import pkgutil

    import ir_measures_pres

    found: Dict[type, None] = {}
    for info in pkgutil.walk_packages(ir_measures_pres.__path__, "ir_measures_pres."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("ir_measures_pres")
            ):
                found[value] = None
    return list(found)


def _own_init(kind: type) -> bool:
    return any("__init__" in vars(k) for k in kind.__mro__ if k.__module__.startswith("ir_measures_pres"))


def test_every_exception_of_the_package_round_trips_through_pickle() -> None:
    """What a worker raises is pickled there and unpickled here: every exception the package
    defines comes back of its type, with its arguments, attributes and message."""
    kinds = _package_exceptions()
    names = {k.__name__ for k in kinds}
    assert {"TrecFormatError", "UngroupedRun", "WorkerLost", "InputError", "BoundsError"} <= names
    for kind in kinds:
        if _own_init(kind):
            assert kind.__name__ in SAMPLE_ARGUMENTS, f"give {kind.__name__} sample arguments here"
            error = kind(*SAMPLE_ARGUMENTS[kind.__name__])
        else:
            error = kind("a message")
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is kind
        assert back.args == error.args
        assert vars(back) == vars(error)
        assert str(back) == str(error)


@linux_only
def test_a_package_error_in_a_worker_is_raised_as_it_was() -> None:
    from ir_measures_pres.data.readers import TrecFormatError

    def work(x: int) -> int:
        if x == 5:
            raise TrecFormatError("run.txt", 7, "a number in column 5 (score)", "'abc'")
        return x

    with pytest.raises(TrecFormatError) as caught:
        list(forked_map(work, range(10), 2))
    error = caught.value
    assert str(error) == "run.txt:7: expected a number in column 5 (score), found 'abc'"
    assert (error.source, error.line, error.expected, error.found) == (
        "run.txt",
        7,
        "a number in column 5 (score)",
        "'abc'",
    )
    # the worker's traceback is the cause, as text
    cause = str(error.__cause__)
    assert "Traceback (most recent call last)" in cause and "in work" in cause
    assert "run.txt:7: expected a number in column 5 (score), found 'abc'" in cause


@linux_only
def test_an_exception_that_does_not_pickle_comes_back_named() -> None:
    class Local(Exception):  # a class defined in a function: pickle cannot find it again
        pass

    def work(x: int) -> int:
        raise Local("the details")

    with pytest.raises(RuntimeError, match="Local: the details .raised in a worker process"):
        list(forked_map(work, range(4), 2))


# --------------------------------------------------------------------------------------------
# workers never print: the command warns once, through its warning path
# --------------------------------------------------------------------------------------------


@linux_only
def test_places_with_jsonl_is_warned_once_by_the_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess

    sample = os.path.join(os.path.dirname(__file__), os.pardir, "ir_measures_pres", "data", "sample")
    runs = tmp_path / "runs"
    runs.mkdir()
    with open(os.path.join(sample, "results.test"), "rb") as run:
        text = run.read()
    for name in ("a.txt", "b.txt"):
        (runs / name).write_bytes(text)
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", os.path.join(sample, "qrels.test"), str(runs), "AP"]
        + ["--format", "jsonl", "-p", "3", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert done.stderr == (
        "ir_measures_pres: warning: --places is ignored with --format jsonl (its numbers keep every digit)\n"
    )
    assert [line.split('"value": ')[0] for line in done.stdout.splitlines()] == [
        '{"run": "a.txt", "measure": "AP", ',
        '{"run": "b.txt", "measure": "AP", ',
    ]
