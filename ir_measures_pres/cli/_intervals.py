"""The main command's ``--ci`` (docs/uncertainty.md): its options and their usage
errors, loading scipy while the qrels are read (for a bootstrap; Student's t needs no scipy:
:func:`~ir_measures_pres.stats.student.t_quantile`), each run's intervals
(:func:`~ir_measures_pres.stats.intervals.table_intervals`) and the cells they add to the tsv and
jsonl rows. Nothing here loads scipy or the statistics until ``--ci`` is given.
"""

from __future__ import annotations

import argparse
import warnings
from typing import Any, Callable, Dict, Optional

from ._command import ArgumentParser, UsageError, float_option, int_option

#: --ci-method words and the default -B (the values of ..stats.significance, which this module
#: does not import: evaluating without --ci never loads the statistics)
INTERVAL_METHODS = ("t", "bootstrap", "bootstrap-percentile")
DEFAULT_RESAMPLES = 9999
DEFAULT_SEED = 0


def add_ci_options(parser: argparse.ArgumentParser) -> None:
    """``--ci LEVEL``, ``--ci-method``, ``-B``/``--resamples`` and ``--seed`` of the main command."""
    parser.add_argument(
        "--ci",
        type=float_option(0.0, 1.0, low_open=True, high_open=True),
        metavar="LEVEL",
        help="each mean with its interval over the topics at confidence LEVEL (0.95: 95%%): tsv "
        "gains ci_low and ci_high columns, jsonl mean records the keys ci_low and ci_high "
        "(docs/uncertainty.md; a bootstrap needs scipy, the meta extra)",
    )
    parser.add_argument(
        "--ci-method",
        choices=INTERVAL_METHODS,
        default=None,
        help="with --ci: t (Student, default), bootstrap (BCa) or bootstrap-percentile "
        "(scipy.stats.bootstrap)",
    )
    parser.add_argument(
        "-B",
        "--resamples",
        type=int_option(1, 10**7),
        default=None,
        dest="B",
        metavar="N",
        help=f"with --ci-method bootstrap*: resamples (default {DEFAULT_RESAMPLES}; at least 100)",
    )
    parser.add_argument(
        "--seed",
        type=int_option(0),
        default=None,
        help="with --ci-method bootstrap*: the seed of numpy.random.default_rng (default 0)",
    )


def check_ci(parser: ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors of ``--ci`` and its options (before a file is read); fills in their defaults."""
    if args.ci is None:
        given = [
            o
            for o, v in (("--ci-method", args.ci_method), ("-B", args.B), ("--seed", args.seed))
            if v is not None
        ]
        if given:
            parser.error(f"{', '.join(given)} only with --ci LEVEL (an interval of each mean)")
        return
    if args.output_format == "trec":
        parser.error("--ci: --format trec has no place for an interval (trec_eval's lines); use tsv or jsonl")
    if args.no_summary:
        parser.error("--ci: with --no_summary (-n) no mean is printed to put an interval on")
    args.ci_method = args.ci_method or "t"
    if args.ci_method == "t" and (args.B is not None or args.seed is not None):
        parser.error("-B and --seed are for --ci-method bootstrap or bootstrap-percentile, not t")
    args.B = DEFAULT_RESAMPLES if args.B is None else args.B
    from ..stats.significance import MIN_RESAMPLES

    if args.ci_method != "t" and args.B < MIN_RESAMPLES:
        parser.error(f"-B {args.B}: a bootstrap interval needs at least {MIN_RESAMPLES} resamples")
    args.seed = DEFAULT_SEED if args.seed is None else args.seed
    import importlib.util

    if args.ci_method != "t" and importlib.util.find_spec("scipy") is None:
        raise UsageError(
            f"--ci-method {args.ci_method} needs scipy; install it with: pip install 'ir_measures_pres[meta]'"
        )


def load_statistics(args: argparse.Namespace) -> Any:
    """``--ci`` with a bootstrap: a thread that imports scipy.stats (half a second) while this one
    reads the qrels; None otherwise (Student's t loads nothing). :func:`ready_for_intervals`
    joins it before any worker is forked."""
    if args.ci is None or args.ci_method == "t":
        return None
    import threading

    thread = threading.Thread(target=__import__, args=("scipy.stats",), name="load-scipy", daemon=True)
    thread.start()
    return thread


def ready_for_intervals(args: argparse.Namespace, statistics: Any, topics: int) -> None:
    """Wait for :func:`load_statistics`' thread (no fork while a thread may hold the import lock)
    and make the t quantile of ``topics`` qrels topics here, once: the forked workers inherit it
    and load nothing more."""
    if statistics is not None:
        statistics.join()
    if args.ci is not None and args.ci_method == "t" and topics >= 2:
        from ..stats.student import t_quantile

        t_quantile(float(args.ci), topics)


def intervals_of(
    args: argparse.Namespace, table: Any, means: Optional[Dict[Any, float]], measures: Any = None
) -> Optional[Dict[Any, Any]]:
    """``--ci``: each measure's interval over the run's topics (None without --ci); a warning for a
    measure whose summary is not a mean (its cells stay empty) and for an interval over fewer
    than 2 topics (NaN)."""
    if args.ci is None:
        return None
    from ..stats.intervals import table_intervals

    out = table_intervals(table, args.ci, args.ci_method, args.B, args.seed, means, measures)
    from ..measures.summary import is_geometric

    none = [m for m, iv in out.items() if iv is None]
    sums = [str(m) for m in none if not is_geometric(m)]
    geometric = [str(m) for m in none if is_geometric(m)]
    if sums:
        warnings.warn(
            f"--ci: {', '.join(sums)}: summed over topics, not averaged: no interval (empty cells)",
            stacklevel=2,
        )
    if geometric:
        warnings.warn(
            f"--ci: {', '.join(geometric)}: a geometric mean over topics, not a mean of the values: "
            "no interval (empty cells)",
            stacklevel=2,
        )
    if any(iv is not None and iv.n < 2 for iv in out.values()):
        warnings.warn("--ci: an interval over topics needs at least 2 topics: it is nan", stacklevel=2)
    return out


def ci_cells(interval: Any) -> Dict[str, Any]:
    """``ci_low`` and ``ci_high`` of a mean record (jsonl): numbers, or null where the interval is
    not defined (NaN: fewer than 2 topics) or the measure's summary is not a mean (``NumRet``)."""
    if interval is None:
        return {"ci_low": None, "ci_high": None}
    return {k: (None if v != v else v) for k, v in (("ci_low", interval.low), ("ci_high", interval.high))}


def ci_tsv(interval: Any, fmt: Callable[[float], str]) -> str:
    """The two tsv cells ``--ci`` adds to every row, tab first: a mean row's ci_low and ci_high
    (``nan`` where the interval is not defined, as an undefined value prints), empty on a
    per-query row and for a measure whose summary is not a mean: every row has the same
    number of fields."""
    if interval is None:
        return "\t\t"
    return f"\t{fmt(interval.low)}\t{fmt(interval.high)}"
