"""What every command of the package does with a user's mistake: one line, the right exit status.

* usage errors (a bad option, an unknown measure, a parameter out of range) exit with **2**,
  input errors (a malformed or missing file) with **1**, both printing one line per problem,
  ``ir_measures_pres: error: FILE:LINE: what was expected, what was found`` (or the option);
* no traceback for a user's mistake: ``--debug`` shows it; a bug (any other exception) prints
  one line saying so and exits with 70 (``EX_SOFTWARE``);
* Ctrl-C exits with 130, SIGTERM with 143, both quietly (forked workers are ended first), from
  the first instant (while the modules load: :mod:`ir_measures_pres._start`): the stop policy is
  :mod:`ir_measures_pres.runtime.stops`, which :func:`guarded` registers; a worker that dies
  (the out-of-memory killer) ends the command with one line and 1; a reader that closes the pipe
  (``| head``) ends the command quietly with 141, the status of a Unix tool SIGPIPE ends (128 +
  13: what a shell reports for ``seq 100000 | head -1``), the demo likewise;
* warnings, Python's included, are one line each: ``ir_measures_pres: warning: ...`` (:func:`warn`).

The main command, the meta-evaluation subcommands and any later subcommand run through
:func:`guarded` and build their parsers from :class:`ArgumentParser`.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import traceback
import warnings
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple, Union

# what an input error is, and its text, are facts about inputs (kept importable from here)
from ..data.inputs import INPUT_ERRORS, input_error_text
from ..runtime.stops import CommandStops, StopsHeld, Terminated, check_stop

PROG = "ir_measures_pres"

PathLike = Union[str, "os.PathLike[str]"]

#: exit statuses (SIGINT's, SIGTERM's and a closed pipe's are the shells' 128 + the signal)
USAGE, INPUT, INTERRUPTED, TERMINATED, BUG = 2, 1, 130, 143, 70
#: the reader of standard output went away (``| head``): 128 + SIGPIPE, as a shell reports a tool
#: that SIGPIPE ended (Python ignores SIGPIPE and sees EPIPE instead: BrokenPipeError)
PIPE_CLOSED = 128 + 13


class UsageError(Exception):
    """A command-line mistake: reported with exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose errors are one line (``ir_measures_pres: error: ...``) and exit status 2,
    and whose options may come anywhere among the positional arguments (``QRELS RUN -q AP``, as
    the stock ``ir_measures`` command reads it): every command parses with argparse's
    :meth:`~argparse.ArgumentParser.parse_known_intermixed_args` (a parser with subcommands
    parses as usual, its subcommand's parser intermixed)."""

    _intermixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._subparsers is not None or self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True  # parse_known_intermixed_args calls this method twice
        try:
            # argparse sets attributes on the positional actions and restores them in a finally:
            # a Ctrl-C between the two left an action half set, and the restore's AttributeError
            # replaced the stop (exit 70). A stop waits until the parse is done.
            with StopsHeld():
                return super().parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False

    def error(self, message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
        raise UsageError(f"{message} (see '{self.prog} --help')")


def int_option(low: int, high: float = math.inf) -> Callable[[str], int]:
    """An argparse ``type`` for an integer option within [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, found {text!r}") from None
        if not low <= value <= high:
            upper = "" if high == math.inf else f" to {int(high)}"
            raise argparse.ArgumentTypeError(f"expected an integer from {low}{upper}, found {text}")
        return value

    return parse


def ranks_option(too_small: str) -> Callable[[str], Tuple[int, ...]]:
    """An argparse ``type`` for ranks (integers >= 1) separated by ','; ``too_small`` opens the
    message for a rank below 1 (e.g. ``"a cutoff must be a rank"``)."""

    def parse(text: str) -> Tuple[int, ...]:
        out = []
        for part in text.split(","):
            try:
                value = int(part)
            except ValueError:
                raise argparse.ArgumentTypeError(
                    f"expected ranks (integers >= 1) separated by ',', found {part!r} in {text!r}"
                ) from None
            if value < 1:
                raise argparse.ArgumentTypeError(f"{too_small} >= 1, found {part}")
            out.append(value)
        return tuple(out)

    return parse


def add_jobs_option(parser: argparse.ArgumentParser, what: str) -> None:
    """The ``--jobs`` option of the commands that score several runs (``what``: what the forked
    processes do there)."""
    parser.add_argument(
        "--jobs",
        "-j",
        type=int_option(0, 256),
        default=0,
        help=f"processes scoring side by side, each a fork of this one (the qrels prepared once): "
        f"{what}. 0 (default): one per CPU, at most 4; 1: all in this process",
    )


# --------------------------------------------------------------------------------------------
# one vocabulary of options: the same word means the same thing in every command
# --------------------------------------------------------------------------------------------

#: other spellings users type for a --format word
FORMAT_ALIASES = {"markdown": "md", "tex": "latex", "txt": "text"}


def format_option(words: Sequence[str]) -> Callable[[str], str]:
    """An argparse ``type`` for ``--format``: one of ``words`` (the package's words: text, tsv,
    jsonl, json, csv, md, latex, trec, tool), or an alias of one (``markdown`` for ``md``)."""

    def parse(text: str) -> str:
        word = FORMAT_ALIASES.get(text.lower(), text.lower())
        if word not in words:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(words)}, found {text!r}")
        return word

    return parse


def add_format_option(parser: argparse.ArgumentParser, words: Sequence[str], default: str, what: str) -> None:
    parser.add_argument(
        "--format",
        type=format_option(words),
        default=default,
        metavar="{" + ",".join(words) + "}",
        help=f"{what} (default {default}{'; markdown = md' if 'md' in words else ''})",
    )


#: QRELS in every command's --help: what data.datasets.qrels_columns reads
QRELS_HELP = "qrels file (TREC format: query iteration document relevance; .gz allowed) or an ir_datasets id"


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """``--quiet``: no progress bar (bars show only on a terminal anyway). ``-q`` is per-query
    output in the main command, as in ir_measures and trec_eval; here it stays a hidden alias
    for scripts written before."""
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.add_argument("-q", action="store_true", dest="quiet", help=argparse.SUPPRESS)


def add_output_dir_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--output-dir DIR``: where files go. ``-o`` is the output format in the main command (as
    in ir_measures); ``-o``/``--output`` stay hidden aliases here."""
    parser.add_argument("--output-dir", metavar="DIR", dest="output", help=what)
    parser.add_argument("-o", "--output", metavar="DIR", dest="output", help=argparse.SUPPRESS)


def add_resamples_option(
    parser: argparse.ArgumentParser, default: int, what: str, old: Sequence[str] = (), low: int = 1
) -> None:
    """``-B N`` / ``--resamples N``: how many resamples an experiment draws (bootstrap samples,
    randomisation draws, pairs of topic samples); ``old``: earlier spellings, hidden aliases."""
    parser.add_argument(
        "-B",
        "--resamples",
        type=int_option(low, 10**7),
        default=default,
        dest="B",
        metavar="B",
        help=f"{what} (default {default})",
    )
    for spelling in old:
        parser.add_argument(spelling, type=int_option(low, 10**7), dest="B", help=argparse.SUPPRESS)


def command_measures(texts: Sequence[str], provider: Optional[str] = None) -> List[Any]:
    """The measures a command line names (the catalogue's
    :func:`~ir_measures_pres.measures.catalogue.parse_measures`), each one an installed provider
    computes (:func:`~ir_measures_pres.engine.evaluation.check_computable`; ``provider``: the
    ``--provider`` asked for): every command that takes measures calls this before it opens any
    input, so a bad or unsupported measure is a usage error (2) whatever the files hold."""
    from ..engine.evaluation import check_computable
    from ..measures.catalogue import parse_measures

    measures = parse_measures(texts)
    check_computable(measures, provider)
    return measures


def needs_strata(measures: Sequence[Any]) -> bool:
    """Whether a measure asked for reads sampled judgements' strata (xinfAP, infNDCG ...): the
    qrels must then be a 5-column file, which the reader says in the command line's words
    (``qrels_columns(..., sampled=True)``) instead of the measures' advice to Python callers."""
    from ..measures.catalogue import entry_of
    from ..measures.sampled.estimators import check_strata

    return any((e := entry_of(m)) is not None and e.check_qrels is check_strata for m in measures)


def check_sampled_qrels(qrels: str, measures: Sequence[Any]) -> None:
    """For the commands that hand the qrels to the Python API (compare, curves, the meta
    commands): with a measure that needs strata, the qrels are read first as sampled judgements,
    so a 4-column file is an input error naming the 5 columns before any run is read."""
    if needs_strata(measures):
        from ..data.datasets import qrels_columns

        qrels_columns(qrels, sampled=True)


def jobs_of(asked: int) -> int:
    """The processes ``--jobs`` asks for (0: one per CPU this process may use, at most 4)."""
    from ..data.arrays import usable_cpus

    return asked or usable_cpus()


def float_option(
    low: float, high: float, low_open: bool = False, high_open: bool = False
) -> Callable[[str], float]:
    """An argparse ``type`` for a finite number within [low, high] (ends open where said)."""
    shown = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, found {text!r}") from None
        inside = (low < value if low_open else low <= value) and (
            value < high if high_open else value <= high
        )
        if not (math.isfinite(value) and inside):
            raise argparse.ArgumentTypeError(f"expected a number in {shown}, found {text}")
        return value

    return parse


def split_debug(argv: Sequence[str]) -> Tuple[List[str], bool]:
    """(arguments without ``--debug``, whether it was given)."""
    rest = [a for a in argv if a != "--debug"]
    return rest, len(rest) != len(argv)


def say(message: str) -> None:
    """One error line per line of ``message`` on standard error."""
    for line in str(message).splitlines() or [""]:
        sys.stderr.write(f"{PROG}: error: {line}\n")


def warn(notices: Iterable[str]) -> None:
    """Each notice as one warning line on standard error, ``ir_measures_pres: warning: ...``: the
    one way every command warns."""
    for notice in notices:
        sys.stderr.write(f"{PROG}: warning: {notice}\n")


#: a thread that works ahead (the main command reads the next run while one is scored) keeps
#: its warnings here (``notices``), to be shown when its work's turn comes
held = threading.local()


def _show_warning(
    message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Optional[str] = None
) -> None:
    """``warnings.showwarning`` while a command runs: a Python warning (a duplicate line, a run
    lacking topics) becomes a warning line, not Python's 'file:line: Category: text' and source."""
    notices = getattr(held, "notices", None)
    if notices is not None:
        notices.append(str(message))
    else:
        warn([str(message)])


def guarded(run: Callable[[], int], debug: bool = False) -> int:
    """Run a command; turn what goes wrong into one line and an exit status (module docstring)."""
    from ..measures.catalogue import MeasureNameError
    from ..runtime.pool import WorkerLost

    previous = warnings.showwarning
    warnings.showwarning = _show_warning
    with CommandStops() as stops:  # the stop policy (runtime/stops.py), registered for the command
        try:
            # inside the try: a stop the moment a handler is set is this command's, caught below
            stops.catch()
            status = run()
            # what is still buffered goes out now, so that a reader gone meanwhile is seen here
            # (below), not by Python's flush at exit ("Exception ignored ...", status 120)
            _flush_stdout()
            check_stop()  # a stop a finaliser dropped ends the command as any stop does
            return status
        except BrokenPipeError:
            return closed_pipe()
        except KeyboardInterrupt:
            return INTERRUPTED
        except Terminated:
            return TERMINATED
        except WorkerLost as error:  # the out-of-memory killer, most often: one line, never a hang
            _trace(debug)
            say(f"{error}; rerun with --jobs 1 or more memory")
            return INPUT
        except SystemExit as done:  # argparse's --help and --version
            return done.code if isinstance(done.code, int) else 0
        except (UsageError, MeasureNameError) as error:
            _trace(debug)
            say(str(error))
            return USAGE
        except INPUT_ERRORS + (ImportError,) as error:  # ImportError: a missing extra
            _trace(debug)
            return report_input_error(error)
        except Exception as error:  # noqa: BLE001 - a bug: one line, never a traceback unless asked
            if debug:
                raise
            say(f"internal error ({type(error).__name__}: {error}); run again with --debug for the traceback")
            return BUG
        finally:
            warnings.showwarning = previous


def _flush_stdout() -> None:
    """Flush standard output if there is one still open (a caller may have closed or removed it)."""
    stdout = sys.stdout
    if stdout is not None and not getattr(stdout, "closed", False):
        stdout.flush()


def closed_pipe() -> int:
    """The reader of our output went away (``| head``): nothing is printed, standard output is
    pointed at the null device (so that Python's flush at exit does not complain again), and the
    status is :data:`PIPE_CLOSED`, 141, for every command and the demo."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return PIPE_CLOSED


def report_input_error(error: BaseException) -> int:
    """Say what was wrong with an input (:func:`~ir_measures_pres.data.inputs.input_error_text`);
    returns 1."""
    say(input_error_text(error))
    return INPUT


def _trace(debug: bool) -> None:
    if debug:
        traceback.print_exc()
