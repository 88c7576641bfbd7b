"""The one policy of every command that evaluates runs one after the other (the main command,
``sampled``, ``sampled --tool statap``, ``tar``, ``ntcir``, ``curves``, ``trec_eval``):

* **several runs**: a run that cannot be read or evaluated (an input error: a malformed line, a
  missing file, no topic of the qrels) is reported, one line naming the file, and the other runs
  are still evaluated; then one line, ``N of M runs could not be evaluated (see above); the
  others are in the output``, and exit status 1. One run: its input error is the command's
  (one line, exit 1).
* **output once complete**: the output is held (in memory, on disk past 16 MiB) until every
  run is evaluated, so a command stopped early (SIGTERM, Ctrl-C, a killed worker) prints nothing
  rather than blocks that look complete; a stop a finaliser dropped while the last rows were
  written is checked before anything reaches the output.

The commands call :func:`evaluate_runs` (or, the main command with its forked workers,
:func:`held_output`, :func:`in_turn` and :func:`runs_status`), so the policy is written once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from typing import Any, Callable, Iterator, List, Sequence, Tuple

from ..runtime.stops import check_stop
from ._command import INPUT, INPUT_ERRORS, report_input_error, say

__all__ = ["evaluate_runs", "held_output", "in_turn", "run_paths", "runs_status"]

#: held output past this size goes to a temporary file
HELD_IN_MEMORY = 16 << 20


def run_paths(items: Sequence[str]) -> Tuple[List[str], List[str], bool]:
    """(run paths, their labels, whether several runs are evaluated) of the RUN arguments: files
    as given (a missing one fails in its turn, as any bad run), folders expanded to their files
    by name, ``-`` standard input. Several: more than one run, or a folder."""
    from ..data.runfiles import list_run_files, run_labels

    paths = [str(p) for r in items for p in (list_run_files(r) if os.path.isdir(r) else [r])]
    several = len(paths) > 1 or any(os.path.isdir(r) for r in items)
    return paths, run_labels(paths), several


@contextlib.contextmanager
def held_output(out: Any) -> Iterator[Any]:
    """Where a command writes its runs' output: a spooled temporary file, copied to ``out`` when
    the block ends normally and no stop was asked for meanwhile (nothing is written when it
    raises, a stop or an error, nor when a signal's stop was dropped by a finaliser)."""
    with tempfile.SpooledTemporaryFile(HELD_IN_MEMORY, mode="w+", newline="") as held:
        yield held
        check_stop()
        held.seek(0)
        shutil.copyfileobj(held, out)


def in_turn(
    runs: Sequence[str], evaluate_one: Callable[[int, str], None], several: bool, bar: Any = None
) -> int:
    """Call ``evaluate_one(k, path)`` for every run in order; returns how many failed. With
    ``several`` an input error is reported and the next run evaluated; else it is raised."""
    failed = 0
    for k, path in enumerate(runs):
        try:
            evaluate_one(k, path)
        except BrokenPipeError:  # the reader went away: the command ends (guarded)
            raise
        except INPUT_ERRORS as error:
            if not several:
                raise
            report_input_error(error)
            failed += 1
        if bar is not None:
            bar.update()
    return failed


def runs_status(failed: int, total: int, status: int = INPUT) -> int:
    """The exit status once the runs are evaluated: 0, or ``status`` (1; ``trec_eval``: the first
    failed file's trec_eval status) after the line saying how many failed."""
    if failed:
        say(f"{failed} of {total} runs could not be evaluated (see above); the others are in the output")
        return status
    return 0


def evaluate_runs(
    runs: Sequence[str], evaluate_one: Callable[[int, str, Any], None], out: Any, several: bool
) -> int:
    """The policy in one call: ``evaluate_one(k, path, sink)`` writes run ``k``'s output to
    ``sink`` (held until every run is evaluated); with ``several`` a run's input error is
    reported and the others evaluated; returns the exit status."""
    with held_output(out) as sink:
        failed = in_turn(runs, lambda k, path: evaluate_one(k, path, sink), several)
    out.flush()
    return runs_status(failed, len(runs))
