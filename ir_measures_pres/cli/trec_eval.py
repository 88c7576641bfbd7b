"""``ir_measures_pres trec_eval``: a drop-in for the trec_eval 10.0 binary.

Usage::

    ir_measures_pres trec_eval [-q] [-m MEASURE[.PARAMS]]... [-c] [-n] [-l N] [-N N] [-M N] [-J]
                               [-R format] [-T trec_results] [-Z ZFILE] [-h] [-v]
                               REL_INFO_FILE RESULTS_FILE [RESULTS_FILE ...]

trec_eval's options with their short and long spellings (``--measure``, ``--query_eval_wanted``,
``--complete_rel_info_wanted``, ``--level_for_rel``, ``--nosummary``, ``--Number_docs_in_coll``,
``--Max_retrieved_per_topic``, ``--Judged_docs_only``, ``--Rel_info_format``,
``--Results_format``, ``--Zscore``, ``--help``, ``--version``), read as getopt reads them (bundled
``-qc``, attached ``-l2``, ``-mP.5``, options after the files). For one results file it prints
what trec_eval 10.0 prints (:mod:`..printers.trec_eval`); several results files (our extension)
print one such block after another, in the order given, under the package's policy for several
runs (:mod:`._runs`): nothing is printed before every file is done (a stopped command prints
nothing), and a file that fails is reported in one line while the others are printed, then a
line names the files whose blocks were printed, in order, and the failed ones; the exit status
is the first failed file's. Files may be gzipped; ``-`` reads one of them from standard
input.

Errors are one line ``ir_measures_pres: error: trec_eval: ...`` and trec_eval's exit status
(:mod:`._trec_eval_read`): 1 for a usage error or an illegal measure, 2 for a file that cannot
be read or holds a malformed line, or for measure parameters trec_eval cannot initialise a
measure with, 4 for a document listed twice among the ones kept, ``utility`` with other than 4
coefficients, a measure the ``-R`` format cannot give, inconsistent preferences or a results
file of comments only, 7 when no query has both results and judgements, 255 for a z-score file
that cannot be read. The tool's rules for ``-c`` (a query the run lacks scored on a
one-document ranking, some values reset), for ``num_rel``'s summary and for NaN are in the
per-query values (:mod:`..measures.trec_eval.tally`), the printer (:mod:`..printers.trec_eval`) and the
lists (:mod:`..measures.trec_eval.lists`).
docs/trec_eval.md lists the five deliberate differences from the binary.
"""

from __future__ import annotations

import getopt
import re
import sys
import textwrap
import warnings
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Any, Dict, List, Optional, Sequence, Tuple

from ..measures.trec_eval.table import MEASURES, NICKNAMES, NUM_Q, RUNID, MeasureSpecError, select
from ._command import say, warn
from ._runs import held_output, runs_status
from ._trec_eval_read import (
    CALC_STATUS,
    DUPLICATE_STATUS,
    INPUT_STATUS,
    NO_QUERIES_STATUS,
    USAGE_STATUS,
    ZSCORE_STATUS,
    TrecEvalError,
    input_error,
    kept_lines,
    read_columns,
    read_prefs,
    read_qrels_jg,
    read_zscores,
    repeats_of,
    run_by_query,
    warn_again,
)

