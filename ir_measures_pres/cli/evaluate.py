"""The ``ir_measures_pres`` command: evaluate TREC files with our measures and the standard ones.

Usage (the ir_measures CLI's syntax, plus ``--format trec``)::

    ir_measures_pres QRELS RUN [RUN ...] MEASURE [MEASURE ...] [-q] [-n] [-p N]
                     [--format tsv|jsonl|trec] [--provider NAME] [--jobs N] [--bounds]
                     [--ci LEVEL [--ci-method t|bootstrap|bootstrap-percentile] [-B N] [--seed S]]
    ir_measures_pres {robustness,agreement,discriminative-power} ...   (meta-evaluation)

* QRELS and RUN are paths (gzipped or not) or ``-`` for standard input, read by the strict
  readers of :mod:`ir_measures_pres.data.readers` (an error names the file and the line).
* A MEASURE argument may hold several measures separated by blanks. They are read by the
  measure catalogue (:mod:`ir_measures_pres.measures.catalogue`), as everywhere else in the package:
  ir_measures syntax (``AP``, ``nDCG@10``, ``PRES@1000``, ``QMeasure(beta=0.5)``), trec_eval
  names (``map``, ``P.10``, ``P_5,10``, ``ndcg_cut.10``, ``recall.1000``, ``official``) and the
  trec-style names ``--format trec`` prints for ours (``PRES_1000``, ``Q-measure``,
  ``Rnorm_N1000``, ``bpref_top10pRnonrel``).
* Our measures are computed by our provider straight from the columns the readers give (the
  run's document ids as one bytes array, no Python object per line); the others go through
  ir_measures' default pipeline (pytrec_eval ...) or ``--provider``, with the same data
  converted to dicts (ids decoded to ``str`` only then).
* Output ``tsv`` (default) and ``jsonl`` are exactly the stock ``ir_measures`` CLI's;
  ``trec`` prints trec_eval's ``measure<TAB>qid<TAB>value`` lines. ``--format`` names them as
  every command does; ``-o`` (ir_measures' spelling) is the same option.
* ``--ci LEVEL``: each mean with its interval over the topics
  (:mod:`ir_measures_pres.stats.intervals`): tsv rows gain two cells, ``ci_low`` and
  ``ci_high`` on the mean ('all') rows and empty on per-query rows, so every row has as many
  fields; jsonl mean records gain the keys ``ci_low`` and ``ci_high``. Not with ``--format trec``.
* ``--bounds``: each value also gets its bounds over the unjudged documents the run retrieved
  (:mod:`ir_measures_pres.engine.bounds`): tsv rows gain ``lo hi exact`` columns (after
  ``ci_low ci_high`` with ``--ci``), jsonl records ``lo``, ``hi`` and ``exact`` keys (docs/cli.md).

Exit status: 0 on success, 1 when an input file or the evaluation fails, 2 for a usage error
(bad option, unknown or invalid measure).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..runtime.pool import can_fork, forked_map

if TYPE_CHECKING:
    from ..engine.evaluation import Evaluation
from ._bounds import add_bounds_option, bounded_measures, with_unjudged_fraction
from ._command import (
    INPUT_ERRORS,
    PROG,
    QRELS_HELP,
    ArgumentParser,
    UsageError,
    add_jobs_option,
    command_measures,
    format_option,
    guarded,
    int_option,
    jobs_of,
    needs_strata,
    report_input_error,
    split_debug,
    warn,
)
from ._intervals import (
    add_ci_options,
    check_ci,
    intervals_of,
    load_statistics,
    ready_for_intervals,
)
from ._rows import (
    DEFAULT_PLACES,
    ignored_options,
    missing_topics,
    trec_corrections,
    write_ir_measures,
    write_trec,
)
from ._runs import held_output, in_turn, run_paths, runs_status

#: --format words of this command (ir_measures' -o spells the same)
OUTPUT_FORMATS = ("tsv", "jsonl", "trec")

#: the tsv columns a row may have, in order (which ones: :func:`tsv_columns`); jsonl's keys
TSV_COLUMNS = ("[run]", "[query_id]", "measure", "value", "[ci_low ci_high]", "[lo hi exact]")

#: subcommands: the meta-evaluation's (:mod:`ir_measures_pres.cli.meta`), ``compare``
#: (:mod:`ir_measures_pres.cli.compare`), ``tar`` (:mod:`ir_measures_pres.cli.tar`), ``curves``
#: (:mod:`ir_measures_pres.cli.curves`), ``ntcir`` (:mod:`ir_measures_pres.cli.ntcir`),
#: ``sampled`` (:mod:`ir_measures_pres.cli.sampled`), ``trec_eval``
#: (:mod:`ir_measures_pres.cli.trec_eval`) and ``diversity`` (:mod:`ir_measures_pres.cli.diversity`)
SUBCOMMANDS = (
    "robustness",
    "agreement",
    "discriminative-power",
    "sensitivity",
    "compare",
    "tar",
    "curves",
    "ntcir",
    "sampled",
    "trec_eval",
    "diversity",
)


# --------------------------------------------------------------------------------------------
# arguments
# --------------------------------------------------------------------------------------------


def _parser() -> ArgumentParser:
    import ir_measures

    from ..measures.catalogue import MEASURES

    parser = ArgumentParser(
        prog=PROG,
        usage="%(prog)s [options] QRELS RUN [RUN ...] MEASURE [MEASURE ...]",
        description=(
            "Evaluate a TREC run against TREC qrels with the measures of ir_measures_pres ("
            + ", ".join(e.measure.NAME for e in MEASURES)
            + ") next to every standard "
            "ir_measures measure. Measures are written in ir_measures syntax (AP nDCG@10 "
            "PRES@1000 'QMeasure(beta=0.5)') or in trec_eval syntax (map P.10 ndcg_cut.10 "
            "recall.1000), mixed freely."
        ),
        epilog=(
            "subcommands (see '%(prog)s COMMAND --help'):\n"
            "  compare               significance tests between runs, paper-ready tables\n"
            "  tar                   technology-assisted review: the CLEF TAR tools' lines\n"
            "  curves                the textbook's figures: 11-point PR, CG/DCG curves, histogram\n"
            "  ntcir                 NTCIREVAL's ntcir_eval compute lines, every measure\n"
            "  sampled               sampled judgements: sample_eval.pl's or statAP_MQ_eval_v3.pl's lines\n"
            "  trec_eval             trec_eval 10.0: its options, its lines, byte for byte\n"
            "  diversity             NTCIREVAL's diversity scripts: D-, D#-, DIN-measures, I-rec\n"
            "  robustness            how measures change when judgements are removed\n"
            "  agreement             how measures rank a set of runs alike\n"
            "  discriminative-power  how often measures separate pairs of runs\n"
            "  sensitivity           swap rates: the difference a measure needs to be trusted\n\n"
            "QRELS and RUN may be gzipped; '-' reads one of them from standard input.\n"
            "Exit status: 0 done, 1 an input file cannot be read, 2 a usage error (option, measure), "
            "130/143 stopped by SIGINT/SIGTERM, 141 the reader of the output went away (| head); "
            "--debug shows the traceback of an error.\n"
            "--format trec prints trec_eval's 'measure<TAB>qid<TAB>value' lines, averaging over "
            "every qrels query (trec_eval -c).\n\n"
            "tsv columns, in this order (--header writes them as a first line; jsonl records carry "
            "the same names as keys):\n  "
            + " ".join(TSV_COLUMNS)
            + "\n  run: with several runs or a folder; query_id: with -q (the mean rows say 'all'); "
            "ci_low ci_high: with --ci, empty on per-query rows; lo hi exact: with --bounds.\n"
            "--bounds also prints unj@10 (empty bound cells): the fraction of each run's top 10 that "
            "nobody judged, the size of the hole the bounds are about; ask for unj@k to see another depth."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("qrels", metavar="QRELS", help=QRELS_HELP)
    parser.add_argument(
        "items",
        metavar="RUN [RUN ...] MEASURE",
        nargs="+",
        help="run files (qid iter docno rank score tag) or directories of them, then the measures; "
        "one argument may hold several measures separated by blanks. With several runs (or a "
        "directory) every output row names its run",
    )
    parser.add_argument(
        "--places",
        "-p",
        type=int_option(-1, 30),
        default=DEFAULT_PLACES,
        help="decimal places (default 4; -1: all digits)",
    )
    parser.add_argument("--by_query", "-q", action="store_true", help="also print per-query values")
    parser.add_argument(
        "--no_summary", "-n", action="store_true", help="with -q: do not print the 'all' rows"
    )
    parser.add_argument(
        "--output_format",
        "-o",
        type=format_option(OUTPUT_FORMATS),
        default=None,
        metavar="{tsv,jsonl,trec}",
        help="tsv (ir_measures' format, default), jsonl, or trec (trec_eval's lines); the same as --format",
    )
    parser.add_argument(
        "--format",
        dest="fmt",
        type=format_option(OUTPUT_FORMATS),
        metavar="{tsv,jsonl,trec}",
        help="the output's format, as in every command: tsv (default), jsonl, or trec "
        "(trec_eval's 'measure<TAB>qid<TAB>value' lines)",
    )
    parser.add_argument(
        "--provider",
        choices=sorted(ir_measures.providers.registry.keys()),
        help="compute every measure with this provider",
    )
    add_jobs_option(
        parser,
        "the runs, when there are several; one run: its blocks of queries",
    )
    add_ci_options(parser)
    add_bounds_option(parser)
    parser.add_argument(
        "--header",
        action="store_true",
        help="tsv: first a line naming the columns (see 'tsv columns' below); jsonl records are labelled",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    return parser


def _version() -> str:
    from .. import __version__

    return __version__


# --------------------------------------------------------------------------------------------
# entry point
# --------------------------------------------------------------------------------------------


def run_cli(argv: Sequence[str], out: Any = None) -> int:
    """Evaluate (no subcommand); returns the exit status. Every check of the command line (options,
    measures, provider, run files) is made before a file is read; errors are raised for
    :func:`guarded`. Several runs share the qrels and the prepared evaluators; a run that cannot
    be read is reported (file and line) and the others are still evaluated (exit status 1)."""
    from ..data.datasets import qrels_columns

    out = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.fmt is not None and args.output_format not in (None, args.fmt):
        parser.error(f"--format {args.fmt} and -o {args.output_format} ask for two formats")
    args.output_format = args.fmt or args.output_format or "tsv"
    if args.no_summary and not args.by_query:
        parser.error("--no_summary (-n) only supported with --by_query (-q)")
    if args.header and args.output_format != "tsv":
        parser.error(f"--header names tsv's columns; --format {args.output_format} has none to name")
    check_ci(parser, args)
    run_args, measure_args = _split_runs(args.items)
    if args.qrels == "-" and "-" in run_args:
        parser.error("only one of QRELS and RUN can be read from standard input ('-')")
    if run_args.count("-") > 1:
        parser.error("only one RUN can be read from standard input ('-')")
    measures = _parse_measure_args(measure_args, lambda texts: command_measures(texts, args.provider))
    bounded = bounded_measures(args, measures)
    if bounded:
        measures = with_unjudged_fraction(measures)
    if out is None:
        raise UsageError("standard output is closed: there is nowhere to write the results")
    warn(ignored_options(args))
    runs, names, many = run_paths(run_args)
    # document ids as bytes arrays (no str per run line: our provider joins the run with the
    # qrels by hashing the bytes, and indexes the qrels' bytes as read)
    statistics = load_statistics(args)  # --ci with a bootstrap: scipy loads while the qrels are read
    qrels = qrels_columns(args.qrels, sampled=needs_strata(measures))  # a file, or an ir_datasets id
    jobs = jobs_of(args.jobs)
    # a single run has its blocks shared by forked workers (read whole when not grouped by query:
    # its pytrec_eval batches); with several, the runs are (a worker forks no further)
    from ..engine.evaluation import Evaluation

    evaluation = Evaluation(
        measures, qrels, args.provider, processes=jobs if len(runs) == 1 else 1, bounds=bounded
    )
    ready_for_intervals(args, statistics, len(evaluation.qrels_ids))
    frozen = _freeze_prepared(evaluation)
    try:
        return _score_all(args, evaluation, runs, names, many, jobs, out)
    finally:
        if frozen:  # the command ran in-process (tests, a caller of main()): back to the collector
            import gc

            gc.unfreeze()


def _score_all(
    args: argparse.Namespace,
    evaluation: "Evaluation",
    runs: Sequence[str],
    names: Sequence[str],
    many: bool,
    jobs: int,
    out: Any,
) -> int:
    """Score every run of the call and write its rows; the exit status."""
    qrels = evaluation.qrels
    query_order = qrels.query_names
    if query_order is None:
        query_order = list(dict.fromkeys(qrels.query_ids.tolist()))
    # the commands' one policy for several runs (cli/_runs.py): rows held until every run is
    # scored, a run that fails reported and the others still scored
    with held_output(out) as held:
        rows: Any = held
        if args.header:
            rows = _HeaderFirst(rows, "\t".join(tsv_columns(args, many)) + "\n")
        # forked workers have no standard input (multiprocessing closes it): a run read from it
        # keeps every run in this process
        if len(runs) > 1 and jobs > 1 and can_fork() and "-" not in runs:
            failed = _score_in_workers(args, evaluation, runs, names, query_order, jobs, rows)
        else:
            failed = _score_here(
                args, evaluation, runs, names, many, query_order, rows, jobs if len(runs) == 1 else 1
            )
    out.flush()
    return runs_status(failed, len(runs))


def tsv_columns(args: argparse.Namespace, many: bool) -> List[str]:
    """The names of a tsv row's columns for these options (:data:`TSV_COLUMNS`): ``--header``'s
    line. ``many``: a run column (several runs, or a folder)."""
    names = ["run"] if many else []
    names += ["query_id"] if args.by_query else []
    names += ["measure", "value"]
    names += ["ci_low", "ci_high"] if args.ci is not None else []
    names += ["lo", "hi", "exact"] if getattr(args, "bounds", False) else []
    return names


class _HeaderFirst:
    """``out`` that writes the tsv header line just before the first row: a command that writes
    no row (its one run cannot be read) writes no header either."""

    def __init__(self, out: Any, line: str) -> None:
        self.out, self.line = out, line

    def write(self, text: str) -> Any:
        if self.line and text:
            self.out.write(self.line)
            self.line = ""
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def _freeze_prepared(evaluation: "Evaluation") -> bool:
    """What the qrels made (millions of objects for a large qrels: dicts, evaluators, the index)
    lives until the command ends: out of the cyclic garbage collector's sight (``gc.freeze``), its
    collections, which every block's short-lived objects trigger, no longer walk it (the time per
    line then no longer grows with the qrels) and forked workers do not copy its pages by touching
    it (bench/README.md, "Runs larger than memory")."""
    import gc

    evaluation.warm()
    _ = evaluation.qrels_ids
    if gc.get_freeze_count():  # someone froze objects already: leave the collector as it is
        return False
    gc.freeze()
    return True


def _score_here(
    args: argparse.Namespace,
    evaluation: "Evaluation",
    runs: Sequence[str],
    labels: Sequence[str],
    many: bool,
    query_order: Sequence[str],
    out: Any,
    jobs: int = 1,
) -> int:
    """Score the runs in this process, one after the other, each block by block of whole queries
    (:func:`~ir_measures_pres.engine.streaming.stream_run`: the next block read ahead in a thread,
    or ``jobs`` forked workers sharing the blocks), and write each run's rows as soon as it is
    scored; returns how many runs failed. ``many`` False (one run): no run column, and an input
    error is raised (exit 1); with several runs it is reported and the others are still scored."""
    from ..engine.streaming import stream_run

    def score(k: int, path: str) -> None:
        table, run = stream_run(evaluation, path, jobs=jobs)
        means = _means_of(args, table)
        _write_run(
            args,
            evaluation.measures,
            evaluation.qrels,
            run,
            table.metrics(),
            labels[k] if many else None,
            query_order,
            out,
            label=labels[k],
            means=means,
            intervals=intervals_of(args, table, means, evaluation.measures),
        )

    with _progress(len(runs)) as bar:
        return in_turn(runs, score, many, bar)


def _score_in_workers(
    args: argparse.Namespace,
    evaluation: "Evaluation",
    runs: Sequence[str],
    names: Sequence[str],
    query_order: Sequence[str],
    jobs: int,
    out: Any,
) -> int:
    """Score the runs in ``jobs`` forked workers, which inherit the prepared qrels and evaluators
    (nothing is prepared twice); each run's rows, warnings and input error come back and are
    written here in the order of the runs. Returns how many runs failed."""
    from ..engine.streaming import stream_run

    def score(item: Tuple[str, str]) -> Tuple[str, List[str], Optional[BaseException]]:
        path, name = item
        rows = io.StringIO()
        notes: List[str] = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                table, run = stream_run(evaluation, path)
                results = table.metrics()
                means = _means_of(args, table)
                _write_run(
                    args,
                    evaluation.measures,
                    evaluation.qrels,
                    run,
                    results,
                    name,
                    query_order,
                    rows,
                    label=name,
                    notices=notes,
                    means=means,
                    intervals=intervals_of(args, table, means, evaluation.measures),
                )
                error = None
            except INPUT_ERRORS as problem:  # reported in its turn; the other runs go on
                error = problem
        return rows.getvalue(), [str(w.message) for w in caught] + notes, error

    evaluation.warm()  # the qrels' hash index made once, before the fork
    scored = forked_map(score, list(zip(runs, names)), jobs)
    failed = 0
    with _progress(len(runs)) as bar:
        for rows, notices, error in scored:
            warn(notices)
            if error is not None:
                report_input_error(error)
                failed += 1
            out.write(rows)
            bar.update()
    return failed


def _means_of(args: argparse.Namespace, table: Any) -> Optional[Dict[Any, float]]:
    """The run's means straight from its table when only they are printed (tsv, jsonl without -q)."""
    if args.by_query or args.output_format == "trec":
        return None
    return table.aggregates()  # type: ignore[no-any-return]


