"""trec_eval 10.0's ranked relevance lists (its ``form_res_rels``), built once per run.

For every evaluated query, in trec_eval's order (query ids compared as byte strings), the list of
relevance values of the retrieved documents, best first, as trec_eval ranks them: score read as
a double, descending, ties by document id descending (byte order). A value is

* the qrels level (``>= 0``) of a judged document,
* :data:`NONPOOL` (-1) for a document the qrels do not mention,
* :data:`UNJUDGED` (-2) for one the qrels list with a negative value (in the pool, not judged).

``-M N`` keeps the top N of the sorted list, then ``-J`` drops the documents that are not judged
(in that order, as the C code does). Beside the lists, per query, the qrels' count of judged
documents at each level (``rel_levels``), from which ``num_rel`` (levels ``>= -l``) and the ideal
rankings of the gain measures come.

Evaluated queries: those of the run that the qrels have; with ``-c`` every qrels query, a query
the run lacks scored as trec_eval 10 scores it, on a bogus ranking of one document
(:data:`BOGUS_DOCNO`, score 1; ``-M 0`` and ``-J`` drop it as they drop any document), some of
its values being reset afterwards by the printer (:mod:`ir_measures_pres.printers.trec_eval`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import numpy as np

from ...data.arrays import offsets_from_counts, segment_ids, sums_in_order
from ...data.qrels import ABSENT, Qrels
from ...data.ranking import JudgedList, RankedRun, rank_run
from ...data.topics import RankedLists

__all__ = [
    "BOGUS_DOCNO",
    "NONPOOL",
    "UNJUDGED",
    "ToolLists",
    "build_lists",
    "lists_of_ranked",
    "reorder_segments",
    "trec_order",
]

#: trec_eval's RELVALUE_NONPOOL and RELVALUE_UNJUDGED
NONPOOL, UNJUDGED = -1, -2
#: the document of trec_eval 10's ranking for a qrels query the run lacks under ``-c`` (score 1)
BOGUS_DOCNO = "ceci_nest_pas_un_docno"


def trec_order(query_ids: List[str]) -> List[int]:
    """Indices of ``query_ids`` in trec_eval's order: ``strcmp``, the ids' bytes."""
    return sorted(range(len(query_ids)), key=lambda i: query_ids[i].encode("utf-8", "surrogateescape"))


def reorder_segments(offsets: np.ndarray, order: np.ndarray) -> tuple:
    """(positions, new offsets) that lay the segments of ``offsets`` out in ``order`` (indices of
    segments; -1 for an empty segment)."""
    order = np.asarray(order, dtype=np.int64)
    present = order >= 0
    lengths = np.zeros(len(order), dtype=np.int64)
    lengths[present] = (offsets[1:] - offsets[:-1])[order[present]]
    new_offsets = offsets_from_counts(lengths)
    starts = np.zeros(len(order), dtype=np.int64)
    starts[present] = offsets[:-1][order[present]]
    positions = np.arange(int(new_offsets[-1]), dtype=np.int64) + np.repeat(
        starts - new_offsets[:-1], lengths
    )
    return positions, new_offsets


@dataclass
class ToolLists(RankedLists):
    """The evaluated queries' ranked relevance lists and judgement counts (module docstring);
    per-query offsets, query index, ranks and memo from :class:`~...data.topics.RankedLists`."""

    query_ids: List[str]
    #: CSR offsets of the lists; ``rel[offsets[i]:offsets[i + 1]]`` is query i's list
    offsets: np.ndarray
    rel: np.ndarray
    #: judged levels of each query's qrels (CSR by ``level_offsets``, levels ascending, counts > 0)
    level_offsets: np.ndarray
    levels: np.ndarray
    level_counts: np.ndarray
    #: ``-l``: the least level that is relevant
    relevance_level: int = 1
    #: per query, True where it is scored on ``-c``'s bogus ranking (None: no such query)
    bogus: Optional[np.ndarray] = None
    #: whether a division the C code leaves unguarded gives its NaN (the trec_eval command, which
    #: prints ``-nan``) rather than 0 (the registered measures, whose surfaces average values)
    c_nan: bool = False

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    @property
    def num_ret(self) -> np.ndarray:
        return self.sizes

    @property
    def is_rel(self) -> np.ndarray:
        return self.rel >= self.relevance_level

    @property
    def cum_rel(self) -> np.ndarray:
        """Relevant documents at or above each position (inclusive count)."""

        def make() -> np.ndarray:
            total = np.cumsum(self.is_rel, dtype=np.int64)
            before = np.concatenate([[0], total])[self.offsets[:-1]]
            return total - before[self.qidx]  # type: ignore[no-any-return]

        return self.cached("cum_rel", make)  # type: ignore[no-any-return]

    @property
    def num_rel_ret(self) -> np.ndarray:
        """Judged documents retrieved at a level ``>= -l`` (form_res_rels' ``num_rel_ret``, which
        counts judged documents only: with ``-l`` <= -1 it is below :attr:`is_rel`'s count, which
        the measures' own loops take, the C code comparing every list value with ``-l``)."""
        return self.count(self.is_rel & (self.rel >= 0))

    @property
    def level_qidx(self) -> np.ndarray:
        return segment_ids(self.level_offsets)

    @property
    def num_rel(self) -> np.ndarray:
        """Judged documents at a level ``>= -l`` (trec_eval's num_rel)."""
        keep = self.levels >= self.relevance_level
        return np.bincount(
            self.level_qidx[keep], weights=self.level_counts[keep], minlength=self.num_queries
        ).astype(np.int64)

    @property
    def num_nonrel(self) -> np.ndarray:
        """Judged documents at a level below ``-l`` (bpref's count of nonrelevant documents)."""
        keep = self.levels < self.relevance_level
        return np.bincount(
            self.level_qidx[keep], weights=self.level_counts[keep], minlength=self.num_queries
        ).astype(np.int64)

    def rel_in_top(self, k: Any) -> np.ndarray:
        """Per query, the relevant documents among the top k (a number or one per query): the
        running count at rank min(k, n), read once per query."""
        return self.at_rank(self.cum_rel, np.broadcast_to(np.asarray(k, dtype=np.int64), (self.num_queries,)))

    def in_top(self, mask: np.ndarray, k: Any) -> np.ndarray:
        """Per query, the positions of rank <= k (a number or one per query) where ``mask`` holds."""
        k_at = k if np.isscalar(k) else np.asarray(k)[self.qidx]
        return self.count(mask & (self.rank <= k_at))

    def sum_in_order(self, mask: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per query, ``values`` (one per position where ``mask`` holds) added in rank order, as
        the C loops add."""
        return sums_in_order(values, self.kept_offsets(mask))

    def judged_list(self, cutoff: Optional[int] = None) -> JudgedList:
        """The judged documents (value >= 0) as :class:`~ir_measures_pres.data.ranking.JudgedList`,
        the input of the kernels of :mod:`ir_measures_pres.measures.trec_eval.judgement_aware`."""
        keep = self.rel >= 0
        lengths = self.num_ret
        if cutoff is not None:
            keep = keep & (self.rank <= cutoff)
            lengths = np.minimum(lengths, cutoff)
        offsets = self.kept_offsets(keep)
        qpos = np.arange(self.num_queries)
        return JudgedList(qpos, lengths, offsets, self.rank[keep], self.rel[keep])

    def top_level(self) -> np.ndarray:
        """Per query, the highest judged level of its qrels (-1: none)."""
        out = np.full(self.num_queries, -1, dtype=np.int64)
        if len(self.levels):
            np.maximum.at(out, self.level_qidx, self.levels)
        return out


def level_counts(qrels: Qrels) -> tuple:
    """Per qrels query, its judged levels ascending and their counts (CSR offsets, levels, counts),
    made once per qrels (each block of a run read in blocks asks for them)."""
    return qrels.cached("tool_level_counts", lambda: _level_counts(qrels))  # type: ignore[no-any-return]


def _level_counts(qrels: Qrels) -> tuple:
    """:func:`level_counts`, made."""
    judged = qrels.labels >= 0
    q = qrels.qidx[judged]
    lv = qrels.labels[judged]
    order = np.lexsort((lv, q))
    q, lv = q[order], lv[order]
    if len(lv):
        new = np.concatenate([[True], (q[1:] != q[:-1]) | (lv[1:] != lv[:-1])])
        starts = np.flatnonzero(new)
        counts = np.diff(np.append(starts, len(lv)))
        q, lv = q[starts], lv[starts]
    else:
        counts = np.zeros(0, dtype=np.int64)
    offsets = offsets_from_counts(np.bincount(q, minlength=len(qrels.query_ids)))
    return offsets, lv.astype(np.int64), counts.astype(np.int64)


def _tool_values(labels: np.ndarray) -> np.ndarray:
    """The package's labels as trec_eval's relevance values: :data:`NONPOOL` for a document the
    qrels lack, :data:`UNJUDGED` for a negative qrels value, else the level."""
    return np.where(labels == ABSENT, NONPOOL, np.where(labels < 0, UNJUDGED, labels)).astype(np.int64)


def lists_of_ranked(ranked: RankedRun, relevance_level: int = 1) -> ToolLists:
    """The lists of a run ranked by the package's one rule (:func:`~...data.ranking.rank_run`:
    float32 scores), in its ranked-query order, for the registered measures of
    :mod:`.measures`: the kernels of :mod:`.kernels` over them, without ``-M``, ``-J`` or ``-c``
    (a qrels query the run lacks gets the measure's DEFAULT from ir_measures). Made once per
    ranked run and level."""

    def make() -> ToolLists:
        qrels = ranked.qrels
        lo, lv, lc = level_counts(qrels)
        level_pos, level_offsets = reorder_segments(lo, np.asarray(ranked.qpos, dtype=np.int64))
        return ToolLists(
            [qrels.query_ids[q] for q in ranked.qpos.tolist()],
            ranked.offsets,
            _tool_values(ranked.labels),
            level_offsets,
            lv[level_pos],
            lc[level_pos],
            relevance_level,
        )

    return ranked.cached(("tool_lists", relevance_level), make)  # type: ignore[no-any-return]


def build_lists(
    qrels: Qrels,
    run: Any,
    relevance_level: int = 1,
    max_docs: Optional[int] = None,
    judged_only: bool = False,
    complete: bool = False,
) -> ToolLists:
    """trec_eval 10.0's lists of ``run`` (columns of a run file) against ``qrels`` (module docstring)."""
    ranked = rank_run(run, qrels, exact_scores=True)
    rel = _tool_values(ranked.labels)
    offsets = ranked.offsets
    if max_docs is not None or judged_only:
        keep = np.ones(len(rel), dtype=bool)
        if max_docs is not None:
            keep &= ranked.rank <= max_docs
        if judged_only:
            keep &= rel >= 0
        rel = rel[keep]
        offsets = ranked.kept_offsets(keep)
    # the evaluated queries, in trec_eval's order; their positions among the ranked ones
    ranked_of = {int(p): i for i, p in enumerate(ranked.qpos.tolist())}
    qrels_indices = range(len(qrels.query_ids)) if complete else ranked.qpos.tolist()
    qrels_indices = [int(i) for i in qrels_indices]
    ids = [qrels.query_ids[i] for i in qrels_indices]
    order = [qrels_indices[i] for i in trec_order(ids)]
    bogus = np.array([q not in ranked_of for q in order], dtype=bool)
    if bogus.any():  # -c: the qrels queries the run lacks, each on the tool's bogus ranking
        rel, offsets = _with_bogus_rankings(qrels, rel, offsets, ranked_of, order, max_docs, judged_only)
    positions, new_offsets = reorder_segments(offsets, np.array([ranked_of.get(q, -1) for q in order]))
    lo, lv, lc = level_counts(qrels)
    level_pos, level_offsets = reorder_segments(lo, np.array(order, dtype=np.int64))
    return ToolLists(
        [qrels.query_ids[q] for q in order],
        new_offsets,
        rel[positions],
        level_offsets,
        lv[level_pos],
        lc[level_pos],
        relevance_level,
        bogus=bogus if bogus.any() else None,
        c_nan=True,
    )


def _with_bogus_rankings(
    qrels: Qrels,
    rel: np.ndarray,
    offsets: np.ndarray,
    ranked_of: Dict[int, int],
    order: List[int],
    max_docs: Optional[int],
    judged_only: bool,
) -> tuple:
    """``rel`` and ``offsets`` with one more list per query of ``order`` the run lacks (its entry
    added to ``ranked_of``): trec_eval 10's bogus ranking for it under ``-c``, the one document
    :data:`BOGUS_DOCNO` with score 1, judged as the qrels judge it, subject to ``-M`` and ``-J``."""
    missing = [q for q in order if q not in ranked_of]
    values = np.full(len(missing), NONPOOL, dtype=np.int64)
    judged = _label_of(qrels, BOGUS_DOCNO)
    for j, q in enumerate(missing):
        if q in judged:
            values[j] = UNJUDGED if judged[q] < 0 else judged[q]
    keep = np.full(len(missing), max_docs is None or max_docs >= 1)
    if judged_only:
        keep &= values >= 0
    base = len(offsets) - 1
    for j, q in enumerate(missing):
        ranked_of[q] = base + j
    rel = np.concatenate([rel, values[keep]])
    offsets = np.concatenate([offsets, offsets[-1] + np.cumsum(keep.astype(np.int64))])
    return rel, offsets


def _label_of(qrels: Qrels, doc: str) -> Dict[int, int]:
    """Per qrels query (index) that judges ``doc``, its label."""
    found: Dict[int, int] = {}
    raw = qrels.doc_bytes
    if raw is not None:
        for line in np.flatnonzero(raw == doc.encode()).tolist():
            found[int(qrels.qidx[line])] = int(qrels.labels[line])
        return found
    for q, docs in enumerate(qrels.lookup):
        if doc in docs:
            found[q] = int(docs[doc])
    return found


@dataclass
class JgLists:
    """trec_eval's lists for a ``-R qrels_jg`` file: one :class:`ToolLists` entry per (query,
    judgement group) (``pseudo``, the groups of a query contiguous, in ``strcmp`` order of the
    group ids), and the evaluated queries themselves; query i owns the entries
    ``group_offsets[i]:group_offsets[i + 1]``."""

    pseudo: ToolLists
    query_ids: List[str]
    group_offsets: np.ndarray

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    @property
    def bogus(self) -> Optional[np.ndarray]:
        """Per query, True where ``-c`` scores it on the bogus ranking (None: no such query)."""
        if self.pseudo.bogus is None:
            return None
        return self.pseudo.bogus[self.group_offsets[:-1]]

    def average(self, values: np.ndarray) -> np.ndarray:
        """Per query, the values of its groups added in group order, over the number of groups
        when there are several (as m_map_avgjg.c and its siblings average)."""
        values = np.asarray(values, dtype=np.float64)
        if values.ndim == 1:
            return self.average(values[:, None])[:, 0]
        groups = np.diff(self.group_offsets)
        out = np.column_stack(
            [sums_in_order(values[:, j], self.group_offsets) for j in range(values.shape[1])]
        )
        return np.where((groups > 1)[:, None], out / np.maximum(groups, 1)[:, None], out)


def build_jg_lists(
    pairs: List[tuple],
    qrels: Qrels,
    run: Any,
    relevance_level: int = 1,
    max_docs: Optional[int] = None,
    judged_only: bool = False,
    complete: bool = False,
) -> JgLists:
    """:class:`JgLists` of ``run`` against judgement groups. ``qrels`` has one query per
    (query, group) pair, named by its index into ``pairs`` written with 12 digits (so that byte
    order is the pairs' order); ``pairs`` is sorted by the ids' bytes. ``run`` (columns of a run
    file) is laid out once per group of its query."""
    from ...data.inputs import Columns

    qids = [q for q, _ in pairs]
    first: Dict[str, int] = {}
    count: Dict[str, int] = {}
    for i, q in enumerate(qids):
        first.setdefault(q, i)
        count[q] = count.get(q, 0) + 1
    names = list(run.query_names)
    line_first = np.array([first.get(q, -1) for q in names], dtype=np.int64)[run.query_codes]
    line_count = np.array([count.get(q, 0) for q in names], dtype=np.int64)[run.query_codes]
    lines = np.repeat(np.arange(len(line_count)), line_count)
    copy = np.arange(len(lines)) - np.repeat(np.cumsum(line_count) - line_count, line_count)
    pseudo_ids = np.array([f"{i:012d}" for i in range(len(pairs))], dtype=object)
    replicated = Columns(
        pseudo_ids[line_first[lines] + copy],
        np.asarray(run.doc_ids, dtype=object)[lines],
        np.asarray(run.values)[lines],
        unique_pairs=True,
        kind="run",
    )
    lists = build_lists(qrels, replicated, relevance_level, max_docs, judged_only, complete)
    real = [qids[int(p)] for p in lists.query_ids]
    starts = [i for i in range(len(real)) if i == 0 or real[i] != real[i - 1]]
    return JgLists(lists, [real[i] for i in starts], np.array(starts + [len(real)], dtype=np.int64))