__all__ = [
    "CALC_STATUS",
    "DUPLICATE_STATUS",
    "INPUT_STATUS",
    "NO_QUERIES_STATUS",
    "USAGE_STATUS",
    "ZSCORE_STATUS",
    "TrecEvalError",
    "run",
    "trec_eval_cli",
]

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = [
    "help",
    "version",
    "query_eval_wanted",
    "measure=",
    "complete_rel_info_wanted",
    "level_for_rel=",
    "nosummary",
    "Debug_level=",
    "Judged_docs_only",
    "Number_docs_in_coll=",
    "Max_retrieved_per_topic=",
    "Rel_info_format=",
    "Results_format=",
    "Output_old_results_format=",
    "Zscore=",
]
_LONG_TO_SHORT = {
    "--help": "-h",
    "--version": "-v",
    "--query_eval_wanted": "-q",
    "--measure": "-m",
    "--complete_rel_info_wanted": "-c",
    "--level_for_rel": "-l",
    "--nosummary": "-n",
    "--Debug_level": "-D",
    "--Judged_docs_only": "-J",
    "--Number_docs_in_coll": "-N",
    "--Max_retrieved_per_topic": "-M",
    "--Rel_info_format": "-R",
    "--Results_format": "-T",
    "--Output_old_results_format": "-o",
    "--Zscore": "-Z",
}
USAGE = (
    "usage: ir_measures_pres trec_eval [-h] [-q] [-m measure[.params]]... [-c] [-n] [-l num] [-N num] "
    "[-M num] [-J] [-R format] [-T trec_results] [-Z zfile] "
    "rel_info_file results_file [results_file ...]"
)

#: the usage in one line, for an error message
_USAGE_HINT = "ir_measures_pres trec_eval [options] rel_info_file results_file ...; -h lists the options"


def _integer(option: str, text: str) -> int:
    """An integer option value; trec_eval reads it with atol (leading digits), we refuse the rest."""
    if not re.fullmatch(r"\s*[+-]?\d+", text):
        raise TrecEvalError(f"option {option} takes an integer, not {text!r}", USAGE_STATUS)
    return int(text)


def _help(measures: Sequence[str]) -> str:
    lines = [
        USAGE,
        "",
        "Evaluate each results file against the relevance file and print what trec_eval 10.0 prints.",
        "  -q, --query_eval_wanted         also print every topic's values",
        "  -m, --measure NAME[.PARAMS]     add a measure or a nickname (official (default), all_trec,",
        "                                  set); repeatable: P.5,10  iprec_at_recall..1,.5  ndcg.1=3,2=9",
        "  -c, --complete_rel_info_wanted  average over every topic of the relevance file (a missing one",
        "                                  has an empty list)",
        "  -l, --level_for_rel NUM         least relevance level that counts as relevant (default 1)",
        "  -n, --nosummary                 no summary lines",
        "  -N, --Number_docs_in_coll NUM   documents in the collection (utility's 4th coefficient)",
        "  -M, --Max_retrieved_per_topic NUM  keep the top NUM documents of each topic",
        "  -J, --Judged_docs_only          drop unjudged documents before evaluating",
        "  -R, --Rel_info_format FORMAT    qrels (default), prefs, qrels_prefs, qrels_jg",
        "  -T, --Results_format trec_results",
        "  -Z, --Zscore FILE               print z-scores from lines 'qid measure mean sd'",
        "  -h, --help                      this help; with -m, what the measures are",
        "  -v, --version                   the trec_eval version reproduced",
        "",
        "Rel info: 'qid iter docno rel' lines (rel < 0: in the pool but not judged). Results:",
        "'qid iter docno rank score runid' lines, ranked by score (as a double) descending, then",
        "docno descending; the rank column is ignored; runid is the last line's. '#' lines are comments.",
        "Details and every difference from the binary: docs/trec_eval.md.",
    ]
    names: List[str] = []
    for arg in measures:
        base = arg.partition(".")[0]
        names.extend(NICKNAMES.get(base, (base,)))
    shown = [m for m in MEASURES.values() if m.name in names]
    if shown:
        lines += ["", "Measures:"]
        for m in shown:
            lines.append(m.name)
            lines.extend(textwrap.wrap(m.about, 92, initial_indent="    ", subsequent_indent="    "))
    unknown = [n for n in dict.fromkeys(names) if n not in MEASURES]
    for n in unknown:
        lines.append(n)
        lines.append("    (not a trec_eval 10.0 measure)")
    return "\n".join(lines) + "\n"


