"""A ranked block laid out for the bounds over unjudged documents (:mod:`.bounds`): how one
measure is bounded (:class:`BoundPlan`) and the completions of each ranked query as virtual
queries scored by the measure's kernel (:class:`Layout`), which the bounds and their branch and
bound (:mod:`.bounds_search`) both use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ..data.arrays import offsets_from_counts
from ..data.qrels import Qrels
from ..data.ranking import JudgedList, RankedRun

__all__ = ["CHUNK_ENTRIES", "BoundPlan", "Kernel", "Layout"]

#: entries (virtual list + virtual qrels) scored by one kernel call at most: the memory bound
CHUNK_ENTRIES = 1 << 21

Kernel = Callable[[Any, RankedRun], np.ndarray]


@dataclass(frozen=True)
class BoundPlan:
    """How one measure is bounded against given qrels: its kernel, the kind (``extremes``,
    ``completions``, ``outer``, ``free``), whether the branch and bound's decoupled completions
    apply, the level an unjudged document made relevant gets (extremes: the level of the largest
    gain, None when it is 0: the run as judged), and the cutoff the kernel applies to the list
    (None: the whole list)."""

    measure: Any
    compute: Kernel
    kind: str
    monotone: bool
    level: Optional[int]
    cutoff: Optional[int]
    #: the value is N(E) / (c R) (:mod:`.bounds_search`), R counted at ``level``
    per_relevant: bool = False
    #: and N is concave along the top-m completions, convex along the bottom-m ones
    concave: bool = False
    #: extremes: the level of the smallest gain (None when it is 0: the run as judged)
    low_level: Optional[int] = None
    #: extremes: the kernel reads the qrels' scale, so the extremes are scored with completed qrels
    reads_scale: bool = False
    #: the levels that count as relevant (R, the ideal's entries): outer bounds ask whether the
    #: qrels judge any document relevant
    relevant_levels: Tuple[int, ...] = ()

    @property
    def exact(self) -> bool:
        return self.kind != "outer"


def _take(values: np.ndarray, index: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``values[index]`` where ``valid``, 0 elsewhere (``index`` may be out of range there)."""
    out = np.zeros(len(index), dtype=np.int64)
    if valid.any():
        out[valid] = values[index[valid]]
    return out


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[i] .. starts[i] + lengths[i] - 1`` of every range, concatenated."""
    lengths = lengths.astype(np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    before = offsets_from_counts(lengths)[:-1]
    return np.repeat(starts.astype(np.int64) - before, lengths) + np.arange(total, dtype=np.int64)


class Layout:
    """A ranked block prepared for completions of one measure: per ranked query, the entries a
    completion may hold (judged documents with a positive label and unjudged documents, within
    the kernel's cutoff, in rank order), the unjudged documents counted over the whole list, and
    the query's positive qrels labels.

    A completion is ``(query, top, e, r)``: the list with the ``e`` highest-ranked (``top``) or
    lowest-ranked unjudged documents relabelled ``level``, and the qrels with ``r`` documents of
    that level added. A judged document with label <= 0 gains and counts nothing in any kernel
    bounded here, so it is left out (the list's length is kept)."""

    def __init__(self, ranked: RankedRun, cutoff: Optional[int]) -> None:
        self.ranked = ranked
        nq = ranked.num_queries
        labels = ranked.labels
        rank = ranked.rank
        qidx = ranked.qidx
        unjudged = labels < 0
        self.u = np.bincount(qidx[unjudged], minlength=nq).astype(np.int64)
        keep = (labels >= 1) | unjudged
        if cutoff is not None:
            keep &= rank <= cutoff
        pos = np.flatnonzero(keep)
        seq_q = qidx[pos]
        self.rank = rank[pos]
        self.is_unj = unjudged[pos]
        self.label = labels[pos]
        self.offsets = offsets_from_counts(np.bincount(seq_q, minlength=nq))
        start = self.offsets[:-1]
        local = np.arange(len(pos)) - start[seq_q]
        # the unjudged entries (S-local index, per query in rank order: index j = 0 .. u_k - 1)
        self.unj_local = local[self.is_unj]
        self.u_cut = np.bincount(seq_q[self.is_unj], minlength=nq).astype(np.int64)
        self.unj_offsets = offsets_from_counts(self.u_cut)
        # the positive entries, as global indices into the sequence
        self.pos_global = np.flatnonzero(~self.is_unj)
        self.pos_offsets = offsets_from_counts(np.bincount(seq_q[~self.is_unj], minlength=nq))
        #: the sequence's indices, then those of its positive entries (what a completion gathers)
        self.source = np.concatenate([np.arange(len(pos)), self.pos_global])
        self._marked: Dict[int, np.ndarray] = {}
        self.lengths = ranked.lengths
        # the qrels' positive labels of each ranked query
        qrels = ranked.qrels
        positive = qrels.labels >= 1
        pos_lines = np.flatnonzero(positive)
        q_of_line = qrels.qidx[pos_lines]
        self.qrels_offsets_all = offsets_from_counts(np.bincount(q_of_line, minlength=len(qrels.query_ids)))
        self.qrels_pos_labels = qrels.labels[pos_lines]
        self.qrels_count = np.diff(self.qrels_offsets_all)[ranked.qpos]
        self.qrels_start = self.qrels_offsets_all[:-1][ranked.qpos]

    def marked_label(self, level: int) -> np.ndarray:
        """The sequence's labels with every unjudged entry at ``level``: a completion holds only
        the unjudged entries it marks."""
        if level not in self._marked:
            self._marked[level] = np.where(self.is_unj, level, self.label)
        return self._marked[level]

    def size(self, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        """An upper bound on the entries of completions (for chunking)."""
        return np.diff(self.offsets)[q] + self.qrels_count[q] + r

    def score(
        self,
        plan: BoundPlan,
        q: np.ndarray,
        top: np.ndarray,
        e: np.ndarray,
        r: np.ndarray,
        level: Optional[int] = None,
    ) -> np.ndarray:
        """The kernel's value of every completion ``(q, top, e, r)`` (arrays of one length), its
        documents marked ``level`` (default: the plan's), a chunk of about :data:`CHUNK_ENTRIES`
        entries at a time."""
        mark = plan.level if level is None else level
        assert mark is not None
        out = np.zeros(len(q), dtype=np.float64)
        if not len(q):
            return out
        sizes = self.size(q, r)
        ends = np.cumsum(sizes)
        a = 0
        while a < len(q):
            limit = (ends[a - 1] if a else 0) + CHUNK_ENTRIES
            b = max(a + 1, int(np.searchsorted(ends, limit, side="right")))
            out[a:b] = self._score(plan, q[a:b], top[a:b], e[a:b], r[a:b], mark)
            a = b
        return out

    def _score(
        self, plan: BoundPlan, q: np.ndarray, top: np.ndarray, e: np.ndarray, r: np.ndarray, level: int
    ) -> np.ndarray:
        start = self.offsets[:-1][q]
        n_seq = np.diff(self.offsets)[q]
        u, u_cut = self.u[q], self.u_cut[q]
        p_start = self.pos_offsets[:-1][q]
        n_pos = np.diff(self.pos_offsets)[q]
        unj_start = self.unj_offsets[:-1][q]
        # top: the first t = min(e, u_cut) unjudged entries are marked; the sequence up to and
        # including the t-th, then the positives after it. bottom: unjudged j >= u - e are marked;
        # the positives before the first marked one, then the sequence from it.
        t = np.minimum(e, u_cut)
        j0 = u - e
        marks_in_cut = np.where(top, t > 0, j0 < u_cut)
        c_top = _take(self.unj_local, unj_start + t - 1, t > 0) + (t > 0)
        c_bot = _take(self.unj_local, unj_start + j0, j0 < u_cut)
        # top: prefix [0, c) of the sequence, then positives from (c - t) on
        seq_len_top = c_top
        pos_from_top = c_top - t
        # bottom: positives [0, c - j0), then the sequence from c
        pos_len_bot = c_bot - j0
        # no mark inside the cut: the positives only
        seq_start = np.where(top, start, start + c_bot)
        seq_len = np.where(top, seq_len_top, n_seq - c_bot)
        pos_first = np.where(top, p_start + pos_from_top, p_start)
        pos_len = np.where(top, n_pos - pos_from_top, pos_len_bot)
        seq_len = np.where(marks_in_cut, seq_len, 0)
        pos_first = np.where(marks_in_cut, pos_first, p_start)
        pos_len = np.where(marks_in_cut, pos_len, n_pos)
        # gather: per completion, (positives part, sequence part) in rank order
        first_part_is_seq = top
        s1 = np.where(first_part_is_seq, seq_start, pos_first)
        l1 = np.where(first_part_is_seq, seq_len, pos_len)
        s2 = np.where(first_part_is_seq, pos_first, seq_start)
        l2 = np.where(first_part_is_seq, pos_len, seq_len)
        # one index space, the sequence then its positives again (:attr:`source`): a single gather
        shift = len(self.rank)
        src_start = np.stack([s1 + np.where(top, 0, shift), s2 + np.where(top, shift, 0)], axis=1).ravel()
        src_len = np.stack([l1, l2], axis=1).ravel()
        idx = self.source[_ranges(src_start, src_len)]
        counts = l1 + l2
        label = self.marked_label(level)[idx]
        n = len(q)
        judged = JudgedList(
            np.arange(n), self.lengths[q].copy(), offsets_from_counts(counts), self.rank[idx], label
        )
        virtual = RankedRun.of_judged(self.completed_qrels(q, r, level), judged, plan.cutoff)
        return np.asarray(plan.compute(plan.measure, virtual), dtype=np.float64)

    def completed_qrels(self, q: np.ndarray, r: np.ndarray, level: int) -> Qrels:
        """The qrels of completions, one virtual query each: the positive lines (label >= 1) of
        ranked query ``q`` and ``r`` lines at ``level`` (no document ids: kernels only count and
        sort labels)."""
        count = self.qrels_count[q]
        offsets = offsets_from_counts(count + r)
        labels = np.full(int(offsets[-1]), level, dtype=np.int64)
        labels[_ranges(offsets[:-1], count)] = self.qrels_pos_labels[_ranges(self.qrels_start[q], count)]
        names = self.ranked.qrels.query_ids
        return Qrels.of_labels([names[i] for i in self.ranked.qpos[q].tolist()], offsets, labels)
