"""``ir_measures_pres diversity``: what one of NTCIREVAL 190111's diversity scripts writes into
a run's output file, byte for byte (docs/diversity.md).

Usage::

    ir_measures_pres diversity SCRIPT PROB DQRELS RUN [RUN ...] --cutoff L [--gains linear|exp]
                               [--digits D] [--mean] [--output-dir DIR [--name NAME]]

SCRIPT is the script's name: ``D-NTCIR-eval`` (``<run>.<name>.Dnev``: D-measures, I-rec,
D#-Q, D#-nDCG), ``D-NTCIR-eval2`` (its ``.Dnev``: RBP with p = 0.99 and D#-ERR, D#-EBR,
D#-RBP), ``DIN-NTCIR-eval`` (``.DINnev``: DIN-measures and DIN#-measures), ``D-NTCIR-IAeval``
(``.nevIA``: per-intent blocks, IA-ERR, IA-nERR, IA-MSnDCG), ``D-NTCIR-IAeval2`` (``.nevIA``:
IA-MSnDCG, IA-Q, IA-ERR, IA-EBR, IA-RBP), ``DIN-NTCIR-PQeval`` (``.nevPQ``: P+Q) or
``NEVIAPQ2sharpnev`` (``<run>.PplusQ#@l.nev``: P+Q and P+Q#, what the script makes of the run's
``.Dnev`` and ``.nevPQ`` files). NEVIA2nev and Topicsys-matrix are not reproduced. PROB is
the ``.Iprob`` or ``.DINprob`` file (the topics evaluated are its topics), DQRELS the
``.Dqrels`` file (or TREC diversity qrels), RUN a TREC run whose lines
are the ranking in file order (scores and ranks are ignored, as ``TRECsplitruns`` does; the
first 1000 lines of a topic). ``--gains exp`` gives level n the gain 2^n - 1 (the script's
commented-out alternative); ``--digits`` the decimals of the values ``ntcir_eval`` prints
(default 4, the tool's; the lines the scripts compute in awk stay 4-decimal); ``--mean`` adds
the ``ALL`` lines, each line's mean over the tid list's topics as ``NEV2mean`` computes it.
One run's file goes to standard output; with ``--output-dir DIR`` (which several runs, or a
folder of runs, need) each run's file is written as the scripts name it,
``DIR/<run>.<name>.<suffix>`` (``<run>.PplusQ#@L.nev`` for NEVIAPQ2sharpnev), ``<name>``
being ``--name`` (default ``l<L>``).

The readers, the measures and the printer are :mod:`ir_measures_pres.data.diversity`,
:mod:`ir_measures_pres.measures.diversity` and :mod:`ir_measures_pres.printers.ntcireval_diversity`;
this module reads the files and follows the commands' policy (:mod:`._runs`): the output is
written once complete (the files of ``--output-dir`` renamed into place once every run is
evaluated), so a stopped command prints and leaves nothing.

Exit status: 0 on success, 1 for an input error, 2 for a usage error.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Sequence

from ._command import PROG, ArgumentParser, UsageError, guarded, int_option, split_debug, warn
from ._runs import evaluate_runs, run_paths

#: the per-run evaluation scripts of the suite (the printer's SCRIPTS, named here so that
#: ``--help`` does not load numpy; tests/test_diversity_command.py checks that the two are equal)
SCRIPTS = (
    "D-NTCIR-eval",
    "D-NTCIR-eval2",
    "DIN-NTCIR-eval",
    "D-NTCIR-IAeval",
    "D-NTCIR-IAeval2",
    "DIN-NTCIR-PQeval",
    "NEVIAPQ2sharpnev",
)


def _parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=f"{PROG} diversity",
        allow_abbrev=False,
        description="Print, byte for byte, what one of NTCIREVAL's diversity scripts writes into "
        "a run's output file: D-NTCIR-eval (.Dnev), D-NTCIR-eval2 (.Dnev), DIN-NTCIR-eval "
        "(.DINnev), D-NTCIR-IAeval or D-NTCIR-IAeval2 (.nevIA), DIN-NTCIR-PQeval (.nevPQ), "
        "NEVIAPQ2sharpnev (PplusQ#@L.nev).",
        epilog="PROB: topic intent P(i|q) [inf|nav]; DQRELS: topic intent docno L0..L9 (or TREC "
        "diversity qrels: topic intent docno rel); RUN: TREC format, ranked in file order. "
        "docs/diversity.md has the formulas and the differences.",
    )
    parser.add_argument("script", metavar="SCRIPT", help=f"the script: {', '.join(SCRIPTS)}")
    parser.add_argument("prob", metavar="PROB", help="intent probabilities (.Iprob or .DINprob)")
    parser.add_argument(
        "dqrels", metavar="DQRELS", help="per-intent judgements (.Dqrels, or TREC diversity qrels)"
    )
    parser.add_argument(
        "runs", metavar="RUN", nargs="+", help="run files or folders (TREC format; lines in file order)"
    )
    parser.add_argument(
        "--cutoff",
        type=int_option(1, 10**7),
        required=True,
        help="the script's cutoff L (one per call, as the scripts take it)",
    )
    parser.add_argument(
        "--gains",
        choices=["linear", "exp"],
        default="linear",
        help="gain of level n: n (linear, the stock script) or 2^n - 1 (exp)",
    )
    parser.add_argument(
        "--digits",
        type=int_option(0, 30),
        default=4,
        help="decimals of the values ntcir_eval prints (default 4, the tool's; 17: its 17-decimal "
        "build); the D#, DIN# and SUMp lines the scripts compute stay 4-decimal",
    )
    parser.add_argument(
        "--mean",
        action="store_true",
        help="then the ALL lines: each line's mean over the topics of PROB (NEV2mean)",
    )
    parser.add_argument(
        "--output-dir",
        metavar="DIR",
        help="write each run's file into DIR, named as the scripts name it: <run>.<name>.<suffix> "
        "(needed for several runs)",
    )
    parser.add_argument(
        "--name",
        metavar="NAME",
        help="the evaluation's name in the file names (the scripts' evalname; default l<L>)",
    )
    return parser


#: the suffix of each script's per-run file (NEVIAPQ2sharpnev's is made from the cutoff)
SUFFIX = {
    "D-NTCIR-eval": "Dnev",
    "D-NTCIR-eval2": "Dnev",
    "DIN-NTCIR-eval": "DINnev",
    "D-NTCIR-IAeval": "nevIA",
    "D-NTCIR-IAeval2": "nevIA",
    "DIN-NTCIR-PQeval": "nevPQ",
}


def output_name(script: str, run: str, name: str, cutoff: int) -> str:
    """The file a script writes for ``run``: ``<run>.<name>.<suffix>``, or NEVIAPQ2sharpnev's
    ``<run>.PplusQ#@LLLL.nev``."""
    if script == "NEVIAPQ2sharpnev":
        return f"{run}.PplusQ#@{cutoff:04d}.nev"
    return f"{run}.{name}.{SUFFIX[script]}"