@dataclass
class _Options:
    """trec_eval's options as parsed (defaults: trec_eval's)."""

    measures: List[str] = field(default_factory=list)
    files: List[str] = field(default_factory=list)
    help: bool = False
    version: bool = False
    per_query: bool = False  # -q
    complete: bool = False  # -c
    summary: bool = True  # -n turns it off
    judged_only: bool = False  # -J
    level: int = 1  # -l
    num_docs: int = 0  # -N
    max_docs: Optional[int] = None  # -M
    rel_format: str = "qrels"  # -R
    zfile: Optional[str] = None  # -Z


#: the options that only set a flag, and the attribute they set
_FLAGS = {"-h": "help", "-v": "version", "-q": "per_query", "-c": "complete", "-J": "judged_only"}


def _parse(argv: Sequence[str]) -> _Options:
    try:
        opts, files = getopt.gnu_getopt(list(argv), _SHORT, _LONG)
    except getopt.GetoptError as error:
        raise TrecEvalError(f"{error} (usage: {_USAGE_HINT})", USAGE_STATUS) from None
    o = _Options(files=files)
    for option, value in opts:
        option = _LONG_TO_SHORT.get(option, option)
        if option == "-m":
            o.measures.append(value)
        elif option in _FLAGS:
            setattr(o, _FLAGS[option], True)
        elif option == "-n":
            o.summary = False
        elif option == "-l":
            o.level = _integer(option, value)
        elif option == "-N":
            o.num_docs = _integer(option, value)
        elif option == "-M":
            o.max_docs = _integer(option, value)
            if o.max_docs < 0:  # trec_eval crashes on it (a negative allocation)
                raise TrecEvalError(
                    f"option -M takes a number of documents >= 0, not {value!r}", USAGE_STATUS
                )
        elif option == "-R":
            o.rel_format = value
        elif option == "-T" and value != "trec_results":
            raise TrecEvalError(
                f"Illegal retrieval results format '{value}' (only trec_results)", INPUT_STATUS
            )
        elif option == "-Z":
            o.zfile = value
        elif option == "-D":
            raise TrecEvalError("-D (debug output) is not reproduced by this command", USAGE_STATUS)
        elif option == "-o":
            raise TrecEvalError(
                "-o (the old output format) is obsolete in trec_eval and not supported", USAGE_STATUS
            )
    return o


def _in_blocks(path: str, qrels: Any, selected: Any, o: Any) -> Optional[Tuple[Any, str, Dict[str, int]]]:
    """A results file read and evaluated block by block of whole queries (memory bounded by a
    block, :mod:`..data.runblocks`): (the per-query values of the whole file, its run id, per
    query the lines repeating a document), what :func:`run` has of the whole file; None for a file whose
    lines are not grouped by query (it is then read whole, as trec_eval reads any order)."""
    import numpy as np

    from ..data import runblocks
    from ..data.inputs import INPUT_ERRORS, Columns
    from ..data.runblocks import RunBlocks, UngroupedRun
    from ..data.topic_ranges import RangesFailed, ScoredRanges, pays
    from ..measures.trec_eval.lists import build_lists, level_counts
    from ..measures.trec_eval.tally import joined, only, tally
    from ..runtime.stops import stop_point

    def score(block: Columns) -> Tuple[Any, Dict[str, int]]:
        lists = build_lists(qrels, block, o.level, o.max_docs, o.judged_only)
        return tally(lists, selected, o.num_docs), repeats_of(block)

    def scored(blocks: Any) -> List[Tuple[Any, Dict[str, int]]]:
        done = []
        for item in blocks:
            done.append(item)
            stop_point()
        return done

    level_counts(qrels)  # made once, before the workers fork, not once per block
    parts = []
    repeats: Dict[str, int] = {}
    ranged = ScoredRanges(path, score, "str", runblocks.BLOCK_LINES) if pays(path) else None
    blocks: Any = ranged if ranged is not None else RunBlocks(path, "str", runblocks.BLOCK_LINES)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                results = scored(blocks if ranged is not None else map(score, blocks))
            except RangesFailed:  # read in order: it reports what it finds as it always has
                caught.clear()
                blocks = RunBlocks(path, "str", runblocks.BLOCK_LINES)
                results = scored(map(score, blocks))
    except UngroupedRun:
        return None
    except INPUT_ERRORS as error:
        raise input_error(error, "run") from None
    for part, part_repeats in results:
        parts.append(part)
        repeats.update(part_repeats)
    if repeats and o.max_docs is not None:  # repeats past -M: the file's every line is needed
        return None
    warn_again(caught, repeats)
    if o.complete:  # every query of the qrels: those the run lacks, with empty lists
        seen = {q for part in parts for q in part.query_ids}
        empty = Columns(
            np.array([], dtype=object), np.array([], dtype=object), np.array([], dtype=np.float64)
        )
        lists = build_lists(qrels, empty, o.level, o.max_docs, o.judged_only, complete=True)
        parts.append(only(tally(lists, selected, o.num_docs), [q for q in lists.query_ids if q not in seen]))
    return joined(parts), blocks.last_tag or "", repeats


