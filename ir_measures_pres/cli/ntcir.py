"""``ir_measures_pres ntcir``: NTCIREVAL 190111's ``ntcir_eval compute`` lines for every topic,
computed by the registered measures (:mod:`ir_measures_pres.measures.ntcir`).

Usage::

    ir_measures_pres ntcir QRELS RUN [-g G1:G2:...] [-beta B] [-gamma G] [-rbp P] [-logb B]
                           [-gap] [-rbup P] [-s S1:S2:...] [-cutoffs L1,L2,...] [-j]
                           [--digits N] [--mean]
    ir_measures_pres ntcir --list [same options]

For every topic of the qrels, in qrels file order, the lines ``ntcir_eval compute -out TID``
prints after ``ntcir_eval label`` (``label -j`` with ``-j``) on that topic, byte for byte; a topic
the run lacks prints what the tool prints for an empty list, a topic without a relevant document
(with ``-j``: without a judged non-relevant one) nothing, as the tool. ``--mean`` adds the ``ALL``
lines (NEV2mean: the mean of the printed values over the qrels topics); ``--list`` prints
``NAME<TAB>MEASURE`` for every name. docs/ntcir.md has the details.

Exit status: 0 on success, 1 for an input error, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ._command import (
    PROG,
    QRELS_HELP,
    ArgumentParser,
    UsageError,
    float_option,
    guarded,
    int_option,
    ranks_option,
    split_debug,
    warn,
)


def _levels(option: str) -> Any:
    """argparse ``type`` of ``-g`` / ``-s``: positive non-decreasing numbers separated by ':'."""

    def parse(text: str) -> Dict[int, float]:
        parts = text.split(":")
        values: List[float] = []
        for part in parts:
            try:
                value = float(part)
            except ValueError:
                raise argparse.ArgumentTypeError(
                    f"expected numbers separated by ':' (level 1 first), found {part!r} in {text!r}"
                ) from None
            if not (math.isfinite(value) and value > 0):
                raise argparse.ArgumentTypeError(
                    f"every {option} value must be a positive number, found {part}"
                )
            values.append(value)
        for i in range(1, len(values)):
            if values[i] < values[i - 1]:
                raise argparse.ArgumentTypeError(
                    f"{option} values must not decrease with the level, found {parts[i - 1]} then {parts[i]}"
                )
        return {level: value for level, value in enumerate(values, start=1)}

    return parse


def _parser() -> ArgumentParser:
    unit = float_option(0.0, 1.0, low_open=True)
    parser = ArgumentParser(
        prog=f"{PROG} ntcir",
        allow_abbrev=False,
        description="Print NTCIREVAL's 'ntcir_eval compute' lines for every topic of the qrels "
        "(the run ranked by score, ties by document id descending), computed by this package's "
        "registered measures; the options are the tool's.",
        epilog="Without -g, level n has gain n and the highest gain is the qrels' highest level "
        "(the tool requires -g). docs/ntcir.md maps every printed name to its measure.",
    )
    parser.add_argument("qrels", metavar="QRELS", nargs="?", help=QRELS_HELP)
    parser.add_argument("run", metavar="RUN", nargs="?", help="run file (TREC format)")
    parser.add_argument(
        "-g", dest="gains", type=_levels("-g"), help="gains of levels L1:L2:... (default n for Ln)"
    )
    parser.add_argument(
        "-s", dest="stops", type=_levels("-s"), help="stop values of L1:L2:... for NCUgu (default: the gains)"
    )
    parser.add_argument(
        "-beta", type=float_option(0.0, 1e12), default=1.0, help="blended ratio's beta (default 1)"
    )
    parser.add_argument(
        "-gamma", type=unit, default=0.95, help="rank-biased NCU's gamma in (0, 1] (default 0.95)"
    )
    parser.add_argument("-rbp", type=unit, default=0.95, help="RBP's persistence in (0, 1] (default 0.95)")
    parser.add_argument(
        "-logb", type=float_option(0.0, 1e12), default=2.0, help="nDCG's log base (default 2; 0: natural log)"
    )
    parser.add_argument("-gap", action="store_true", help="also print GAP and GAP@l")
    parser.add_argument("-rbup", type=unit, default=None, help="also print iRBU@l with this p in (0, 1]")
    parser.add_argument(
        "-cutoffs",
        type=ranks_option("a cutoff must be a rank"),
        default=(1000,),
        help="ranks l of the @l measures (default 1000)",
    )
    parser.add_argument(
        "-j",
        dest="condensed",
        action="store_true",
        help="condensed lists (label -j): unjudged documents removed, bpref/rpref printed",
    )
    parser.add_argument(
        "--digits", type=int_option(0, 30), default=4, help="decimals of the values (default 4, the tool's)"
    )
    parser.add_argument(
        "--mean",
        action="store_true",
        help="then the ALL lines: each measure's mean over the qrels topics (NEV2mean)",
    )
    parser.add_argument(
        "--list", action="store_true", help="print NAME<TAB>MEASURE for every line the options give, and stop"
    )
    return parser


def _options(args: argparse.Namespace) -> Any:
    from ..printers.ntcir import Options

    if 0 < args.logb <= 1:
        raise UsageError(
            f"argument -logb: expected 0 (natural log) or a base above 1, found {args.logb:g} "
            f"(log base {args.logb:g} gives {'infinite' if args.logb == 1 else 'negative'} discounts)"
        )
    if args.stops is not None and (args.gains is None or len(args.stops) != len(args.gains)):
        given = "no -g" if args.gains is None else f"-g gives {len(args.gains)}"
        raise UsageError(
            f"-s gives {len(args.stops)} stop values but {given}: give both, one value per level"
        )
    return Options(
        gains=args.gains,
        beta=args.beta,
        gamma=args.gamma,
        rbp=args.rbp,
        logb=args.logb,
        gap=args.gap,
        rbup=args.rbup,
        stops=args.stops,
        cutoffs=args.cutoffs,
        condensed=args.condensed,
    )


def ntcir_cli(argv: Sequence[str], out: Any = None) -> int:
    """The ``ntcir`` subcommand (``argv`` without the word ``ntcir``); returns the exit status."""
    from ..printers.ntcir import measure_lines

    out = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(list(argv))
    opts = _options(args)
    lines = measure_lines(opts)
    if args.list:
        for name, measure in lines:
            out.write(f"{name}\t{measure}\n")
        return 0
    if args.qrels is None or args.run is None:
        parser.error("QRELS and RUN are required (or --list)")
    if args.qrels == "-" and args.run == "-":
        parser.error("only one file can be read from standard input ('-')")
    _evaluate(args, opts, lines, out)
    return 0


def _evaluate(args: argparse.Namespace, opts: Any, lines: List[Tuple[str, Any]], out: Any) -> None:
    from dataclasses import replace

    import numpy as np

    from ..data.datasets import qrels_columns
    from ..data.qrels import Qrels
    from ..data.ranking import rank_run
    from ..data.readers import read_run
    from ..engine.lacking import lacking_topics, named_topics
    from ..measures.ntcir.compute import compute_run
    from ..printers import ntcir

    cols = qrels_columns(args.qrels)  # a file, or an ir_datasets id as in every command
    if len(cols.values) and cols.values.min() < 0:  # the tool's L0: its .rel files have no "unjudged"
        cols = replace(cols, values=np.maximum(cols.values, 0))
    qrels = Qrels.from_any(cols)
    _check_levels(qrels, opts, args.qrels)
    ranked = rank_run(read_run(args.run, doc_ids="bytes"), qrels)
    values = compute_run([measure for _, measure in lines], qrels, ranked, opts.condensed)
    text = ntcir.lines(values, [name for name, _ in lines], args.digits, args.mean)  # a stop prints nothing
    skipped = values.skipped()
    if skipped:
        why = "a judged non-relevant document (needed by -j)" if opts.condensed else "a relevant document"
        warn(
            [
                f"{len(skipped)} topic(s) of {args.qrels} without {why} print nothing, "
                f"as in ntcir_eval: {named_topics(skipped)}"
            ]
        )
    missing = values.lacking()
    if missing:  # the tool is given an empty list for them: every value 0
        warn([lacking_topics(args.run, missing, len(qrels.query_ids), "zero")])
    out.write(text)


def _check_levels(qrels: Any, opts: Any, path: str) -> None:
    """The tool refuses a qrels level above the levels -g gives gains for."""
    if opts.gains is None or not len(qrels.labels):
        return
    top = int(qrels.labels.max())
    if top > len(opts.gains):
        raise UsageError(
            f"{path} has relevance level {top} but -g gives gains for levels 1 to {len(opts.gains)} only: "
            f"give one gain per level, e.g. -g {':'.join(str(n) for n in range(1, top + 1))}"
        )


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``ntcir`` subcommand: errors become one line and an exit status."""
    args, debug = split_debug(sys.argv[2:] if argv is None else argv)
    return guarded(lambda: ntcir_cli(args), debug)