def diversity_cli(argv: Sequence[str], out: Any = None) -> int:
    """The ``diversity`` subcommand (``argv`` without the word ``diversity``); returns the exit
    status."""
    out = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.script not in SCRIPTS:
        raise UsageError(
            f"argument SCRIPT: {args.script!r} is not a diversity script of NTCIREVAL ({', '.join(SCRIPTS)})"
        )
    if [args.prob, args.dqrels, *args.runs].count("-") > 1:
        parser.error("only one file can be read from standard input ('-')")
    if args.name is not None and args.output_dir is None:
        parser.error("--name names the files of --output-dir: give --output-dir DIR")
    runs, labels, several = run_paths(args.runs)
    if several and args.output_dir is None:
        parser.error("several runs: each gets its own file, as the scripts write them; give --output-dir DIR")
    if args.output_dir is not None and not os.path.isdir(args.output_dir):
        parser.error(f"--output-dir: {args.output_dir}: not a folder")
    from ..data.diversity import read_dqrels, read_intent_probs
    from ..measures.diversity import judgements

    judg = judgements(read_intent_probs(args.prob), read_dqrels(args.dqrels), args.gains)
    if args.output_dir is None:
        return evaluate_runs(
            runs, lambda k, path, sink: sink.write(_run_text(args, judg, path)), out, several
        )
    return _into_files(args, judg, runs, labels, several, out)


def _into_files(args: Any, judg: Any, runs: List[str], labels: List[str], several: bool, out: Any) -> int:
    """Each run's file written into ``--output-dir``: first beside its place under a temporary
    name, renamed into place once every run is evaluated (a stop or an error leaves nothing)."""
    name = args.name if args.name is not None else f"l{args.cutoff}"
    written: Dict[str, str] = {}  # temporary file -> its place
    try:

        def evaluate_one(k: int, path: str, sink: Any) -> None:
            place = os.path.join(args.output_dir, output_name(args.script, labels[k], name, args.cutoff))
            text = _run_text(args, judg, path)
            temporary = f"{place}.{os.getpid()}.part"
            written[temporary] = place
            with open(temporary, "w", newline="") as f:
                f.write(text)

        status = evaluate_runs(runs, evaluate_one, out, several)
        for temporary, place in written.items():
            os.replace(temporary, place)
        written.clear()
        return status
    finally:
        for temporary in written:
            if os.path.exists(temporary):
                os.remove(temporary)


def _run_text(args: Any, judg: Any, path: str) -> str:
    """The script's output file for the run at ``path`` (warnings for topics the tool skips)."""
    from ..data.readers import read_run_lines
    from ..engine.scores import lacking_topics, named_topics
    from ..measures.diversity import run_lists
    from ..printers.ntcireval_diversity import diversity_text, mean_lines

    run = read_run_lines(path)
    lists = run_lists(judg, run)
    names = run.query_names if run.query_names is not None else sorted(set(run.query_ids.tolist()))
    known = set(judg.topics)
    extra = [t for t in names if t not in known]
    notes = []
    if extra:
        notes.append(
            f"{path}: {len(extra)} topic(s) not in {args.prob} left out, as the scripts do: "
            f"{named_topics(extra)}"
        )
    missing = [t for t, n in zip(judg.topics, lists.lengths.tolist()) if n == 0]
    if missing:  # the tool is given an empty list for them: every value 0
        notes.append(lacking_topics(path, missing, len(judg.topics), "zero"))
    if notes:
        warn(notes)
    text = diversity_text(args.script, judg, lists, args.cutoff, args.digits)
    if args.mean:
        text += mean_lines(text, len(judg.topics), args.digits)
    return text


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``diversity`` subcommand: errors become one line and an exit status."""
    args, debug = split_debug(sys.argv[2:] if argv is None else argv)
    return guarded(lambda: diversity_cli(args), debug)