def _progress(total: int) -> Any:
    """A bar over several runs, on a terminal only (:func:`~ir_measures_pres.runtime.progress.progress_bar`);
    none for one run."""
    from ..runtime.progress import progress_bar

    return progress_bar(total, show=None if total > 1 else False, unit="run")


def _write_run(
    args: argparse.Namespace,
    measures: Sequence[Any],
    qrels: Any,
    run: Any,
    results: Iterable[Any],
    name: Optional[str],
    query_order: Sequence[str],
    out: Any,
    label: Optional[str] = None,
    notices: Optional[List[str]] = None,
    means: Optional[Dict[Any, float]] = None,
    intervals: Optional[Dict[Any, Any]] = None,
) -> None:
    """Write one run's rows (``name``: the run column, None for one run); warn first when the
    run lacks qrels topics (a run of another collection would otherwise score 0 silently),
    naming it ``label`` (its file name); ``notices``: where the warning goes (a forked worker
    sends its warnings back), else straight to stderr."""
    from ..engine.lacking import lacking_topics

    missing = missing_topics(qrels, run)
    if missing:
        note = lacking_topics(label or name or "run", missing, len(query_order), measures=measures)
        if notices is None:
            warn([note])
        else:
            notices.append(note)
    if args.output_format == "trec":
        fixes = trec_corrections(measures, qrels, run)
        tag = None if name is None else (run.tag or name)
        write_trec(args, measures, results, fixes, out, tag)
    else:
        bounds = getattr(args, "bounds", False)
        write_ir_measures(args, measures, results, query_order, out, name, means, intervals, bounds)


