"""The ``ir_measures_pres`` command: evaluate TREC files with our measures and the standard ones.

Usage (the ir_measures CLI's syntax, plus ``--format trec``)::

    ir_measures_pres QRELS RUN MEASURE [MEASURE ...] [-q] [-n] [-p N] [-o tsv|jsonl|trec]
                     [--format trec] [--provider NAME]
    ir_measures_pres {robustness,agreement,discriminative-power} ...   (meta-evaluation)

* QRELS and RUN are paths (gzipped or not) or ``-`` for standard input, read by the strict
  readers of :mod:`ir_measures_pres.readers` (an error names the file and the line).
* A MEASURE argument may hold several measures separated by blanks. Each is read with
  ``ir_measures.parse_measure`` (``AP``, ``nDCG@10``, ``PRES@1000``, ``QMeasure(beta=0.5)``),
  else with ``ir_measures.parse_trec_measure`` (trec_eval names: ``map``, ``P.10``, ``P_5,10``,
  ``ndcg_cut.10``, ``recall.1000``, ``official``), else as one of our trec-style output names
  (``PRES_1000``, ``Q-measure``, ``bpref_top10pRnonrel``; :mod:`ir_measures_pres._trec_format`).
* Our measures are computed by our provider straight from the columns the readers give (the
  run's document ids as one bytes array, no Python object per line); the others go through
  ir_measures' default pipeline (pytrec_eval ...) or ``--provider``, with the same data
  converted to dicts (ids decoded to ``str`` only then).
* Output ``tsv`` (default) and ``jsonl`` are exactly the stock ``ir_measures`` CLI's;
  ``trec`` (``--format trec``) prints trec_eval's ``measure<TAB>qid<TAB>value`` lines.

Exit status: 0 on success, 1 when an input file or the evaluation fails, 2 for a usage error
(bad option, unknown or invalid measure).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import re
import sys
import warnings
from collections import Counter
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

PROG = "ir_measures_pres"

#: meta-evaluation subcommands, handled by :mod:`ir_measures_pres.meta.cli`
SUBCOMMANDS = ("robustness", "agreement", "discriminative-power")

DEFAULT_PLACES = 4
SUMMARY_QID = "all"

# trec_eval measure names (the table of ir_measures.parse_trec_measure), for strict matching of
# trec names (that function's regular expression is not anchored at the end: it reads 'P_10abc'
# as P@10) and for suggestions
_TREC_BASES = (
    "ndcg",
    "P",
    "map_cut",
    "Rndcg",
    "num_nonrel_judged_ret",
    "set_map",
    "11pt_avg",
    "relative_P",
    "gm_map",
    "binG",
    "set_P",
    "infAP",
    "bpref",
    "num_rel_ret",
    "ndcg_rel",
    "recip_rank",
    "recall",
    "set_recall",
    "utility",
    "set_relative_P",
    "num_ret",
    "num_rel",
    "ndcg_cut",
    "Rprec",
    "Rprec_mult",
    "relstring",
    "gm_bpref",
    "num_q",
    "map",
    "G",
    "success",
    "set_F",
    "iprec_at_recall",
)
_TREC_ARGS = r"(?:[._]\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?)*)?"
# the order in which trec_eval prints its measures (out.test.a), for nicknames such as 'official'
_TREC_ORDER = (
    "num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P recall infAP "
    "gm_bpref Rprec_mult utility 11pt_avg binG G ndcg ndcg_rel Rndcg ndcg_cut map_cut relative_P success "
    "set_P set_relative_P set_recall set_map set_F num_nonrel_judged_ret"
).split()
_LEADING_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


class UsageError(Exception):
    """A command-line mistake: reported with exit status 2."""


# --------------------------------------------------------------------------------------------
# arguments
# --------------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    import ir_measures

    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Evaluate a TREC run against TREC qrels with the measures of ir_measures_pres (PRES, "
            "R_norm, QMeasure, OMeasure, PMeasure, PPlusMeasure, Bpref10) next to every standard "
            "ir_measures measure. Measures are written in ir_measures syntax (AP nDCG@10 "
            "PRES@1000 'QMeasure(beta=0.5)') or in trec_eval syntax (map P.10 ndcg_cut.10 "
            "recall.1000), mixed freely."
        ),
        epilog=(
            "meta-evaluation subcommands (see '%(prog)s COMMAND --help'):\n"
            "  robustness            how measures change when judgements are removed\n"
            "  agreement             how measures rank a set of runs alike\n"
            "  discriminative-power  how often measures separate pairs of runs\n\n"
            "QRELS and RUN may be gzipped; '-' reads one of them from standard input.\n"
            "--format trec prints trec_eval's 'measure<TAB>qid<TAB>value' lines, averaging over "
            "every qrels query (trec_eval -c)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("qrels", metavar="QRELS", help="qrels file (qid iter docno relevance)")
    parser.add_argument("run", metavar="RUN", help="run file (qid iter docno rank score tag)")
    parser.add_argument(
        "measures",
        metavar="MEASURE",
        nargs="+",
        help="measures; one argument may hold several separated by blanks",
    )
    parser.add_argument(
        "--places", "-p", type=int, default=DEFAULT_PLACES, help="decimal places (default 4; -1: all digits)"
    )
    parser.add_argument("--by_query", "-q", action="store_true", help="also print per-query values")
    parser.add_argument(
        "--no_summary", "-n", action="store_true", help="with -q: do not print the 'all' rows"
    )
    parser.add_argument(
        "--output_format",
        "-o",
        choices=("tsv", "jsonl", "trec"),
        default="tsv",
        help="tsv (ir_measures' format, default), jsonl, or trec (as --format trec)",
    )
    parser.add_argument(
        "--format",
        dest="trec_format",
        choices=("trec",),
        help="trec: trec_eval's output lines 'measure<TAB>qid<TAB>value'",
    )
    parser.add_argument(
        "--provider",
        choices=sorted(ir_measures.providers.registry.keys()),
        help="compute every measure with this provider",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    return parser


def _version() -> str:
    from . import __version__

    return __version__


# --------------------------------------------------------------------------------------------
# measures
# --------------------------------------------------------------------------------------------


def parse_measures(arguments: Iterable[str]) -> List[Any]:
    """The measures named by the arguments, in order, without repeats; raises :class:`UsageError`
    naming every unknown or invalid one (with close names as suggestions)."""
    measures: List[Any] = []
    errors: List[str] = []
    for argument in arguments:
        for token in argument.split():
            try:
                for measure in _parse_one(token):
                    if measure not in measures:
                        measures.append(measure)
            except UsageError as error:
                errors.append(str(error))
    if errors:
        raise UsageError("\n".join(errors))
    return measures


def _parse_one(token: str) -> List[Any]:
    import ir_measures

    from ._trec_format import parse_trec_name

    invalid: Optional[UsageError] = None
    try:
        measure = ir_measures.parse_measure(token)
    except (NameError, ValueError, TypeError, AssertionError, SyntaxError) as error:
        found = _LEADING_NAME.match(token)
        name = found.group() if found else ""
        rest = token[len(name) :]
        if name in ir_measures.measures.registry and (not rest or rest[0] in "(@"):
            invalid = UsageError(f"invalid measure {token!r}: {_describe(error)}")
    else:
        try:
            return [_validated(token, measure)]
        except UsageError as error:  # e.g. 'P' (no cutoff): maybe a trec_eval name
            invalid = error
    trec = _parse_trec(token) if invalid is None or token in _TREC_BASES else None
    if trec is None:
        trec = parse_trec_name(token)
    if trec:
        return [_validated(token, m) for m in trec]
    if invalid is not None:
        raise invalid
    hint = suggest(token)
    raise UsageError(f"unknown measure {token!r}" + (f" (did you mean {' or '.join(hint)}?)" if hint else ""))


def _parse_trec(token: str) -> Optional[List[Any]]:
    """``ir_measures.parse_trec_measure(token)`` for a real trec_eval name, else None."""
    import ir_measures
    import pytrec_eval

    known = token in getattr(pytrec_eval, "supported_nicknames", {}) or any(
        re.fullmatch(re.escape(base) + _TREC_ARGS, token) for base in _TREC_BASES
    )
    try:
        # parse_trec_measure prints the nickname members it skips; keep stdout for results
        with contextlib.redirect_stdout(sys.stderr):
            measures = ir_measures.parse_trec_measure(token)
    except (ValueError, TypeError, KeyError) as error:
        if known:  # e.g. 'gm_map': a trec_eval measure that no provider computes
            raise UsageError(f"unsupported trec_eval measure {token!r}: {_describe(error)}") from None
        return None
    if not known:  # only our own measures get through ir_measures_pres' wrapper
        from ._registry import BY_NAME

        if not all(getattr(m, "NAME", None) in BY_NAME for m in measures):
            return None
    if token in getattr(pytrec_eval, "supported_nicknames", {}):
        return sorted(measures, key=_trec_order)  # as trec_eval prints them, not alphabetically
    return list(measures)


def _trec_order(measure: Any) -> Tuple[int, float]:
    from ._trec_format import trec_name

    name = trec_name(measure)
    found = re.fullmatch(r"(.*?)(?:_(\d+(?:\.\d+)?))?", name)
    base, number = (found.group(1), found.group(2)) if found else (name, None)
    rank = _TREC_ORDER.index(base) if base in _TREC_ORDER else len(_TREC_ORDER)
    return rank, float(number) if number else -1.0


def _validated(token: str, measure: Any) -> Any:
    try:
        measure.validate_params()
    except (ValueError, TypeError, AssertionError) as error:
        raise UsageError(f"invalid measure {token!r}: {_describe(error)}") from None
    return measure


def _describe(error: BaseException) -> str:
    text = str(error)
    return text if text else type(error).__name__


def _candidates() -> List[str]:
    import ir_measures

    from ._trec_format import _BPREF10, _OURS_BASE

    names = list(ir_measures.measures.registry)
    names += [n for n in _TREC_BASES if n not in names]
    names += list(_OURS_BASE.values()) + list(_BPREF10.values()) + ["PRES_1000"]
    return names


def suggest(token: str) -> List[str]:
    """Close measure names for an unknown ``token`` (``Bpref-10`` -> ``Bpref10``)."""
    found = re.match(r"[^@(]*", token)
    base = found.group() if found else token
    rest = token[len(base) :]

    def key(s: str) -> str:
        return re.sub(r"[^a-z0-9]", "", s.lower())

    candidates = _candidates()
    same = [c for c in candidates if key(c) == key(base) and c != base]
    close = difflib.get_close_matches(base, candidates, n=3, cutoff=0.75)
    out: List[str] = []
    for c in same + close:
        if c not in out and c != base:
            out.append(c)
    return [c + rest for c in out[:3]]


# --------------------------------------------------------------------------------------------
# evaluation
# --------------------------------------------------------------------------------------------


def _is_ours(measure: Any) -> bool:
    from ._registry import BY_NAME

    entry = BY_NAME.get(getattr(measure, "NAME", None))  # type: ignore[arg-type]
    return entry is not None and isinstance(measure, type(entry.measure))


def _as_dict(cols: Any) -> Dict[str, Dict[str, Any]]:
    """Columns -> ``{qid: {doc: value}}`` (the last line of a pair wins), a loop over query runs;
    bytes document ids are decoded to ``str`` (UTF-8, as the readers' str mode)."""
    import numpy as np

    from .readers import ids_as_str

    qids = cols.query_ids
    out: Dict[str, Dict[str, Any]] = {}
    n = len(qids)
    if n == 0:
        return out
    heads = np.concatenate(([0], np.flatnonzero(qids[1:] != qids[:-1]) + 1, [n])).tolist()
    docs = ids_as_str(cols.doc_ids)
    values = cols.values
    for a, b in zip(heads[:-1], heads[1:]):
        seg = out.get(qids[a])
        if seg is None:
            seg = out[qids[a]] = {}
        seg.update(zip(docs[a:b].tolist(), values[a:b].tolist()))
    return out


def evaluate(measures: Sequence[Any], qrels: Any, run: Any, provider: Optional[str] = None) -> Iterator[Any]:
    """Per-query ``Metric``s of ``measures`` (every qrels query, DEFAULT where the run has none).

    Our measures go to our provider with the columns as they are; the others to ir_measures'
    default pipeline (or ``provider``) as dicts. Standard measures come first, as in the stock
    CLI (our provider is last in the pipeline).
    """
    import ir_measures

    from .provider import PresProvider

    if provider == PresProvider.NAME:
        ours, others = list(measures), []
    elif provider is not None:
        ours, others = [], list(measures)
    else:
        ours = [m for m in measures if _is_ours(m)]
        others = [m for m in measures if not _is_ours(m)]
    our_evaluator = PresProvider().evaluator(ours, qrels) if ours else None
    if others:
        calc = ir_measures if provider is None else ir_measures.providers.registry[provider]
        evaluator = calc.evaluator(others, _as_dict(qrels))
        yield from evaluator.iter_calc(_as_dict(run))
    if our_evaluator is not None:
        yield from our_evaluator.iter_calc(run)


def _trec_corrections(measures: Sequence[Any], qrels: Any, run: Any) -> Dict[Tuple[Any, str], float]:
    """trec_eval -c values of num_q and num_rel for qrels queries the run lacks (ir_measures
    gives those the DEFAULT 0; trec_eval -c counts the query and its relevant documents)."""
    import numpy as np

    wanted = [m for m in measures if getattr(m, "NAME", None) in ("NumQ", "NumRel")]
    if not wanted:
        return {}
    names = getattr(run, "query_names", None)  # the readers' distinct query ids: no pass over lines
    in_run = set(names if names is not None else np.asarray(run.query_ids).tolist())
    qrels_qids = list(dict.fromkeys(qrels.query_ids.tolist()))
    missing = [q for q in qrels_qids if q not in in_run]
    fixes: Dict[Tuple[Any, str], float] = {}
    for m in wanted:
        if m.NAME == "NumQ":
            fixes.update({(m, q): 1.0 for q in missing})
        else:
            rel = m["rel"]
            counts = Counter(q for q, v in zip(qrels.query_ids.tolist(), qrels.values.tolist()) if v >= rel)
            fixes.update({(m, q): float(counts.get(q, 0)) for q in missing})
    return fixes


# --------------------------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------------------------


def _fmt(value: float, places: int) -> str:
    return f"{value:{'' if places == -1 else f'.{places}f'}}"


def _write_ir_measures(
    args: argparse.Namespace, measures: Sequence[Any], results: Iterable[Any], out: Any
) -> None:
    """Exactly the stock ir_measures CLI output (tsv or jsonl)."""
    if args.output_format == "jsonl" and args.places != DEFAULT_PLACES:
        sys.stderr.write("--places is ignored when using --output jsonl\n")

    def emit(qid: str, measure: Any, value: float) -> None:
        if args.output_format == "jsonl":
            row: Dict[str, Any] = {"query_id": qid, "measure": str(measure), "value": value}
            if not args.by_query:
                del row["query_id"]
            out.write(json.dumps(row) + "\n")
        elif args.by_query:
            out.write(f"{qid}\t{measure}\t{_fmt(value, args.places)}\n")
        else:
            out.write(f"{measure}\t{_fmt(value, args.places)}\n")

    aggs = {m: m.aggregator() for m in measures}
    for metric in results:
        if args.by_query:
            emit(metric.query_id, metric.measure, metric.value)
        aggs[metric.measure].add(metric.value)
    if not args.no_summary:
        for m in measures:
            emit(SUMMARY_QID, m, aggs[m].result())


def _write_trec(
    args: argparse.Namespace,
    measures: Sequence[Any],
    results: Iterable[Any],
    fixes: Dict[Tuple[Any, str], float],
    out: Any,
) -> None:
    """trec_eval's format: per-query lines (-q) by query id then measure, then the 'all' rows."""
    from ._trec_format import format_line, format_value, trec_names

    places = DEFAULT_PLACES if args.places == -1 else args.places
    names = trec_names(measures)
    per_query: Dict[str, Dict[Any, float]] = {}
    for metric in results:
        value = fixes.get((metric.measure, metric.query_id), metric.value)
        per_query.setdefault(metric.query_id, {})[metric.measure] = value
    if args.by_query:
        for qid in sorted(per_query):
            row = per_query[qid]
            for m in measures:
                # trec_eval prints num_q in the summary only
                if m in row and getattr(m, "NAME", None) != "NumQ":
                    out.write(format_line(names[m], qid, format_value(m, row[m], places)) + "\n")
    if not args.no_summary:
        for m in measures:
            agg = m.aggregator()
            for row in per_query.values():
                if m in row:
                    agg.add(row[m])
            out.write(format_line(names[m], SUMMARY_QID, format_value(m, agg.result(), places)) + "\n")


# --------------------------------------------------------------------------------------------
# entry point
# --------------------------------------------------------------------------------------------


def _show_warning(
    message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Optional[str] = None
) -> None:
    sys.stderr.write(f"{PROG}: warning: {message}\n")


def run_cli(argv: Sequence[str], out: Any = None) -> int:
    """Evaluate (no subcommand); returns the exit status."""
    from ._inputs import InputError
    from .readers import read_qrels, read_run

    out = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.trec_format:
        if args.output_format not in ("tsv", "trec"):
            parser.error(f"--format trec cannot be combined with -o {args.output_format}")
        args.output_format = "trec"
    if args.no_summary and not args.by_query:
        parser.error("--no_summary (-n) only supported with --by_query (-q)")
    if args.qrels == "-" and args.run == "-":
        parser.error("only one of QRELS and RUN can be read from standard input ('-')")
    try:
        measures = parse_measures(args.measures)
    except UsageError as error:
        sys.stderr.write(f"{PROG}: error parsing measures\n{error}\n")
        return 2
    try:
        # document ids as bytes arrays (no str per run line: our provider joins the run with the
        # qrels by hashing the bytes, and indexes the qrels' bytes as read)
        qrels = read_qrels(args.qrels, doc_ids="bytes")
        run = read_run(args.run, doc_ids="bytes")
        results = evaluate(measures, qrels, run, args.provider)
        if args.output_format == "trec":
            fixes = _trec_corrections(measures, qrels, run)
            _write_trec(args, measures, results, fixes, out)
        else:
            _write_ir_measures(args, measures, results, out)
    except (InputError, OSError, ValueError) as error:
        if isinstance(error, BrokenPipeError):
            raise
        detail = (
            f"{error.filename}: {error.strerror}"
            if isinstance(error, OSError) and error.filename
            else str(error)
        )
        sys.stderr.write(f"{PROG}: error: {detail}\n")
        return 1
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Console-script entry point (``ir_measures_pres = "ir_measures_pres.cli:main"``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        from .meta.cli import main as meta_main

        return meta_main(argv)
    import ir_measures_pres  # noqa: F401  (registers the measures and the provider)

    previous = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        return run_cli(argv)
    except BrokenPipeError:
        sys.stderr.write("BrokenPipe\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("KeyboardInterrupt\n")
        return 130
    finally:
        warnings.showwarning = previous


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
