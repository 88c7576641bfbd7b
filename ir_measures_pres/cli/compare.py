"""``ir_measures_pres compare``: significance tests between runs, from the command line.

::

    ir_measures_pres compare QRELS RUN_OR_DIR [RUN ...] -m MEASURE [MEASURE ...]
        [--baseline NAME ...] [--test t|wilcoxon|perm|tukey|rtukey] [--correction holm|...]
        [--alpha 0.05] [--B 10000] [--seed 0] [--ci 0.95] [--run-ci [t|bootstrap|bootstrap-percentile]]
        [--topics qrels|intersection]
        [--names ...] [--exclude GLOB] [--format text|md|latex|csv|json] [-o DIR] [-p 4]
        [--plot forest|matrix|none]

QRELS is a file or, when ir_datasets is installed, an ir_datasets id. ``--scores`` reads the
RUN files as ``trec_eval -q`` output (per-topic scores computed elsewhere; QRELS is then not
read and may be ``-``). The table goes to standard output in ``--format``; ``-o DIR`` writes
every format (and the plot) into DIR. Exit status: 0 on success, 1 on bad input, 2 on bad usage
(checked before any file is read); errors are one line ``ir_measures_pres: error: ...``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, List, Sequence

from ..stats.comparison import TESTS, check_parameters
from ._command import (
    PROG,
    QRELS_HELP,
    ArgumentParser,
    UsageError,
    add_format_option,
    add_output_dir_option,
    add_quiet_option,
    add_resamples_option,
    check_sampled_qrels,
    command_measures,
)


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog=f"{PROG} compare",
        description="Compare runs: paired significance tests with multiple-testing correction, "
        "effect sizes, intervals, and tables for papers. Every qrels topic counts (trec_eval -c).",
    )
    p.add_argument("qrels", metavar="QRELS", help=QRELS_HELP)
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files and/or directories of run files")
    p.add_argument(
        "-m",
        "--measures",
        nargs="+",
        action="extend",
        required=True,
        help="measures, e.g. -m AP nDCG@10 PRES@1000 (up to the next option; -m may be repeated)",
    )
    p.add_argument("--baseline", nargs="+", metavar="NAME", help="baseline run name(s); default: all pairs")
    p.add_argument("--test", choices=TESTS, default="t", help="test (default t: paired t-test)")
    p.add_argument(
        "--correction",
        default="holm",
        help="multiple-testing correction per measure: holm (default), bonferroni, fdr_bh, none, or "
        "any statsmodels multipletests method",
    )
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    add_resamples_option(p, 10_000, "randomisation draws (perm, rtukey)", old=["--B"], low=0)
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--ci", type=float, default=0.95, help="interval confidence (default 0.95)")
    p.add_argument(
        "--run-ci",
        nargs="?",
        const="t",
        default=None,
        choices=("t", "bootstrap", "bootstrap-percentile"),
        help="show each run's own interval of its mean at --ci after it in the tables: t (the "
        "default), bootstrap (BCa, -B resamples, --seed) or bootstrap-percentile; the JSON holds "
        "them always",
    )
    p.add_argument(
        "--topics",
        choices=("qrels", "intersection"),
        default="qrels",
        help="qrels: every qrels topic, 0 where a run lacks one (default); "
        "intersection: trec_eval without -c",
    )
    p.add_argument("--names", nargs="+", help="display names of the runs, in order")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip runs matching GLOB")
    add_format_option(p, ("text", "md", "latex", "csv", "json"), "text", "what standard output holds")
    add_output_dir_option(p, "write every format and the plot into DIR")
    p.add_argument("-p", "--places", type=int, default=4, help="decimal places in tables (default 4)")
    p.add_argument(
        "--plot",
        choices=("forest", "matrix", "none"),
        default="none",
        help="plot written with --output-dir (default none)",
    )
    p.add_argument(
        "--scores", action="store_true", help="the RUN files are trec_eval -q output (per-topic scores)"
    )
    add_quiet_option(p)
    return p


def _check(args: argparse.Namespace) -> None:
    """Usage errors, before any file is read."""
    from ..stats.significance import MIN_RESAMPLES

    if args.run_ci not in (None, "t") and args.B < MIN_RESAMPLES:
        raise UsageError(
            f"-B {args.B}: --run-ci {args.run_ci} needs at least {MIN_RESAMPLES} resamples for each interval"
        )
    try:
        check_parameters(
            args.test, args.correction, args.alpha, args.B, args.seed, args.ci, args.topics, args.run_ci
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not 0 <= args.places <= 17:
        raise UsageError(f"--places must be in 0..17, got {args.places}")
    if args.plot != "none" and not args.output:
        raise UsageError("--plot needs --output-dir DIR")


def _run_files(args: argparse.Namespace) -> List[Path]:
    from ..data.runfiles import run_files

    return run_files(args.runs, args.exclude)


def _compare(args: argparse.Namespace) -> Any:
    from ..stats.comparison import compare, compare_scores

    if args.scores:
        files = _run_files(args)
        return compare_scores(
            [str(f) for f in files],
            measures=[str(x) for m in args.measures for x in m.split()],
            baseline=args.baseline,
            test=args.test,
            correction=args.correction,
            alpha=args.alpha,
            B=args.B,
            seed=args.seed,
            ci=args.ci,
            topics=args.topics,
            names=args.names,
            run_ci=args.run_ci,
        )
    measures = command_measures(args.measures)  # a usage error, before any file is read
    check_sampled_qrels(args.qrels, measures)
    from ..data.datasets import qrels_source

    qrels = qrels_source(args.qrels)
    files = _run_files(args)
    return compare(
        qrels,
        [str(f) for f in files],
        measures,
        baseline=args.baseline,
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        B=args.B,
        seed=args.seed,
        ci=args.ci,
        topics=args.topics,
        names=args.names,
        progress=False if args.quiet else None,
        run_ci=args.run_ci,
    )


def main(argv: Sequence[str], out: Any = None) -> int:
    """``argv`` starts after ``compare``; returns the exit status. Usage errors are raised before
    any file is read; every error becomes one line and a status in
    :func:`~ir_measures_pres.cli._command.guarded`, which runs this."""
    out = sys.stdout if out is None else out
    args = build_parser().parse_args(list(argv))
    _check(args)
    res = _compare(args)
    text = {
        "text": lambda: res.to_text(args.places),
        "md": lambda: res.to_markdown(args.places),
        "latex": lambda: res.to_latex(args.places),
        "csv": res.to_csv,
        "json": res.to_json,
    }[args.format]()
    out.write(text)
    if args.output:
        written = res.save(args.output, args.places, plot=args.plot)
        sys.stderr.write("wrote " + ", ".join(str(p) for p in written) + "\n")
    return 0


__all__ = ["main", "build_parser"]
