"""The lines trec_eval 10.0 prints for one results file, byte for byte.

Per query (``-q``), in trec_eval's query order, every measure in the table's order; then the
summary (unless ``-n``): ``printf("%-22s\\t%s\\t%6.4f\\n")`` for values, ``%ld`` for counts,
``'%s'`` for ``relstring`` (per query only), the run id as text. The summary of a count is the
sum over queries, of ``gm_*`` the geometric mean (the per-query value is already
``log(max(v, 0.00001))``), of the rest the mean; sums run in query order, as the C program's.

``-Z``: every per-query value becomes (value - mean) / sd with the query's and measure's mean and
sd from the z-score file (sd 0: 0 when the value equals the mean), -1000000 when the file lacks
them; the names get a ``Z`` prefix, every value prints as ``%6.4f``, and the summary is made of
the z-scores the same way (so ``Znum_ret`` is their sum, ``Zgm_map`` the exponential of their
mean, ``Znum_q`` the query count).

The values come in as a :class:`~ir_measures_pres.measures.trec_eval.tally.Tally` (the measures'
per-query values, computed by :mod:`ir_measures_pres.measures.trec_eval`); :func:`lines` is the
printers' interface (:mod:`ir_measures_pres.printers`). The main command's ``--format trec``
writes its lines with the same line format (:func:`format_line`, :func:`format_value`).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..data.arrays import sum_in_order
from ..measures.trec_eval.table import GEOMETRIC, NUM_Q, RUNID, STRING, SUM
from ..measures.trec_eval.tally import Column, Tally

__all__ = ["MISSING_ZSCORE", "ZScores", "c_float", "format_line", "format_value", "lines"]

#: trec_eval's value for a z-score the file cannot give (MISSING_ZSCORE_VALUE)
MISSING_ZSCORE = -1000000.0

ZScores = Dict[str, Dict[str, Tuple[float, float]]]


def _to_z(columns: List[Column], query_ids: Sequence[str], zscores: ZScores) -> None:
    for col in columns:
        if col.values is None:
            continue
        for i, qid in enumerate(query_ids):
            entry = zscores.get(qid, {}).get(col.name)
            value = float(col.values[i])
            if entry is None:
                col.values[i] = MISSING_ZSCORE
            elif entry[1]:
                col.values[i] = (value - entry[0]) / entry[1]
            else:
                col.values[i] = 0.0 if value == entry[0] else MISSING_ZSCORE


def c_float(value: float) -> str:
    """``printf("%6.4f", value)`` as glibc prints it: a NaN as ``-nan`` (the NaN of 0 / 0 and of
    a log of a negative number on x86 has its sign bit set, and every NaN trec_eval prints comes
    from those), infinities as ``inf`` / ``-inf``."""
    if value != value:
        return "  -nan"
    if value in (np.inf, -np.inf):
        return f"{'-' if value < 0 else ''}inf".rjust(6)
    return f"{value:6.4f}"


#: measures whose values trec_eval prints as integers (``%ld``), for the main command's
#: ``--format trec`` (the ``trec_eval`` command's table says it per name)
INTEGER_MEASURES = frozenset({"NumRet", "NumRel", "NumQ", "NumNonRelJudgedRet"})


def format_value(measure: Any, value: float, places: int = 4) -> str:
    """A value as trec_eval prints it: ``%6.4f`` (``places`` decimals), counts as integers."""
    if getattr(measure, "NAME", None) in INTEGER_MEASURES:
        return str(int(round(value)))
    return f"{value:6.{places}f}"


def format_line(name: str, qid: str, value_text: str) -> str:
    """One output line, ``%-22s\\t%s\\t<value>`` as trec_eval prints it (without its newline)."""
    return f"{name:<22}\t{qid}\t{value_text}"


def _line(name: str, qid: str, text: str) -> str:
    return format_line(name, qid, text) + "\n"


def lines(
    values: Tally,
    run_tag: str,
    per_query: bool = False,
    summary: bool = True,
    zscores: Optional[ZScores] = None,
    num_rel_all: Optional[int] = None,
) -> str:
    """What trec_eval prints for one results file's tally (``run_tag``: its run id; ``per_query``:
    ``-q``; ``summary``: not ``-n``; ``zscores``: ``-Z``'s file).

    ``num_rel_all``: under ``-c``, trec_eval's summary of ``num_rel`` is not the sum of the
    printed values but the judgements of level > 0 over every qrels query, whatever ``-l``
    (m_num_rel.c's ``te_calc_avg_num_rel``, which also replaces the sum of its z-scores under
    ``-Z``): :func:`~ir_measures_pres.measures.trec_eval.tally.complete_num_rel` gives it."""
    return "".join(_lines(values, run_tag, per_query, summary, zscores, num_rel_all))


def _texts(values: Any, decimals: bool) -> List[str]:
    """``"\t<value>\n"`` for each value: ``%6.4f`` (:func:`c_float`) or, for a count, ``%ld``."""
    values = np.asarray(values, dtype=np.float64)
    if not decimals:
        return [f"\t{int(v)}\n" for v in values.tolist()]
    if np.isfinite(values).all():  # the usual case: Python's formatting is printf's
        return [f"\t{v:6.4f}\n" for v in values.tolist()]
    return [f"\t{c_float(v)}\n" for v in values.tolist()]


def _lines(
    values: Tally,
    run_tag: str,
    per_query: bool,
    summary: bool,
    zscores: Optional[ZScores],
    num_rel_all: Optional[int],
) -> Iterator[str]:
    columns = values.columns
    z = zscores is not None
    if zscores is not None:
        _to_z(columns, values.query_ids, zscores)

    def numeric(col: Column, value: float) -> str:
        if z or not col.integer:
            return c_float(value)
        return str(int(value))

    def label(col: Column) -> str:
        return "Z" + f"{col.name:<22}" if z else col.name

    if per_query:
        # each column's texts made at once, then the lines query by query (trec_eval's order)
        shown = []
        for col in columns:
            if col.kind == STRING and col.texts is not None:
                shown.append((f"{col.name:<22}\t", [f"\t'{text}'\n" for text in col.texts]))
            elif col.values is not None and col.kind != GEOMETRIC:
                shown.append((f"{label(col):<22}\t", _texts(col.values, z or not col.integer)))
        for i, qid in enumerate(values.query_ids):
            for head, texts in shown:
                yield head + qid + texts[i]
    if not summary:
        return
    n = len(values.query_ids)
    for col in columns:
        if col.kind == RUNID:
            yield _line(col.name, "all", run_tag)
        elif col.kind == NUM_Q:
            yield _line(label(col), "all", numeric(col, float(n)))
        elif col.values is not None:
            total = sum_in_order(col.values)  # added query after query
            if col.name == "num_rel" and num_rel_all is not None:
                value = float(num_rel_all)
            elif col.kind == SUM:
                value = total
            elif col.kind == GEOMETRIC:
                value = float(np.exp(total / n)) if n else 0.0
            else:
                value = total / n if n else 0.0
            yield _line(label(col), "all", numeric(col, value))
