"""The main command's rows (:mod:`.evaluate`): the stock ir_measures CLI's tsv and jsonl (with
``--ci``'s cells, :mod:`._intervals`), trec_eval's lines with its ``-c`` corrections, and the
rows of ``--bounds`` (:mod:`._bounds`). Rows come in a fixed order: per-query rows (``-q``) in
the qrels' query order, each query's measures in the order given, then the 'all' rows."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ._intervals import ci_cells, ci_tsv

DEFAULT_PLACES = 4
SUMMARY_QID = "all"


# --------------------------------------------------------------------------------------------
# trec_eval -c
# --------------------------------------------------------------------------------------------


def missing_topics(qrels: Any, run: Any) -> List[str]:
    """The qrels topics ``run`` lacks (they score the measure's DEFAULT), in qrels order."""
    from ..data.inputs import query_set

    in_run = query_set(run)
    qrels_qids = getattr(qrels, "query_names", None) or list(dict.fromkeys(qrels.query_ids.tolist()))
    return [q for q in qrels_qids if q not in in_run]


def trec_corrections(measures: Sequence[Any], qrels: Any, run: Any) -> Dict[Tuple[Any, str], float]:
    """trec_eval -c values of num_q and num_rel for qrels queries the run lacks (ir_measures
    gives those the DEFAULT 0; trec_eval -c counts the query and its relevant documents)."""

    wanted = [m for m in measures if getattr(m, "NAME", None) in ("NumQ", "NumRel")]
    if not wanted:
        return {}
    missing = missing_topics(qrels, run)
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


def fmt(value: float, places: int) -> str:
    return f"{value:{'' if places == -1 else f'.{places}f'}}"


def write_ir_measures(
    args: argparse.Namespace,
    measures: Sequence[Any],
    results: Iterable[Any],
    query_order: Sequence[str],
    out: Any,
    run: Optional[str] = None,
    means: Optional[Dict[Any, float]] = None,
    intervals: Optional[Dict[Any, Any]] = None,
) -> None:
    """The stock ir_measures CLI's output (tsv or jsonl), rows in a fixed order: per-query rows
    (-q) query by query in ``query_order`` (the qrels'), each query's measures in the order
    given; then the 'all' rows in that order. The stock CLI prints per-query rows as providers
    yield them, in an order that follows the hash seed. ``run`` (several runs): a first column
    (tsv) or a ``"run"`` field (jsonl) naming the run. ``intervals`` (``--ci``): per measure
    its :class:`~ir_measures_pres.stats.intervals.Interval` or None, written by :mod:`._intervals`."""
    if args.output_format == "jsonl" and args.places != DEFAULT_PLACES:
        sys.stderr.write("--places is ignored when using --output jsonl\n")

    prefix = "" if run is None else f"{run}\t"

    def emit(qid: str, measure: Any, value: float, summary: bool = False) -> None:
        if args.output_format == "jsonl":
            # an undefined value (K ∩ R empty for Coverage ...) is JSON's null: NaN is not JSON
            shown = None if value != value else value
            row: Dict[str, Any] = {"query_id": qid, "measure": str(measure), "value": shown}
            if not args.by_query:
                del row["query_id"]
            if run is not None:
                row = {"run": run, **row}
            if intervals is not None and summary:
                row.update(ci_cells(intervals.get(measure)))
            out.write(json.dumps(row) + "\n")
        else:
            shown = intervals.get(measure) if intervals is not None and summary else None
            cells = "" if intervals is None else ci_tsv(shown, lambda v: fmt(v, args.places))
            if args.by_query:
                out.write(f"{prefix}{qid}\t{measure}\t{fmt(value, args.places)}{cells}\n")
            else:
                out.write(f"{prefix}{measure}\t{fmt(value, args.places)}{cells}\n")

    aggs = {m: m.aggregator() for m in measures}
    # a Measure hashes its repr: found by the object's id first (the same objects come back)
    agg_of = {id(m): aggs[m] for m in measures}
    by_query: Dict[str, Dict[Any, float]] = {}
    if means is not None and not args.by_query:  # the aggregates made already (a run's table)
        if not args.no_summary:
            for m in measures:
                emit(SUMMARY_QID, m, means[m], summary=True)
        return
    for metric in results:
        # values reach each aggregator in the order the provider yields them, as in the stock
        # CLI, so that even the last digit of a mean (-p -1) is the same
        agg = agg_of.get(id(metric.measure))
        (aggs[metric.measure] if agg is None else agg).add(metric.value)
        if args.by_query:
            by_query.setdefault(metric.query_id, {})[metric.measure] = metric.value
    for qid in in_order(by_query, query_order):
        row = by_query[qid]
        for m in measures:
            if m in row:
                emit(qid, m, row[m])
    if not args.no_summary:
        for m in measures:
            emit(SUMMARY_QID, m, aggs[m].result(), summary=True)


def in_order(query_ids: Iterable[str], query_order: Sequence[str]) -> List[str]:
    """``query_ids`` in ``query_order``, any others after it sorted."""
    present = set(query_ids)
    known = set(query_order)
    return [q for q in query_order if q in present] + sorted(present - known)


def write_trec(
    args: argparse.Namespace,
    measures: Sequence[Any],
    results: Iterable[Any],
    fixes: Dict[Tuple[Any, str], float],
    out: Any,
    tag: Optional[str] = None,
) -> None:
    """trec_eval's format: per-query lines (-q) by query id then measure, then the 'all' rows.
    ``tag`` (several runs): each run's block opens with trec_eval's ``runid all TAG`` line."""
    from ..measures.catalogue import trec_names
    from ._trec_format import format_line, format_value

    places = DEFAULT_PLACES if args.places == -1 else args.places
    names = trec_names(measures)
    per_query: Dict[str, Dict[Any, float]] = {}
    for metric in results:
        value = fixes.get((metric.measure, metric.query_id), metric.value)
        per_query.setdefault(metric.query_id, {})[metric.measure] = value
    if tag is not None:
        out.write(format_line("runid", SUMMARY_QID, tag) + "\n")
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
            for qid in sorted(per_query):  # a fixed order, whatever order the providers yield
                if m in per_query[qid]:
                    agg.add(per_query[qid][m])
            out.write(format_line(names[m], SUMMARY_QID, format_value(m, agg.result(), places)) + "\n")


def write_with_bounds(
    args: argparse.Namespace,
    measures: Sequence[Any],
    results: Iterable[Any],
    query_order: Sequence[str],
    out: Any,
    run: Optional[str] = None,
    means: Optional[Dict[Any, float]] = None,
    intervals: Optional[Dict[Any, Any]] = None,
) -> None:
    """:func:`write_ir_measures`' rows with each measure's bounds: tsv ``[run] [query] measure
    value [ci_low ci_high] lo hi exact`` (``exact`` is ``true`` or ``false``; a measure printed
    without bounds, ``unj@10``, leaves the three empty; ``--ci``'s two cells as
    :func:`write_ir_measures` writes them), jsonl the keys ``lo``, ``hi``, ``exact`` (and for RBP
    ``residual``, Moffat and Zobel's, which tsv leaves out). The 'all' rows
    carry the means of the per-query bounds over every qrels query (DEFAULT where the run has
    none, as the mean itself) and ``exact`` when every query's bounds are exact."""
    from ..engine.bounds_table import BoundOf

    if args.output_format == "jsonl" and args.places != DEFAULT_PLACES:
        sys.stderr.write("--places is ignored when using --output jsonl\n")
    sides = ("lo", "hi", "exact", "residual")
    prefix = "" if run is None else f"{run}\t"

    def emit(qid: str, measure: Any, cells: Dict[str, float], summary: bool = False) -> None:
        value = cells["value"]
        has = "lo" in cells
        interval = intervals.get(measure) if intervals is not None and summary else None
        if args.output_format == "jsonl":
            row: Dict[str, Any] = {
                "query_id": qid,
                "measure": str(measure),
                "value": None if value != value else value,
            }
            if intervals is not None and summary:
                row.update(ci_cells(interval))
            if has:
                row.update(lo=cells["lo"], hi=cells["hi"], exact=cells["exact"] == 1.0)
            if "residual" in cells:  # RBP: Moffat and Zobel's residual, hi - lo + p^depth
                row["residual"] = cells["residual"]
            if not args.by_query:
                del row["query_id"]
            if run is not None:
                row = {"run": run, **row}
            out.write(json.dumps(row) + "\n")
            return
        shown = [fmt(value, args.places)]
        if intervals is not None:
            shown += ci_tsv(interval, lambda v: fmt(v, args.places))[1:].split("\t")
        if has:
            exact = "true" if cells["exact"] == 1.0 else "false"
            shown += [fmt(cells["lo"], args.places), fmt(cells["hi"], args.places), exact]
        else:
            shown += ["", "", ""]
        head = f"{prefix}{qid}\t" if args.by_query else prefix
        out.write(f"{head}{measure}\t" + "\t".join(shown) + "\n")

    def cells_of(row: Dict[Any, float], m: Any) -> Dict[str, float]:
        cells = {"value": row[m]}
        for side in sides:
            key = BoundOf(m, side)
            if key in row:
                cells[side] = row[key]
        return cells

    if means is None or args.by_query:
        aggs: Dict[Any, Any] = {}
        by_query: Dict[str, Dict[Any, float]] = {}
        for metric in results:
            agg = aggs.get(metric.measure)
            if agg is None:
                agg = aggs[metric.measure] = metric.measure.aggregator()
            agg.add(metric.value)
            if args.by_query:
                by_query.setdefault(metric.query_id, {})[metric.measure] = metric.value
        means = {k: agg.result() for k, agg in aggs.items()}
        for qid in in_order(by_query, query_order):
            row = by_query[qid]
            for m in measures:
                if m in row:
                    emit(qid, m, cells_of(row, m))
    if not args.no_summary:
        for m in measures:
            emit(SUMMARY_QID, m, cells_of(means, m), summary=True)
