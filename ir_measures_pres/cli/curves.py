"""``ir_measures_pres curves``: the figures of the textbook's evaluation chapter, as tables and plots.

::

    ir_measures_pres curves QRELS RUN [RUN ...] --kind pr11|cg|dcg|ncg|ndcg [--depth N] [--logb B]
                            [--format text|csv|md|latex] [--plot FILE] [-p 4]
    ir_measures_pres curves QRELS RUN_A RUN_B --kind histogram -m MEASURE [--format ...] [--plot FILE]

The numbers are :func:`~ir_measures_pres.stats.curves.curves`' (docs/textbook.md). ``--plot
FILE`` also draws the figure (png, svg or pdf by the suffix; matplotlib, the ``meta`` extra).
Several runs: a run that cannot be read is reported and left out, the others drawn (exit status
1), the commands' one policy (:mod:`ir_measures_pres.cli._runs`). Exit status: 0 done, 1 an input
file cannot be read, 2 a usage error (checked before any file is read); errors are one line
``ir_measures_pres: error: ...``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from ._command import (
    PROG,
    QRELS_HELP,
    ArgumentParser,
    UsageError,
    add_format_option,
    check_sampled_qrels,
    command_measures,
    float_option,
    int_option,
)
from ._runs import in_turn, run_paths, runs_status

#: the suffixes --plot writes
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def build_parser() -> argparse.ArgumentParser:
    from ..stats.curves import KINDS

    p = ArgumentParser(
        prog=f"{PROG} curves",
        description="The figures of Modern Information Retrieval's evaluation chapter: the 11-point "
        "precision-recall curve, averaged CG/DCG/NCG/NDCG curves, and the per-query histogram of "
        "two runs' difference in a measure. Every qrels topic counts (a run lacking one scores 0).",
    )
    p.add_argument("qrels", metavar="QRELS", help=QRELS_HELP)
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files and/or folders of them")
    p.add_argument("--kind", choices=KINDS, default="pr11", help="which figure (default pr11)")
    p.add_argument(
        "--depth", type=int_option(1, 100_000), default=10, help="last rank of the gain curves (default 10)"
    )
    p.add_argument(
        "--logb",
        type=float_option(1.0, 1e6, low_open=True),
        default=2.0,
        help="log base b of the DCG discount, no discount before rank b (default 2)",
    )
    p.add_argument("-m", "--measure", metavar="MEASURE", help="the histogram's measure, e.g. Rprec or AP")
    add_format_option(p, ("text", "csv", "md", "latex"), "text", "what standard output holds")
    p.add_argument("--plot", metavar="FILE", help="also draw the figure into FILE (.png, .svg or .pdf)")
    p.add_argument(
        "-p", "--places", type=int_option(0, 17), default=4, help="decimal places of text tables (default 4)"
    )
    return p


def _check(args: argparse.Namespace) -> Any:
    """Usage errors, before any file is read; returns the histogram's measure (or None)."""
    if args.plot is not None and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise UsageError(f"--plot {args.plot}: the file must end in .png, .svg or .pdf")
    if args.kind == "histogram":
        if args.measure is None:
            raise UsageError("--kind histogram needs -m MEASURE (e.g. -m Rprec)")
        measures = command_measures([args.measure])
        if len(measures) != 1:
            raise UsageError(f"--kind histogram shows one measure, -m {args.measure!r} names {len(measures)}")
        if len(args.runs) != 2:
            raise UsageError(f"--kind histogram compares two runs (RUN_A RUN_B), got {len(args.runs)}")
        return measures[0]
    if args.measure is not None:
        raise UsageError(f"-m is for --kind histogram; a {args.kind} curve has its own measures")
    return None


def main(argv: Sequence[str], out: Any = None) -> int:
    """``argv`` starts after ``curves``; returns the exit status (errors raised for
    :func:`~ir_measures_pres.cli._command.guarded`)."""
    from ..data.datasets import qrels_source
    from ..data.readers import read_run
    from ..engine.scores import resolve_runs
    from ..stats.curves import curves

    out = sys.stdout if out is None else out
    args = build_parser().parse_args(list(argv))
    measure = _check(args)
    from ..data.extras import require

    require("pandas")  # before any file is read: the curves are a DataFrame (the meta extra)
    if args.plot is not None:
        require("matplotlib")
    if measure is not None:
        check_sampled_qrels(args.qrels, [measure])
    files, _, several = run_paths(args.runs)
    if args.kind == "histogram" and len(files) != 2:
        raise UsageError(f"--kind histogram compares two runs, the arguments hold {len(files)}")
    qrels = qrels_source(args.qrels)
    # the runs are read one after the other, under the commands' policy (a histogram needs both)
    named = resolve_runs(files)
    runs = {}

    def read_one(k: int, path: str) -> None:
        runs[named[k][0]] = read_run(path, doc_ids="bytes")  # as the engine reads a path

    failed = in_turn(files, read_one, several and args.kind != "histogram")
    if not runs:
        return runs_status(failed, len(files))
    res = curves(qrels, runs, args.kind, args.depth, args.logb, measure, progress=False)
    text = {
        "text": lambda: res.to_text(args.places),
        "md": lambda: res.to_markdown(args.places),
        "latex": lambda: res.to_latex(args.places),
        "csv": res.to_csv,
    }[args.format]()
    out.write(text)
    if args.plot is not None:
        import matplotlib.pyplot as plt

        fig = res.plot(args.plot)
        plt.close(fig)
        sys.stderr.write(f"wrote {args.plot}\n")
    out.flush()
    return runs_status(failed, len(files))


__all__ = ["main", "build_parser"]
