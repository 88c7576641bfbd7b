"""trec_eval 10.0's per-query values of one results file, before they are printed: every
selected measure computed on the run's lists (:mod:`.lists`), one column per printed name, in
the table's order, the queries in trec_eval's order (:class:`Tally`). Also the values trec_eval
resets after scoring a query on ``-c``'s bogus ranking and its summary of ``num_rel`` under
``-c`` (:func:`complete_num_rel`). :mod:`ir_measures_pres.printers.trec_eval` prints a tally.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence

import numpy as np

from .lists import ToolLists, trec_order
from .table import NUM_Q, RUNID, STRING, Selected

__all__ = [
    "BOGUS_RESET",
    "BOGUS_RESET_PREFIX",
    "Column",
    "Tally",
    "complete_num_rel",
    "joined",
    "only",
    "tally",
]


@dataclass
class Column:
    """One printed name's per-query values: numbers (``values``) or texts (``relstring``), with how
    the summary makes them one (``kind``: the table's summary) and whether they print as counts."""

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


def _reset_bogus(columns: List["Column"], bogus: Optional[np.ndarray]) -> None:
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


def _columns(lists: ToolLists, selected: Sequence[Selected], num_docs: int) -> List[Column]:
    out = []
    for s in selected:
        m = s.measure
        names = s.value_names()
        if m.summary in (RUNID, NUM_Q):
            out.append(Column(names[0], m.summary, m.integer))
            continue
        result = m.compute(lists, s.values, num_docs)
        if m.summary == STRING:
            out.append(Column(names[0], STRING, False, texts=result))
            continue
        n = lists.num_queries  # none: a block of queries that the qrels all lack
        matrix = np.asarray(result, dtype=np.float64).reshape(n, -1 if n else len(names))
        for j, name in enumerate(names):
            out.append(Column(name, m.summary, m.integer, values=matrix[:, j].copy()))
    _reset_bogus(out, getattr(lists, "bogus", None))
    return out


@dataclass
class Tally:
    """The per-query values of one results file (or of a block of its queries), before they are
    printed: the queries in trec_eval's order and one :class:`Column` per printed name."""

    query_ids: List[str]
    columns: List[Column]


def tally(lists: ToolLists, selected: Sequence[Selected], num_docs: int = 0) -> Tally:
    """The measures' per-query values on ``lists``."""
    return Tally(list(lists.query_ids), _columns(lists, selected, num_docs))


def joined(parts: Sequence[Tally]) -> Tally:
    """The tallies of blocks of one file's queries as one, in trec_eval's query order (``strcmp``
    of the ids): what :func:`tally` gives on the lists of the whole file."""
    columns = []
    for k, first in enumerate(parts[0].columns):
        col = Column(first.name, first.kind, first.integer)
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
        c = Column(col.name, col.kind, col.integer)
        if col.values is not None:
            c.values = col.values[taken]
        if col.texts is not None:
            c.texts = [col.texts[i] for i in rows]
        columns.append(c)
    return Tally([part.query_ids[i] for i in rows], columns)


def complete_num_rel(labels: np.ndarray) -> int:
    """trec_eval's summary of ``num_rel`` under ``-c``: the qrels lines (``-R qrels_jg``: of every
    judgement group) whose level is above 0, over every qrels query."""
    return int(np.count_nonzero(np.asarray(labels) > 0))
