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

Self-contained (the measures come from :mod:`ir_measures_pres.measures.trec_eval`), so that the
printers of the tool replicas can live together later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..data.arrays import sum_in_order
from ..measures.trec_eval.lists import ToolLists, trec_order
from ..measures.trec_eval.table import GEOMETRIC, NUM_Q, RUNID, STRING, SUM, Selected

#: trec_eval's value for a z-score the file cannot give (MISSING_ZSCORE_VALUE)
MISSING_ZSCORE = -1000000.0

ZScores = Dict[str, Dict[str, Tuple[float, float]]]


@dataclass
class _Column:
    name: str
    kind: str
    integer: bool
    values: Optional[np.ndarray] = None  # one per query (numbers)
    texts: Optional[Sequence[str]] = None  # relstring


#: the value names whose value trec_eval 10 resets after scoring a query on ``-c``'s bogus ranking
#: (compared whole, as its ``strcmp`` does: ``utility_2,-1,0,0`` or ``rbp_resid_p=0.5`` keep the
#: bogus ranking's value), and the prefix it compares with ``strncmp(name, "unj", 3)``
BOGUS_RESET = ("num_ret", "utility", "relstring", "rbp_resid")
BOGUS_RESET_PREFIX = "unj"


def _reset_bogus(columns: List["_Column"], bogus: Optional[np.ndarray]) -> None:
    """trec_eval 10's "clean up leftovers" of a query scored on the bogus ranking (its
    trec_eval.c): these values become 0, ``relstring`` the empty string."""
    if bogus is None or not bogus.any():
        return
    rows = np.flatnonzero(bogus).tolist()
    for col in columns:
        if not (col.name in BOGUS_RESET or col.name.startswith(BOGUS_RESET_PREFIX)):
            continue
        if col.values is not None:
            col.values[rows] = 0.0
        if col.texts is not None:
            reset = set(rows)
            col.texts = ["" if i in reset else t for i, t in enumerate(col.texts)]


def _columns(lists: ToolLists, selected: Sequence[Selected], num_docs: int) -> List[_Column]:
    out = []
    for s in selected:
        m = s.measure
        names = s.value_names()
        if m.summary in (RUNID, NUM_Q):
            out.append(_Column(names[0], m.summary, m.integer))
            continue
        result = m.compute(lists, s.values, num_docs)
        if m.summary == STRING:
            out.append(_Column(names[0], STRING, False, texts=result))
            continue
        n = lists.num_queries  # none: a block of queries that the qrels all lack
        matrix = np.asarray(result, dtype=np.float64).reshape(n, -1 if n else len(names))
        for j, name in enumerate(names):
            out.append(_Column(name, m.summary, m.integer, values=matrix[:, j].copy()))
    _reset_bogus(out, getattr(lists, "bogus", None))
    return out


def _to_z(columns: List[_Column], query_ids: Sequence[str], zscores: ZScores) -> None:
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


def _line(name: str, qid: str, text: str) -> str:
    return f"{name:<22}\t{qid}\t{text}\n"


@dataclass
class Tally:
    """The per-query values of one results file (or of a block of its queries), before they are
    printed: the queries in trec_eval's order and one :class:`_Column` per printed name."""

    query_ids: List[str]
    columns: List[_Column]


def tally(lists: ToolLists, selected: Sequence[Selected], num_docs: int = 0) -> Tally:
    """The measures' per-query values on ``lists``."""
    return Tally(list(lists.query_ids), _columns(lists, selected, num_docs))


def joined(parts: Sequence[Tally]) -> Tally:
    """The tallies of blocks of one file's queries as one, in trec_eval's query order (``strcmp``
    of the ids): what :func:`tally` gives on the lists of the whole file."""
    columns = []
    for k, first in enumerate(parts[0].columns):
        col = _Column(first.name, first.kind, first.integer)
        if first.values is not None:
            col.values = np.concatenate([part.columns[k].values for part in parts])  # type: ignore[misc]
        if first.texts is not None:
            col.texts = [t for part in parts for t in part.columns[k].texts]  # type: ignore[union-attr]
        columns.append(col)
    whole = Tally([q for part in parts for q in part.query_ids], columns)
    return _rows(whole, trec_order(whole.query_ids))


def only(part: Tally, keep: Sequence[str]) -> Tally:
    """``part`` restricted to the queries ``keep`` (in ``part``'s order)."""
    wanted = set(keep)
    return _rows(part, [i for i, q in enumerate(part.query_ids) if q in wanted])


def _rows(part: Tally, rows: List[int]) -> Tally:
    """The queries ``rows`` of ``part`` (positions), in that order."""
    taken = np.array(rows, dtype=np.int64)
    columns = []
    for col in part.columns:
        c = _Column(col.name, col.kind, col.integer)
        if col.values is not None:
            c.values = col.values[taken]
        if col.texts is not None:
            c.texts = [col.texts[i] for i in rows]
        columns.append(c)
    return Tally([part.query_ids[i] for i in rows], columns)


def tally_lines(
    values: Tally,
    run_tag: str,
    per_query: bool = False,
    summary: bool = True,
    zscores: Optional[ZScores] = None,
    num_rel_all: Optional[int] = None,
) -> Iterator[str]:
    """The lines (each ending in a newline) trec_eval prints for one results file's tally.

    ``num_rel_all``: under ``-c``, trec_eval's summary of ``num_rel`` is not the sum of the
    printed values but the judgements of level > 0 over every qrels query, whatever ``-l``
    (m_num_rel.c's ``te_calc_avg_num_rel``, which also replaces the sum of its z-scores under
    ``-Z``): :func:`complete_num_rel` gives it."""
    columns = values.columns
    z = zscores is not None
    if zscores is not None:
        _to_z(columns, values.query_ids, zscores)

    def numeric(col: _Column, value: float) -> str:
        if z or not col.integer:
            return c_float(value)
        return str(int(value))

    def label(col: _Column) -> str:
        return "Z" + f"{col.name:<22}" if z else col.name

    if per_query:
        for i, qid in enumerate(values.query_ids):
            for col in columns:
                if col.kind == STRING and col.texts is not None:
                    yield _line(col.name, qid, f"'{col.texts[i]}'")
                elif col.values is not None and col.kind != GEOMETRIC:
                    yield _line(label(col), qid, numeric(col, float(col.values[i])))
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


def complete_num_rel(labels: np.ndarray) -> int:
    """trec_eval's summary of ``num_rel`` under ``-c``: the qrels lines (``-R qrels_jg``: of every
    judgement group) whose level is above 0, over every qrels query."""
    return int(np.count_nonzero(np.asarray(labels) > 0))
