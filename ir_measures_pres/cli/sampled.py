"""``ir_measures_pres sampled``: the lines NIST's evaluation scripts for sampled judgements
print: ``sample_eval.pl`` (xinfAP, infNDCG, inferred precision from stratified sampled
judgements), computed by :mod:`ir_measures_pres.measures.sampled.estimators`, and, with ``--tool statap``,
``statAP_MQ_eval_v3.pl`` (statAP, statRprec, statP@30 from a prels file), computed by
:mod:`ir_measures_pres.measures.sampled.statap`. Their lines are printed by
:mod:`ir_measures_pres.printers`; this module reads the files and follows the commands' policy
for several runs (:mod:`ir_measures_pres.cli._runs`).

Usage::

    ir_measures_pres sampled QRELS RUN [RUN ...] [--variant cds|trecvid] [--depth N]
                             [--ranks K,...] [-q]
    ir_measures_pres sampled --tool statap PRELS RUN [RUN ...] [-q]

For one run, exactly what ``sample_eval.pl [-q] QRELS RUN`` of that variant prints: with ``-q``
per topic (numeric order) ``infAP``, ``infNDCG``, ``iP<k>`` for the variant's ranks,
``inum_rel_ret``, ``inum_rel``, ``num_ret``; then the ``all`` lines (means over the topics of both
the run and the qrels, the 11 ``iprec@rec`` points, sums for ``inum_rel_ret`` and ``inum_rel``,
the deduplicated and capped ``num_ret``), with the tool's tabs, widths and ``%6.4f``.

With ``--tool statap``, for one run, what ``perl statAP_MQ_eval_v3.pl [-q] PRELS RUN`` prints
(with ``-q`` its topic blocks, then its summary lines), but for its nDCG and variance fields
(:mod:`ir_measures_pres.printers.statap` lists them). ``--variant``, ``--depth`` and ``--ranks`` are
sample_eval.pl's and a usage error there.

Several runs (or a folder of runs), either tool: one block per run, in the order given (a
folder's files by name), each after a line ``runid<TAB><TAB>all<TAB><TAB>NAME`` (NAME: the file
name without ``.gz``), the one line the tools do not print (each is run once per run and names no
run).

A document a run lists twice keeps its last score and the per-topic ``num_ret`` counts every
line, as in the tool, with the readers' warning. The tool's quirks that are not reproduced
(docs/judgements.md): a run topic id with leading zeros matches only the same text (a warning
names the topics that would match without them), a run without any qrels topic is an input error
(the tool divides by zero).

A run that cannot be read or scored is reported and the other runs still printed (exit status
1); the output is written once every run is done, so a stopped command prints nothing.

Exit status: 0 on success, 1 for an input error, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Optional, Sequence

from ._command import PROG, ArgumentParser, guarded, int_option, ranks_option, split_debug, warn
from ._runs import evaluate_runs, run_paths

#: the options that belong to sample_eval.pl (a usage error with ``--tool statap``)
SAMPLE_EVAL_ONLY = (("--variant", "variant"), ("--depth", "depth"), ("--ranks", "ranks"))


def _parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=f"{PROG} sampled",
        allow_abbrev=False,
        usage="%(prog)s [-h] QRELS RUN [RUN ...] [--variant cds|trecvid] [--depth N] [--ranks K,...] [-q]\n"
        "       %(prog)s --tool statap PRELS RUN [RUN ...] [-q]",
        description="Print, byte for byte, what NIST's scripts for sampled judgements print for "
        "each run: sample_eval.pl (xinfAP, infNDCG, inferred precision; the default) or, with "
        "--tool statap, statAP_MQ_eval_v3.pl (statAP, statRprec, statP@30; all but its nDCG and "
        "variance fields).",
        epilog="sample_eval's QRELS has 5 columns: topic iter docno stratum rel (rel < 0: pooled, "
        "not sampled). statap's PRELS has 5 columns: topic docno rel method iprob (iprob: the "
        "inclusion probability). Several runs or a folder: one block per run, each after a line "
        "'runid<TAB><TAB>all<TAB><TAB>NAME'. docs/judgements.md explains the estimators, the two "
        "variants and the fields statap leaves out.",
    )
    parser.add_argument(
        "qrels",
        metavar="QRELS",
        help="the judgements (.gz allowed): sample_eval's sampled qrels (topic iter docno stratum "
        "rel), or with --tool statap the prels (topic docno rel method iprob)",
    )
    parser.add_argument("runs", metavar="RUN", nargs="+", help="run files (TREC format) or folders of them")
    parser.add_argument(
        "--tool",
        choices=["sample_eval", "statap"],
        default="sample_eval",
        help="whose lines: sample_eval (default) prints sample_eval.pl's infAP, infNDCG, iP<k>, "
        "inum_rel_ret, inum_rel, num_ret and iprec@rec lines; statap prints "
        "statAP_MQ_eval_v3.pl's topic blocks (with -q) and its valid_topics, statMAP, statMRP and "
        "statMPC_30 summary lines",
    )
    parser.add_argument(
        "--variant",
        choices=["cds", "trecvid"],
        default=None,
        help="sample_eval.pl's copy: cds (Medical Records / CDS, iP10 iP50 iP1000) or trecvid "
        "(TV16: iP5 ... iP1000, AP scaled when R > depth, fractional ideal DCG); default cds",
    )
    parser.add_argument(
        "--depth",
        type=int_option(1, 10**7),
        default=None,
        help="sample_eval.pl's ranks read per topic ($maxResultSize, default 1000)",
    )
    parser.add_argument(
        "--ranks",
        type=ranks_option("a rank must be"),
        default=None,
        help="sample_eval.pl's iP ranks (default: the variant's, the depth last)",
    )
    parser.add_argument(
        "-q", dest="per_topic", action="store_true", help="per-topic lines first (as either tool's -q)"
    )
    return parser


def sampled_cli(argv: Sequence[str], out: Any = None) -> int:
    """The ``sampled`` subcommand (``argv`` without the word ``sampled``); returns the exit status."""
    out = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.qrels == "-" and "-" in args.runs or args.runs.count("-") > 1:
        parser.error("only one file can be read from standard input ('-')")
    if args.tool == "statap":
        given = [option for option, dest in SAMPLE_EVAL_ONLY if getattr(args, dest) is not None]
        if given:
            parser.error(
                f"{', '.join(given)}: sample_eval.pl's option{'s' if len(given) > 1 else ''}, "
                "not statAP_MQ_eval_v3.pl's (--tool statap takes PRELS RUN... [-q])"
            )
        block = _statap_block(args.qrels, args.per_topic)
    else:
        block = _sample_eval_block(args)
    runs, names, several = run_paths(args.runs)

    def evaluate_one(k: int, path: str, sink: Any) -> None:
        text = block(path)  # the whole block, then its lines: an input error writes nothing
        if several:
            sink.write(f"runid\t\tall\t\t{names[k]}\n")
        sink.write(text)

    return evaluate_runs(runs, evaluate_one, out, several)


def _sample_eval_block(args: argparse.Namespace) -> Callable[[str], str]:
    """sample_eval.pl's lines for one run file (:mod:`ir_measures_pres.printers.sample_eval`),
    the sampled qrels read once."""
    from ..data.datasets import qrels_columns
    from ..data.inputs import InputError
    from ..data.qrels import Qrels
    from ..data.readers import read_run
    from ..measures.sampled.estimators import PRECISION_RANKS
    from ..measures.sampled.sample_eval import sample_eval_run
    from ..printers import sample_eval

    variant = args.variant or "cds"
    depth = 1000 if args.depth is None else args.depth
    ranks = args.ranks or tuple(depth if k is None else k for k in PRECISION_RANKS[variant])
    cols = qrels_columns(args.qrels, sampled=True)
    if cols.strata is None:
        raise InputError(
            f"{args.qrels}: expected sampled judgements, 5 columns (topic iter docno stratum rel), "
            "found a 4-column qrels file"
        )
    qrels = Qrels.from_any(cols)

    def block(path: str) -> str:
        run = read_run(path, doc_ids="bytes")
        _note_leading_zeros(run, qrels, path)
        return sample_eval.lines(sample_eval_run(qrels, run, variant, depth, ranks, path), args.per_topic)

    return block


def _statap_block(prels_path: str, per_topic: bool) -> Callable[[str], str]:
    """statAP_MQ_eval_v3.pl's lines for one run file (:mod:`ir_measures_pres.printers.statap`),
    the prels read once."""
    from ..data.prels import read_prels
    from ..data.readers import read_run
    from ..measures.sampled.statap import statap_run
    from ..printers import statap

    prels = read_prels(prels_path)
    return lambda path: statap.lines(statap_run(prels, read_run(path)), per_topic)


def _note_leading_zeros(cols: Any, qrels: Any, path: str) -> None:
    """A warning for run topics that match a qrels topic only once leading zeros are stripped
    (some copies of the tool strip them; here topics match as written)."""
    from ..engine.lacking import named_topics

    names = cols.query_names if cols.query_names is not None else sorted(set(cols.query_ids.tolist()))
    known = set(qrels.query_ids)
    near = [t for t in names if t not in known and t.lstrip("0") in known and t.lstrip("0") != t]
    if near:
        warn(
            [
                f"{path}: {len(near)} topic(s) match a qrels topic only without their leading zeros "
                f"({named_topics(near)}), left out: topics match as written here, some copies of "
                "sample_eval.pl strip the zeros (and drop topic 0)"
            ]
        )


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``sampled`` subcommand: errors become one line and an exit status."""
    args, debug = split_debug(sys.argv[2:] if argv is None else argv)
    return guarded(lambda: sampled_cli(args), debug)
