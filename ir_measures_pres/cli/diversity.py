"""``ir_measures_pres diversity``: what one of NTCIREVAL 190111's diversity scripts writes into
a run's output file, byte for byte (docs/diversity.md).

Usage::

    ir_measures_pres diversity SCRIPT PROB DQRELS RUN [RUN ...] --cutoff L [--gains linear|exp]
                               [--digits D] [--mean] [--nev METRIC] [--matrix LINE]
                               [--output-dir DIR [--name NAME]]

SCRIPT is the script's name: ``D-NTCIR-eval`` (``<run>.<name>.Dnev``: D-measures, I-rec,
D#-Q, D#-nDCG), ``D-NTCIR-eval2`` (its ``.Dnev``: RBP with p = 0.99 and D#-ERR, D#-EBR,
D#-RBP), ``DIN-NTCIR-eval`` (``.DINnev``: DIN-measures and DIN#-measures), ``D-NTCIR-IAeval``
(``.nevIA``: per-intent blocks, IA-ERR, IA-nERR, IA-MSnDCG), ``D-NTCIR-IAeval2`` (``.nevIA``:
IA-MSnDCG, IA-Q, IA-ERR, IA-EBR, IA-RBP), ``DIN-NTCIR-PQeval`` (``.nevPQ``: P+Q) or
``NEVIAPQ2sharpnev`` (``<run>.PplusQ#@l.nev``: P+Q and P+Q#, what the script makes of the run's
``.Dnev`` and ``.nevPQ`` files). PROB is
the ``.Iprob`` or ``.DINprob`` file (the topics evaluated are its topics), DQRELS the
``.Dqrels`` file (or TREC diversity qrels), RUN a TREC run whose lines
are the ranking in file order (scores and ranks are ignored, as ``TRECsplitruns`` does; the
first 1000 lines of a topic). ``--gains exp`` gives level n the gain 2^n - 1 (the script's
commented-out alternative); ``--digits`` the decimals of the values ``ntcir_eval`` prints
(default 4, the tool's; the lines the scripts compute in awk stay 4-decimal); ``--mean`` adds
the ``ALL`` lines, each line's mean over the tid list's topics as ``NEV2mean`` computes it.
One run's file goes to standard output; with ``--output-dir DIR`` (which several runs, or a
folder of runs, need; DIR is created if need be) each run's file is written as the scripts name it,
``DIR/<run>.<name>.<suffix>`` (``<run>.PplusQ#@L.nev`` for NEVIAPQ2sharpnev), ``<name>``
being ``--name`` (default ``l<L>``). ``--nev METRIC`` gives what ``NEVIA2nev`` makes of an
intent-aware file (``TID METRIC@LLLL= v``; with ``--output-dir`` its ``.<METRIC>@LLLL.nev`` file,
as NEVIA2nev names it),
``--matrix LINE`` what ``Topicsys-matrix`` prints (a row per topic, a column per run).

The readers, the measures and the printer are :mod:`ir_measures_pres.data.diversity`,
:mod:`ir_measures_pres.measures.diversity.scripts` and :mod:`ir_measures_pres.printers.diversity`;
this module reads the files and follows the commands' policy (:mod:`._runs`): the output is
written once complete (the files of ``--output-dir`` renamed into place once every run is
evaluated), so a stopped command prints and leaves nothing.

Exit status: 0 on success, 1 for an input error, 2 for a usage error.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Sequence

from ..measures.diversity.scripts import SCRIPTS
from ._command import (
    PROG,
    ArgumentParser,
    UsageError,
    add_output_dir_option,
    guarded,
    int_option,
    split_debug,
    warn,
)
from ._runs import held_output, in_turn, run_paths, runs_status


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
    add_output_dir_option(
        parser,
        "write each run's file into DIR, named as the scripts name it: <run>.<name>.<suffix> "
        "(needed for several runs)",
    )
    parser.add_argument(
        "--nev",
        metavar="METRIC",
        action="append",
        default=[],
        help="an intent-aware metric (IA-nERR, IA-nERR@0010 ...): its lines TID METRIC@LLLL= v, as "
        "NEVIA2nev writes them (with --output-dir, into <run>.<name>.<suffix>.<METRIC>@LLLL.nev); repeatable",
    )
    parser.add_argument(
        "--matrix",
        metavar="LINE",
        help="print the topic x run table of one line (D#-nDCG, D#-nDCG@0010 ...) over the runs, as "
        "Topicsys-matrix prints it",
    )
    parser.add_argument(
        "--name",
        metavar="NAME",
        help="the evaluation's name in the file names (the scripts' evalname; default l<L>)",
    )
    return parser


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
    if args.name is not None and args.output is None:
        parser.error("--name names the files of --output-dir: give --output-dir DIR")
    runs, labels, several = run_paths(args.runs)
    if several and args.output is None and args.matrix is None:
        parser.error(
            "several runs: each gets its own file, as the scripts write them; give --output-dir DIR "
            "(or --matrix LINE for one table of them)"
        )
    if args.output is not None and os.path.exists(args.output) and not os.path.isdir(args.output):
        parser.error(f"--output-dir: {args.output}: not a folder")
    args.nev = _nev_metrics(parser, args)
    from ..data.diversity import read_dqrels, read_intent_probs
    from ..measures.diversity.kernels import judgements

    judg = judgements(read_intent_probs(args.prob), read_dqrels(args.dqrels), args.gains)
    texts: Dict[int, str] = {}
    written: Dict[str, str] = {}  # temporary file -> its place
    try:
        with held_output(out) as sink:
            failed = in_turn(runs, lambda k, path: texts.__setitem__(k, _run_text(args, judg, path)), several)
            if args.output is not None:
                _make_folder(args.output)
                for place, text in _files(args, labels, texts).items():
                    temporary = f"{place}.{os.getpid()}.part"
                    written[temporary] = place
                    with open(temporary, "w", newline="") as f:
                        f.write(text)
            sink.write(_printed(args, judg, texts, failed))
        for temporary, place in written.items():  # once every run is evaluated and no stop came
            os.replace(temporary, place)
        written.clear()
    finally:
        for temporary in written:
            if os.path.exists(temporary):
                os.remove(temporary)
    out.flush()
    return runs_status(failed, len(runs))


def _make_folder(folder: str) -> None:
    """Create ``--output-dir``'s folder (and its parents) if need be, as ``compare`` and the meta
    commands do; a folder that cannot be made is a one-line input error."""
    from ..data.inputs import InputError

    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise InputError(f"--output-dir: {folder}: cannot create the folder ({e.strerror or e})") from None


def _nev_metrics(parser: Any, args: Any) -> List[str]:
    """``--nev``'s metrics as ``NAME@LLLL`` (given with or without the cutoff), each one the
    intent-aware script writes."""
    if not args.nev:
        return []
    from ..printers.diversity import INTENT_AWARE

    at = f"@{args.cutoff:04d}"
    known = [name for name, _ in INTENT_AWARE.get(args.script, [])]
    if not known:
        parser.error(
            f"--nev takes an intent-aware script's metric ({', '.join(INTENT_AWARE)}), not {args.script}'s"
        )
    metrics = []
    for metric in args.nev:
        name = metric[: -len(at)] if metric.endswith(at) else metric
        if name not in known:
            parser.error(
                f"--nev: {metric!r} is not a metric {args.script} writes at L = {args.cutoff}: "
                + ", ".join(n + at for n in known)
            )
        metrics.append(name + at)
    return list(dict.fromkeys(metrics))


def _files(args: Any, labels: List[str], texts: Dict[int, str]) -> Dict[str, str]:
    """``--output-dir``'s files: each evaluated run's file, and NEVIA2nev's file of each
    ``--nev`` metric beside it, by the names the scripts give them."""
    from ..printers.diversity import nevia2nev_text, output_name

    name = args.name if args.name is not None else f"l{args.cutoff}"
    files = {}
    for k, text in sorted(texts.items()):
        file = output_name(args.script, labels[k], name, args.cutoff)
        files[os.path.join(args.output, file)] = text
        for metric in args.nev:
            files[os.path.join(args.output, f"{file}.{metric}.nev")] = nevia2nev_text(text, metric)
    return files


def _printed(args: Any, judg: Any, texts: Dict[int, str], failed: int) -> str:
    """What goes to standard output: ``--matrix``'s table (Topicsys-matrix; every run needed,
    else nothing), else with one run and no ``--output-dir`` its file (or its ``--nev``
    metrics' NEVIA2nev lines), else nothing."""
    from ..data.inputs import InputError
    from ..printers.diversity import matrix_text, nevia2nev_text, value_lines

    if args.matrix is not None:
        if failed:
            raise InputError(
                f"--matrix {args.matrix}: the table needs every run; {failed} could not be evaluated"
            )
        name = _line_name(
            args.matrix, args.cutoff, {n for t in texts.values() for _, n, _, _ in value_lines(t)}
        )
        return matrix_text([texts[k] for k in sorted(texts)], judg.topics, name)
    if args.output is not None or not texts:
        return ""
    text = texts[0]
    if args.nev:
        return "".join(nevia2nev_text(text, metric) for metric in args.nev)
    return text


def _line_name(given: str, cutoff: int, names: Any) -> str:
    """``--matrix``'s line as the files name it: as given, or with the cutoff ``@LLLL`` added;
    a name no run's file has is a usage error naming those it has."""
    for name in (given, f"{given}@{cutoff:04d}"):
        if name in names:
            return name
    raise UsageError(
        f"--matrix: no line {given!r} in the script's output; its lines: {', '.join(sorted(names))}"
    )


def _run_text(args: Any, judg: Any, path: str) -> str:
    """The script's output file for the run at ``path`` (warnings for topics the tool skips)."""
    from ..data.readers import read_run_lines
    from ..engine.lacking import lacking_topics, named_topics
    from ..measures.diversity.kernels import run_lists
    from ..measures.diversity.scripts import script_values
    from ..printers import diversity

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
    text = diversity.lines(script_values(args.script, judg, lists, args.cutoff), args.digits)
    if args.mean:
        text += diversity.mean_lines(text, len(judg.topics), args.digits)
    return text


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``diversity`` subcommand: errors become one line and an exit status."""
    args, debug = split_debug(sys.argv[2:] if argv is None else argv)
    return guarded(lambda: diversity_cli(args), debug)