def _split_runs(items: Sequence[str]) -> Tuple[List[str], List[str]]:
    """(run arguments, measure arguments) of ``RUN [RUN ...] MEASURE [MEASURE ...]``: the first
    item is a run; so is every following item that names an existing file or directory; the
    measures follow. An item both a file here and a measure (a file named ``AP``) at the end is
    read as a measure."""
    from ..measures.catalogue import MeasureNameError, parse_measures

    k = 1
    while k < len(items) and (items[k] == "-" or os.path.exists(items[k])):
        k += 1
    runs, rest = list(items[:k]), list(items[k:])
    while not rest and len(runs) > 1:  # every item is a file: trailing measures named like files
        try:
            parse_measures([runs[-1]])
        except MeasureNameError:
            break
        rest.insert(0, runs.pop())
    if not rest:
        raise UsageError(
            "expected at least one MEASURE after the runs (usage: "
            f"{PROG} QRELS RUN [RUN ...] MEASURE [MEASURE ...])"
        )
    late = [x for x in rest if os.path.exists(x) and not _is_measure(x)]
    if late:
        raise UsageError(f"{late[0]!r} is a file after the measures: the runs come first, then the measures")
    return runs, rest


def _is_measure(text: str) -> bool:
    from ..measures.catalogue import MeasureNameError, parse_measures

    try:
        parse_measures([text])
    except MeasureNameError:
        return False
    return True