def _say_lacking(path: str, query_ids: Sequence[str], qrels_topics: Sequence[str]) -> None:
    """One warning line for the qrels topics ``path`` lacks, which trec_eval 10.0 stops on (exit 4,
    "result qid ... not found in qrels") where 9.x, and this command, evaluate the shared ones."""
    have = set(query_ids)
    lacking = sorted(q for q in qrels_topics if q not in have)
    if lacking:
        shown = ", ".join(lacking[:5]) + (", ..." if len(lacking) > 5 else "")
        warn(
            [
                f"trec_eval: {path} lacks {len(lacking)} qrels topic(s) ({shown}): the {len(have)} shared "
                "topics are evaluated (trec_eval 10.0 stops on them, exit 4; -c averages over every topic)"
            ]
        )


def _refuse_repeats(query_ids: Sequence[str], repeats: Dict[str, int], path: str) -> None:
    """trec_eval's "duplicate docs" (exit 4) for the first evaluated query listing a document twice."""
    for q in query_ids:
        if repeats.get(q):
            raise TrecEvalError(
                f"duplicate docs: {path} lists a document of query {q!r} more than once "
                f"({repeats[q]} repeated line(s))",
                DUPLICATE_STATUS,
            )


def run(argv: Sequence[str], out: Optional[IO[str]] = None) -> int:
    """Parse trec_eval's arguments, evaluate, print; raises :class:`TrecEvalError`."""
    from ..data.qrels import Qrels
    from ..measures.trec_eval.lists import build_jg_lists, build_lists
    from ..measures.trec_eval.prefs import PrefsError, build_prefs_lists
    from ..measures.trec_eval.tally import complete_num_rel, tally
    from ..printers.trec_eval import lines

    out = sys.stdout if out is None else out
    o = _parse(argv)
    if o.help:
        out.write(_help(o.measures))
        return 0
    if o.version:
        sys.stderr.write("trec_eval version 10.0 (reproduced by ir_measures_pres trec_eval)\n")
        return 0
    if o.rel_format not in ("qrels", "qrels_jg", "prefs", "qrels_prefs"):
        raise TrecEvalError(f"Illegal rel_format '{o.rel_format}'", INPUT_STATUS)
    try:
        selected = select(o.measures, o.rel_format)
    except MeasureSpecError as error:  # 1 unknown measure, 2 bad parameters, 4 wrong -R format
        raise TrecEvalError(str(error), error.status) from None
    bad_utility = next(
        (len(s.values) for s in selected if s.measure.name == "utility" and len(s.values) != 4), 0
    )
    if len(o.files) < 2:
        raise TrecEvalError(
            f"need a rel_info_file and at least one results_file (usage: {_USAGE_HINT})", USAGE_STATUS
        )
    if o.files.count("-") > 1:
        raise TrecEvalError("only one file can be read from standard input ('-')", USAGE_STATUS)
    pairs: List[Tuple[str, str]] = []
    prefs: Dict[str, Any] = {}
    qrels: Any = None
    qrels_repeats: Dict[str, int] = {}
    if o.rel_format == "qrels_jg":
        pairs, qrels = read_qrels_jg(o.files[0])
    elif o.rel_format in ("prefs", "qrels_prefs"):
        prefs = read_prefs(o.files[0], o.rel_format)
    else:
        qrels_cols, qrels_repeats = read_columns(o.files[0], "qrels")
        qrels = Qrels.from_columns(qrels_cols)
    zscores = None if o.zfile is None else read_zscores(o.zfile)
    num_rel_all = complete_num_rel(qrels.labels) if o.complete and qrels is not None else None
    # the queries whose repeated documents trec_eval checks: those it evaluates, when a measure
    # needs the ranked list (num_q and runid alone never form it)
    evaluated: Any = set(prefs) if prefs else {q for q, _ in pairs} if pairs else set(qrels.query_ids)
    qrels_topics = list(evaluated)
    if all(s.measure.summary in (RUNID, NUM_Q) for s in selected):
        evaluated = set()

    def whole(path: str) -> Tuple[Any, str, Dict[str, int]]:
        """The results file read whole: its per-query values, run id and repeated lines."""
        cols, repeats = read_columns(path, "run")
        if repeats and o.max_docs is not None:
            cols, repeats = kept_lines(path, cols, repeats, o.max_docs, evaluated), {}
        lists: Any
        if prefs:
            try:
                lists = build_prefs_lists(prefs, run_by_query(cols), o.max_docs, o.complete)
            except PrefsError as error:
                raise TrecEvalError(
                    f"Can't calculate the preference measures: {error}", CALC_STATUS
                ) from None
        else:
            build = partial(build_jg_lists, pairs) if o.rel_format == "qrels_jg" else build_lists
            lists = build(qrels, cols, o.level, o.max_docs, o.judged_only, o.complete)
        return tally(lists, selected, o.num_docs), getattr(cols, "last_tag", None) or "", repeats

    def evaluate_one(path: str, sink: IO[str]) -> None:
        # a run grouped by query is read block by block (None: it is not, read it whole)
        streamed = _in_blocks(path, qrels, selected, o) if o.rel_format == "qrels" and path != "-" else None
        values, tag, repeats = streamed if streamed is not None else whole(path)
        if not values.query_ids:
            raise TrecEvalError(
                f"No queries with both results and relevance info in '{path}'", NO_QUERIES_STATUS
            )
        if bad_utility:  # m_utility.c refuses at its first query
            raise TrecEvalError(
                f"Can't calculate measure 'utility': it takes 4 coefficients, {bad_utility} given",
                CALC_STATUS,
            )
        if not o.complete:
            _say_lacking(path, values.query_ids, qrels_topics)
        checked = [q for q in values.query_ids if q in evaluated]
        _refuse_repeats(checked, repeats, path)
        _refuse_repeats(checked, qrels_repeats, o.files[0])
        sink.write(lines(values, tag, o.per_query, o.summary, zscores, num_rel_all))

    # the package's policy for several runs (cli/_runs.py): output held until every file is
    # done; with several results files a bad one is reported and the others printed
    results = o.files[1:]
    statuses: List[int] = []
    printed: List[str] = []
    failed: List[str] = []
    with held_output(out) as sink:
        for path in results:
            try:
                evaluate_one(path, sink)
                printed.append(path)
            except TrecEvalError as error:
                if len(results) == 1:
                    raise
                say(f"trec_eval: {error}")
                statuses.append(error.status)
                failed.append(path)
    out.flush()
    if failed:
        # each printed block is the tool's, byte for byte: one line says whose blocks they are, in
        # order, before the policy's line; the status is the first failed file's trec_eval status
        warn(
            [
                f"trec_eval: the output holds the blocks of {', '.join(printed) if printed else 'no file'}, "
                f"in this order; {', '.join(failed)} could not be evaluated"
            ]
        )
    return runs_status(len(statuses), len(results), statuses[0] if statuses else 0)


def trec_eval_cli(argv: Sequence[str]) -> int:
    """The subcommand: :func:`run`, its errors as one line and trec_eval's exit status."""
    try:
        return run(argv)
    except TrecEvalError as error:
        say(f"trec_eval: {error}")
        return error.status
