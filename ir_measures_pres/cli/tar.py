"""``ir_measures_pres tar``: the CLEF TAR tools' output, computed by :mod:`ir_measures_pres.measures.tar`
for the runs :mod:`ir_measures_pres.engine.tar` scores, printed by :mod:`ir_measures_pres.printers.tar`.
This module holds the parser and hands each run's rows to the printer.

Usage::

    ir_measures_pres tar QRELS RUN [RUN ...] [--edition 2017|2018] [--task 1|2] [--rel N]
                         [--format tool|tsv|jsonl] [--notices stderr|stdout]

For each run, in the order given, the lines the official tool prints (``tar_eval.py`` for
``--edition 2017``; ``tar_eval_2018.py TASK`` for ``--edition 2018``, the default, which is also
the 2019 tool): per evaluated topic ``topic<TAB>name<TAB>value`` with the tool's names, order,
rounding and number formatting, then the ``ALL`` block with the tool's aggregation. The tool's
notices (``Skipping topic: Q`` for a topic without relevant documents, ``Q Duplicate D`` for a
document screened twice) go to standard error, or with ``--notices stdout`` where the tool
prints them, so that the output is the tool's byte for byte. ``--format tsv`` prints
``query_id<TAB>measure<TAB>value`` rows (a ``run`` column first when several runs are given)
and ``jsonl`` one object per row, both with unrounded values. docs/tar.md has the details.

Exit status: 0 on success, 1 for an input error (one line ``ir_measures_pres: error: FILE:LINE:
what was expected, what was found``), 2 for a usage error.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Sequence

from ..engine.tar import Evaluation, scored_runs
from ..printers import tar
from ._command import (
    PROG,
    QRELS_HELP,
    ArgumentParser,
    add_format_option,
    add_jobs_option,
    guarded,
    jobs_of,
    split_debug,
    warn,
)
from ._runs import evaluate_runs, run_paths


def _parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=f"{PROG} tar",
        description="Evaluate technology-assisted review runs as the CLEF TAR tools do "
        "(tar_eval.py 2017, tar_eval_2018.py 2018/2019); the run's line order is the screening order.",
    )
    parser.add_argument("qrels", metavar="QRELS", help=QRELS_HELP)
    parser.add_argument(
        "runs", metavar="RUN", nargs="+", help="run files or folders of them, lines in screening order"
    )
    parser.add_argument(
        "--edition", choices=["2017", "2018"], default="2018", help="which tool (default 2018)"
    )
    parser.add_argument(
        "--task", type=int, choices=[1, 2], default=None, help="2018 tool's task: 1 (N = 5000) or 2 (default)"
    )
    parser.add_argument(
        "--rel",
        type=int,
        choices=[1, 2],
        default=1,
        help="lowest relevant value (2: content level of graded qrels)",
    )
    add_format_option(
        parser,
        ("tool", "tsv", "jsonl"),
        "tool",
        "the tool's lines, or tsv/jsonl rows with full-precision values",
    )
    parser.add_argument(
        "--notices",
        choices=["stderr", "stdout"],
        default="stderr",
        help="where the tool's notices go (stdout: where the tool prints them)",
    )
    add_jobs_option(parser, "the runs, when there are several")
    return parser


def tar_cli(argv: Sequence[str], out: Any = None, err: Any = None) -> int:
    """The ``tar`` subcommand (``argv`` without the word ``tar``); returns the exit status."""
    from ..data.datasets import qrels_columns
    from ..data.qrels import Qrels
    from ..engine.lacking import lacking_topics

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.edition == "2017" and args.task is not None:
        parser.error("--task belongs to the 2018 tool (--edition 2018); the 2017 tool has no tasks")
    task = 2 if args.task is None else args.task
    if args.qrels == "-" and "-" in args.runs or args.runs.count("-") > 1:
        parser.error("only one file can be read from standard input ('-')")
    evaluation = Evaluation(args.edition, task, args.rel)
    qrels = Qrels.from_any(qrels_columns(args.qrels))
    runs, names, several = run_paths(args.runs)
    scored = scored_runs(evaluation, [qrels], runs, jobs_of(args.jobs), keep_going=several)

    def evaluate_one(k: int, path: str, sink: Any) -> None:
        results, lacking = next(scored)  # the runs come back in order, one per call
        if isinstance(results, BaseException):
            raise results
        [(rows, notices)], [missing] = results, lacking
        name = names[k]
        if missing:
            warn([lacking_topics(name, missing, len(qrels.query_ids), "left out")])
        inline = tar.notices_inline(args.format, args.notices)
        if notices and not inline:
            err.write(tar.notice_lines(notices))
        sink.write(tar.lines(rows, notices, args.edition, args.format, name, several, inline))

    status = evaluate_runs(runs, evaluate_one, out, several)
    next(scored, None)  # every run taken: the workers end here, not when the generator is collected
    return status


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``tar`` subcommand (``argv`` without the word ``tar``): errors become one line and an
    exit status (:func:`~ir_measures_pres.cli._command.guarded`)."""
    args, debug = split_debug(sys.argv[2:] if argv is None else argv)
    return guarded(lambda: tar_cli(args), debug)