def _parse_measure_args(measure_args: Sequence[str], parse: Any) -> List[Any]:
    """The measures; an argument that is neither a measure nor an existing file says both."""
    from ..measures.catalogue import MeasureNameError

    try:
        return list(parse(measure_args))
    except MeasureNameError as error:
        for arg in measure_args:
            if not _is_measure(arg) and ("/" in arg or os.sep in arg):
                raise UsageError(f"{arg!r} is neither a run file (no such file) nor a measure") from error
        raise


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Console-script entry point (``ir_measures_pres = "ir_measures_pres.cli.evaluate:main"``)."""
    argv, debug = split_debug(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "tar":
        from .tar import tar_cli

        return guarded(lambda: tar_cli(argv[1:]), debug)
    if argv and argv[0] == "curves":
        from .curves import main as curves_main

        return guarded(lambda: curves_main(argv[1:]), debug)
    if argv and argv[0] == "ntcir":
        from .ntcir import ntcir_cli

        return guarded(lambda: ntcir_cli(argv[1:]), debug)
    if argv and argv[0] == "sampled":
        from .sampled import sampled_cli

        return guarded(lambda: sampled_cli(argv[1:]), debug)
    if argv and argv[0] == "trec_eval":
        from .trec_eval import trec_eval_cli

        return guarded(lambda: trec_eval_cli(argv[1:]), debug)
    if argv and argv[0] == "diversity":
        from .diversity import diversity_cli

        return guarded(lambda: diversity_cli(argv[1:]), debug)
    if argv and argv[0] == "compare":
        from .compare import main as compare_main

        return guarded(lambda: compare_main(argv[1:]), debug)
    if argv and argv[0] in SUBCOMMANDS:
        from .meta import run as meta_run

        return guarded(lambda: meta_run(argv), debug)
    return guarded(lambda: run_cli(argv), debug)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
