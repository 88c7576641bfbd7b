"""The main command's rows (:mod:`.evaluate`): the stock ir_measures CLI's tsv and jsonl (with
``--ci``'s cells, :mod:`._intervals`, and ``--bounds``' columns, :mod:`._bounds`), and trec_eval's
lines with its ``-c`` corrections. Rows come in a fixed order: per-query rows (``-q``) in
the qrels' query order, each query's measures in the order given, then the 'all' rows."""

from __future__ import annotations

import argparse
import json
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


def ignored_options(args: argparse.Namespace) -> List[str]:
    """Notices of options the output ignores (given once by the command, not by each run):
    ``--places`` with jsonl, whose numbers keep every digit."""
    if args.output_format == "jsonl" and args.places != DEFAULT_PLACES:
        return ["--places is ignored with --format jsonl (its numbers keep every digit)"]
    return []


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
    bounds: bool = False,
) -> None:
    """The stock ir_measures CLI's output (tsv or jsonl), rows in a fixed order: per-query rows
    (-q) query by query in ``query_order`` (the qrels'), each query's measures in the order
    given; then the 'all' rows in that order. The stock CLI prints per-query rows as providers
    yield them, in an order that follows the hash seed. ``run`` (several runs): a first column
    (tsv) or a ``"run"`` field (jsonl) naming the run. ``intervals`` (``--ci``): per measure
    its :class:`~ir_measures_pres.stats.intervals.Interval` or None, written by :mod:`._intervals`.

    ``bounds`` (``--bounds``): ``results`` and ``means`` also hold each bounded measure's
    :class:`~ir_measures_pres.engine.bounds_table.BoundOf` columns, written after the value and
    ``--ci``'s cells: tsv ``lo hi exact`` (``exact`` is ``true`` or ``false``; a measure printed
    without bounds, ``unj@10``, leaves the three empty), jsonl the keys ``lo``, ``hi``, ``exact``
    (and for RBP ``residual``, Moffat and Zobel's, which tsv leaves out). The 'all' rows carry
    the means of the per-query bounds over every qrels query (DEFAULT where the run has none, as
    the mean itself) and ``exact`` when every query's bounds are exact."""
    if bounds:
        from ..engine.bounds_table import BoundOf

    prefix = "" if run is None else f"{run}\t"

    def emit(qid: str, measure: Any, row: Dict[Any, float], summary: bool = False) -> None:
        value = row[measure]
        interval = intervals.get(measure) if intervals is not None and summary else None
        sides: Dict[str, float] = {}
        if bounds:
            for side in ("lo", "hi", "exact", "residual"):
                key = BoundOf(measure, side)
                if key in row:
                    sides[side] = row[key]
        if args.output_format == "jsonl":
            # an undefined value (K ∩ R empty for Coverage ...) is JSON's null: NaN is not JSON
            shown = None if value != value else value
            record: Dict[str, Any] = {"query_id": qid, "measure": str(measure), "value": shown}
            if not args.by_query:
                del record["query_id"]
            if run is not None:
                record = {"run": run, **record}
            if intervals is not None and summary:
                record.update(ci_cells(interval))
            if "lo" in sides:
                record.update(lo=sides["lo"], hi=sides["hi"], exact=sides["exact"] == 1.0)
            if "residual" in sides:  # RBP: Moffat and Zobel's residual, hi - lo + p^depth
                record["residual"] = sides["residual"]
            out.write(json.dumps(record) + "\n")
            return
        cells = "" if intervals is None else ci_tsv(interval, lambda v: fmt(v, args.places))
        if "lo" in sides:
            exact = "true" if sides["exact"] == 1.0 else "false"
            cells += f"\t{fmt(sides['lo'], args.places)}\t{fmt(sides['hi'], args.places)}\t{exact}"
        elif bounds:
            cells += "\t\t\t"
        head = f"{prefix}{qid}\t" if args.by_query else prefix
        out.write(f"{head}{measure}\t{fmt(value, args.places)}{cells}\n")

    if means is None or args.by_query:
        aggs = {m: m.aggregator() for m in measures}
        # a Measure hashes its repr: found by the object's id first (the same objects come back)
        agg_of = {id(m): aggs[m] for m in measures}
        by_query: Dict[str, Dict[Any, float]] = {}
        for metric in results:
            # values reach each aggregator in the order the provider yields them, as in the stock
            # CLI, so that even the last digit of a mean (-p -1) is the same
            agg = agg_of.get(id(metric.measure))
            if agg is None:
                agg = aggs.get(metric.measure)
                if agg is None:  # a bounds column (--bounds)
                    agg = aggs[metric.measure] = metric.measure.aggregator()
            agg.add(metric.value)
            if args.by_query:
                by_query.setdefault(metric.query_id, {})[metric.measure] = metric.value
        means = {m: agg.result() for m, agg in aggs.items()}
        for qid in in_order(by_query, query_order):
            row = by_query[qid]
            for m in measures:
                if m in row:
                    emit(qid, m, row)
    if not args.no_summary:
        for m in measures:
            emit(SUMMARY_QID, m, means, summary=True)


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
    from ..measures.summary import is_geometric
    from ..printers.trec_eval import format_line, format_value

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
                # trec_eval prints num_q, gm_map and gm_bpref in the summary only
                if m in row and getattr(m, "NAME", None) != "NumQ" and not is_geometric(m):
                    out.write(format_line(names[m], qid, format_value(m, row[m], places)) + "\n")
    if not args.no_summary:
        for m in measures:
            agg = m.aggregator()
            for qid in sorted(per_query):  # a fixed order, whatever order the providers yield
                if m in per_query[qid]:
                    agg.add(per_query[qid][m])
            out.write(format_line(names[m], SUMMARY_QID, format_value(m, agg.result(), places)) + "\n")
