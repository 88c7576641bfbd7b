"""Bounds over unjudged documents: how low and how high a score could go if the documents the
run retrieved and nobody judged were judged (issue #30, ``../shared/spec/judgements.md`` §3.2).

For a query and a measure, ``[lo, hi]`` is the range of the measure over every assignment of
relevance to the **unjudged documents the run retrieved** (not in the qrels for the query, or in
them with a negative value: docs/conventions.md), all of them, also those below the measure's
cutoff (they change R). Unretrieved unjudged documents stay non-relevant. A document made
relevant gets the relevant level ``rel`` for binary measures and the qrels' top grade for graded
ones (the largest value in the qrels: the scale the assessors used).

**Which completions.** Every measure is scored by its one kernel (the native kernels of
:mod:`..measures.standard` for AP, nDCG, P, R, Rprec, RR, Success; the catalogue's for ours) on
*completions* laid out as virtual queries in the per-query-offsets arrays: a copy of the query's
judged list with some unjudged documents relabelled, and a copy of its qrels with as many
relevant documents added. Three kinds of measure:

* **extremes** (no dependence on R, non-decreasing in every label: P@k, RR, Success, DCG, RBP):
  lo = every unjudged document non-relevant (the measure's own value), hi = every one at the
  top grade. Exact.
* **completions** (normalised by R or by an ideal ranking, binary labels: AP, R@k, Rprec,
  nDCG@k, Q, PRES, R_norm): exact, with
  hi = max over m of V(the top m unjudged documents relevant), lo = min over m of V(the
  bottom m relevant), m = 0 .. u.

  *Proof sketch.* Fix m, the number of unjudged documents made relevant: R = R0 + m is fixed,
  and each of these measures is non-decreasing when a relevant label moves from a document to a
  non-relevant one ranked above it (R fixed: AP's precisions, nDCG's discounts, PRES's and
  R_norm's rank sums, Q's blended ratios, R@k's and Rprec's counts above a rank only gain). So
  among the completions with m relevant unjudged documents, the best puts them on the m
  highest-ranked unjudged documents and the worst on the m lowest; the range over all
  completions is the range of these 2(u + 1) completions. ``tests/test_bounds.py`` checks it
  against every one of the 2^u completions, each scored by ir_measures.

  *Fewer completions* (branch and bound, exact; :mod:`.bounds_search`). For AP, R@k, nDCG@k,
  PRES and Q (not Rprec, not R_norm, not PRES_est) the kernel's value V(E, R) is non-decreasing
  in the set E of relevant retrieved documents and non-increasing in R, also for E and R of
  different completions. So for the m strictly between a and b, V(top-m) <= V(E = top-(b - 1),
  R = R0 + a + 1) and V(bottom-m) >= V(E = bottom-(a + 1), R = R0 + b - 1): such a *decoupled*
  completion, scored by the same kernel, bounds a whole interval of m. AP, R@k and PRES are
  moreover N(E) / (c R) (:data:`_PER_RELEVANT`): their intervals are bounded from the values at
  their ends, no completion scored, and for R@k and PRES, whose N is concave along the top-m
  completions and convex along the bottom-m ones, from the chords of the intervals beside them
  too. Intervals are split and scored exactly at their ends until every interval left either has
  no m inside or cannot beat the best value found (within 1e-12); what remains is the exact max
  and min. Rprec and R_norm score every m.
* **outer** (graded nDCG and Q, beta > 0): the numerator and the normaliser are bounded apart,
  each by the same kernel on decoupled completions: lo = V(run as judged, qrels with every
  unjudged retrieved document at the top grade), hi = min(1, V(run with every unjudged document
  at the top grade, qrels as judged)) (1 when the qrels have no relevant document and an
  unjudged one is within the cutoff). These contain the true range; ``exact`` is False.

Refused with a message (:class:`BoundsError`): bpref and every judged-only variant
(``judged_only=True``, Bpref10, NTCIR_bpref, NTCIR_rpref: they skip unjudged documents, so
their lists themselves change with the labels), and every measure not listed here.

**RBP's residual** (Moffat and Zobel, TOIS 2008): for ``NTCIR_RBP`` (and, with binary labels,
ir_measures' RBP it equals) :func:`rbp_residual` is hi - lo + p^d, d the depth of the list the
measure sees: the unjudged retrieved documents' weight plus the unseen tail. trec_eval 10's
``rbp_resid`` is the same sum but 0 when every retrieved document is judged (docs/uncertainty.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np

from ..data.arrays import offsets_from_counts
from ..data.qrels import Qrels
from ..data.ranking import JudgedList, RankedRun
from .bounds_search import branch_and_bound

__all__ = [
    "BoundsError",
    "MeasureBounds",
    "QueryBounds",
    "bound_plan",
    "calc_bounds",
    "check_boundable",
    "query_bounds",
    "rbp_residual",
]

#: entries (virtual list + virtual qrels) scored by one kernel call at most: the memory bound
CHUNK_ENTRIES = 1 << 21

Kernel = Callable[[Any, RankedRun], np.ndarray]


class BoundsError(ValueError):
    """A measure for which no bounds over unjudged documents are given, and why."""


# --------------------------------------------------------------------------------------------
# which measures, and how
# --------------------------------------------------------------------------------------------

#: measures whose value does not depend on relevance (trec_eval 10's ``unj``, the unjudged
#: fraction): they need no bounds; ``--bounds`` prints them beside the others, cells empty
RELEVANCE_FREE = frozenset({"unj"})


def needs_bounds(measure: Any) -> bool:
    """Whether ``measure``'s value depends on relevance (else it needs no bounds)."""
    return getattr(measure, "NAME", None) not in RELEVANCE_FREE


#: measures refused by name, with the reason (bpref and its judged-only relatives)
_REFUSED = {
    "Bpref": "bpref skips unjudged documents (only judged ones are ranked against each other)",
    "Bpref10": "Bpref-10 skips unjudged documents (only judged ones are ranked against each other)",
    "NTCIR_bpref": "bpref skips unjudged documents (only judged ones are ranked against each other)",
    "NTCIR_rpref": "rpref skips unjudged documents (only judged ones are ranked against each other)",
    "infAP": "infAP estimates from sampled judgements; its unjudged documents are part of the estimate",
    "rbp": (
        "trec_eval 10's rbp divides the gains by the query's top judged grade, which an unjudged "
        "document judged higher would raise, lowering the others' gains (not monotone in the labels); "
        "NTCIR_RBP has bounds"
    ),
}

#: measure NAME -> (kind, monotone for the branch and bound); standard names need a native kernel
_KINDS: Dict[str, Tuple[str, bool]] = {
    "P": ("extremes", False),
    "RR": ("extremes", False),
    "Success": ("extremes", False),
    "DCG": ("extremes", False),
    "CG": ("extremes", False),
    "NTCIR_RBP": ("extremes", False),
    "AP": ("completions", True),
    "R": ("completions", True),
    "nDCG": ("completions", True),
    "PRES": ("completions", True),
    "QMeasure": ("completions", True),
    "Rprec": ("completions", False),
    "R_norm": ("completions", False),
}

#: completions measures whose value is N(E) / (c R): a sum over the set E of relevant retrieved
#: documents, non-decreasing in E, over R (the qrels' relevant documents) times a constant c;
#: True where, moreover, N is concave in m along the top-m completions and convex along the
#: bottom-m ones (:func:`.bounds_search.branch_and_bound` bounds their pieces of m from the values at
#: the pieces' ends, with no completion scored). With rho_m the rank of the m-th unjudged document
#: from the top (from the bottom), J the judged relevant documents within the cutoff and j the
#: unjudged ones marked within it before rho_m, the step N(m) - N(m - 1) is:
#:
#: * AP: N = sum over E of count(r_d) / r_d (c = 1); its steps go either way (not concave).
#: * R@k: N = |E within k|; top: 1 while rho_m <= k, then 0; bottom: 0 while rho_m > k, then 1.
#: * PRES: N = sum over E, i-th by rank, of N_max - r_i + i (each term >= i > 0), c = N_max
#:   (1 - (sum r_i - k(k+1)/2 + (n-k) N_max) / (n N_max) rearranged). Top: the new document's
#:   term plus 1 for each relevant document below it, N_max + J + m - rho_m, which falls as
#:   rho_m grows by at least 1 a step; bottom: 0 beyond the cutoff, then N_max + J + 1 + j -
#:   rho_m, which grows as rho_m falls.
_PER_RELEVANT = {"AP": False, "R": True, "PRES": True}

#: extremes whose kernel reads the qrels' scale (NTCIREVAL's g_max): scored on completions
_SCALE_FROM_QRELS = {"NTCIR_RBP"}

#: what the refusal lists as the measures that have bounds
SUPPORTED = "P@k, RR, Success@k, DCG, CG, NTCIR_RBP, AP, R@k, Rprec, nDCG, PRES, QMeasure, R_norm"


@dataclass(frozen=True)
class BoundPlan:
    """How one measure is bounded: its kernel, the kind (``extremes``, ``completions``,
    ``outer``), whether the branch and bound applies, the level an unjudged document made
    relevant gets, and the cutoff the kernel applies to the list (None: the whole list)."""

    measure: Any
    compute: Kernel
    kind: str
    monotone: bool
    level: int
    cutoff: Optional[int]
    #: the value is N(E) / (c R) (:data:`_PER_RELEVANT`), R counted at ``level``
    per_relevant: bool = False
    #: and N is concave along the top-m completions, convex along the bottom-m ones
    concave: bool = False

    @property
    def exact(self) -> bool:
        return self.kind != "outer"


def _kernel(measure: Any) -> Optional[Kernel]:
    from ..measures.catalogue import entry_of
    from ..measures.standard import kernel_for

    entry = entry_of(measure)
    if entry is not None:
        return entry.compute  # type: ignore[no-any-return]
    return kernel_for(measure)


def refusal(measure: Any) -> Optional[str]:
    """Why ``measure`` has no bounds (a sentence naming it), or None when it has."""
    name = getattr(measure, "NAME", None)
    if name in _REFUSED:
        return f"{measure}: no bounds over unjudged documents: {_REFUSED[name]}"
    params = getattr(measure, "params", {})
    if params.get("judged_only") is True:
        return (
            f"{measure}: no bounds over unjudged documents: judged_only=True drops them from the "
            "list, so their labels change the list itself"
        )
    if name not in _KINDS or _kernel(measure) is None:
        return (
            f"{measure}: no bounds over unjudged documents for this measure (they are given for {SUPPORTED})"
        )
    if name == "R_norm" and measure["mode"] != "pessimistic":
        return (
            f"{measure}: no bounds over unjudged documents for Bollmann's pairwise R_norm (pessimistic only)"
        )
    gains = params.get("gains")
    if gains and any(k <= 0 and g > 0 for k, g in gains.items()):
        return f"{measure}: no bounds over unjudged documents when gains give a non-relevant level a gain"
    return None


def check_boundable(measures: Iterable[Any]) -> None:
    """Raise :class:`BoundsError` naming every measure of ``measures`` that has no bounds."""
    problems = [p for p in map(refusal, measures) if p is not None]
    if problems:
        raise BoundsError("\n".join(problems))


def _gains_of_levels(measure: Any, levels: np.ndarray) -> np.ndarray:
    gains = measure.params.get("gains")
    if not gains:
        return levels.astype(np.float64)
    return np.array([gains.get(int(v), float(v)) for v in levels.tolist()], dtype=np.float64)


def bound_plan(measure: Any, qrels: Qrels) -> BoundPlan:
    """How ``measure`` is bounded against ``qrels`` (:class:`BoundsError` when it is not)."""
    problem = refusal(measure)
    if problem is not None:
        raise BoundsError(problem)
    compute = _kernel(measure)
    assert compute is not None
    name = measure.NAME
    kind, monotone = _KINDS[name]
    rel = int(measure.params.get("rel", 1) or 1)
    labels = qrels.labels
    top = max(int(labels.max()) if len(labels) else 1, rel, 1)
    level = rel
    if name in ("nDCG", "QMeasure", "DCG", "CG", "NTCIR_RBP"):
        level = top
    if name in ("nDCG", "QMeasure"):
        low = 1 if name == "nDCG" else rel
        levels = np.unique(labels[labels >= low])
        gains = np.unique(_gains_of_levels(measure, levels))
        binary = len(gains) <= 1 or (name == "QMeasure" and float(measure["beta"]) == 0.0)
        if not binary:
            kind, monotone = "outer", False
    if name == "PRES" and measure["estimate"]:
        monotone = False
    per_relevant = monotone and name in _PER_RELEVANT
    concave = per_relevant and _PER_RELEVANT[name]
    # the cutoff the kernel asks its list for (PRES: N_max, 1000 when not given)
    cutoff = measure["cutoff"] if name == "PRES" else measure.params.get("cutoff")
    if name == "Rprec" or not isinstance(cutoff, int) or isinstance(cutoff, bool):
        cutoff = None
    return BoundPlan(measure, compute, kind, monotone, level, cutoff, per_relevant, concave)


# --------------------------------------------------------------------------------------------
# completions as virtual queries
# --------------------------------------------------------------------------------------------


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


class _Layout:
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
        self, plan: BoundPlan, q: np.ndarray, top: np.ndarray, e: np.ndarray, r: np.ndarray
    ) -> np.ndarray:
        """The kernel's value of every completion ``(q, top, e, r)`` (arrays of one length),
        a chunk of about :data:`CHUNK_ENTRIES` entries at a time."""
        out = np.zeros(len(q), dtype=np.float64)
        if not len(q):
            return out
        sizes = self.size(q, r)
        ends = np.cumsum(sizes)
        a = 0
        while a < len(q):
            limit = (ends[a - 1] if a else 0) + CHUNK_ENTRIES
            b = max(a + 1, int(np.searchsorted(ends, limit, side="right")))
            out[a:b] = self._score(plan, q[a:b], top[a:b], e[a:b], r[a:b])
            a = b
        return out

    def _score(
        self, plan: BoundPlan, q: np.ndarray, top: np.ndarray, e: np.ndarray, r: np.ndarray
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
        label = self.marked_label(plan.level)[idx]
        n = len(q)
        judged = JudgedList(
            np.arange(n), self.lengths[q].copy(), offsets_from_counts(counts), self.rank[idx], label
        )
        # the qrels of each completion: the query's positive labels and r added at the level
        names = self.ranked.qrels.query_ids
        qpos = self.ranked.qpos[q]
        virtual_qrels = _CompletedQrels(
            [names[i] for i in qpos.tolist()], self.ranked.qrels, qpos, self, q, r, plan.level
        )
        virtual = RankedRun.of_judged(virtual_qrels, judged, plan.cutoff)
        return np.asarray(plan.compute(plan.measure, virtual), dtype=np.float64)


class _CompletedQrels(Qrels):
    """The qrels of completions, one virtual query each: the positive lines (label >= 1) of a real
    query and ``r`` lines at ``level``. :meth:`count` is worked out from those two parts (the
    count of the real query's positive lines in the range, plus ``r`` when ``level`` is in it),
    so the kernels that only count (AP, R, Rprec, PRES, R_norm) never make the lines; ``labels``
    and ``offsets`` are made on first use (nDCG's and Q's ideal gains read them)."""

    def __init__(
        self,
        query_ids: List[str],
        real: Qrels,
        qpos: np.ndarray,
        layout: "_Layout",
        q: np.ndarray,
        r: np.ndarray,
        level: int,
    ) -> None:
        self.query_ids = query_ids
        self._lookup = None
        self._cache = {}
        self._real, self._qpos, self._layout, self._q, self._r, self._level = real, qpos, layout, q, r, level
        self._lines: Optional[Tuple[np.ndarray, np.ndarray]] = None

    @property
    def index(self) -> Dict[str, int]:  # type: ignore[override]  # a virtual query has no name
        return {}

    def _made(self) -> Tuple[np.ndarray, np.ndarray]:
        if self._lines is None:
            layout, q, r = self._layout, self._q, self._r
            offsets = offsets_from_counts(layout.qrels_count[q] + r)
            labels = np.full(int(offsets[-1]), self._level, dtype=np.int64)
            dest = _ranges(offsets[:-1], layout.qrels_count[q])
            labels[dest] = layout.qrels_pos_labels[_ranges(layout.qrels_start[q], layout.qrels_count[q])]
            self._lines = (offsets, labels)
        return self._lines

    @property
    def offsets(self) -> np.ndarray:  # type: ignore[override]
        return self._made()[0]

    @property
    def labels(self) -> np.ndarray:  # type: ignore[override]
        return self._made()[1]

    def count(self, lo: Optional[int] = None, hi: Optional[int] = None) -> np.ndarray:
        key = ("count", lo, hi)
        if key not in self._cache:
            low = 1 if lo is None else max(lo, 1)  # only positive lines are here
            real = self._real.count(lo=low, hi=hi) if hi is None or hi > low else np.zeros(1, np.int64)
            base = (
                real[self._qpos]
                if len(real) == len(self._real.query_ids)
                else np.zeros(len(self._q), np.int64)
            )
            inside = (lo is None or self._level >= lo) and (hi is None or self._level < hi)
            self._cache[key] = base + (self._r if inside else 0)
        return self._cache[key]  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# per ranked query: value, lo, hi
# --------------------------------------------------------------------------------------------


def query_bounds(
    measure: Any, ranked: RankedRun, plan: Optional[BoundPlan] = None
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(value, lo, hi, exact) per ranked query of ``ranked`` (a run ranked against the qrels by
    :func:`~..data.ranking.rank_run`); a query with an empty list gets the measure's DEFAULT."""
    if plan is None:
        plan = bound_plan(measure, ranked.qrels)
    nq = ranked.num_queries
    value = np.asarray(plan.compute(measure, ranked), dtype=np.float64)
    unjudged = ranked.labels < 0
    u = np.bincount(ranked.qidx[unjudged], minlength=nq)
    if plan.kind == "extremes" and measure.NAME in _SCALE_FROM_QRELS:
        # the kernel reads the qrels' largest gain: the completion's qrels must hold the marks
        layout = _Layout(ranked, plan.cutoff)
        qs = np.arange(nq)
        lo = value.copy()
        hi = layout.score(plan, qs, np.ones(nq, dtype=bool), layout.u, layout.u)
    elif plan.kind == "extremes":
        labels = np.where(unjudged, plan.level, ranked.labels)
        full = RankedRun(ranked.qrels, ranked.qpos, ranked.offsets, labels, ranked._docs)
        lo, hi = value.copy(), np.asarray(plan.compute(measure, full), dtype=np.float64)
    elif plan.kind == "outer":
        layout = _Layout(ranked, plan.cutoff)
        qs = np.arange(nq)
        yes = np.ones(nq, dtype=bool)
        zero = np.zeros(nq, dtype=np.int64)
        lo = layout.score(plan, qs, yes, zero, layout.u)
        hi = layout.score(plan, qs, yes, layout.u, zero)
        rel = int(measure.params.get("rel", 1) or 1)  # Q's levels below rel count as L0
        no_relevant = ranked.qrels_stat(ranked.qrels.count(lo=rel)) == 0
        hi = np.where(no_relevant, np.where(layout.u_cut > 0, 1.0, hi), np.minimum(1.0, hi))
    else:
        layout = _Layout(ranked, plan.cutoff)
        qs = np.arange(nq)
        zero = np.zeros(nq, dtype=np.int64)
        both = np.r_[qs, qs]
        ends = layout.score(
            plan, both, np.ones(2 * nq, dtype=bool), np.r_[zero, layout.u], np.r_[zero, layout.u]
        )
        n_relevant = ranked.qrels_stat(ranked.qrels.count(lo=plan.level))
        hi = branch_and_bound(layout, plan, True, ends, n_relevant)
        lo = branch_and_bound(layout, plan, False, ends, n_relevant)
    # a list with nothing unjudged: the value itself (one kernel, the same numbers)
    lo = np.where(u > 0, np.minimum(lo, value), value)
    hi = np.where(u > 0, np.maximum(hi, value), value)
    exact = np.full(nq, plan.exact) | (u == 0)
    empty = ranked.lengths == 0
    if empty.any():
        default = float(measure.DEFAULT)
        value, lo, hi = (np.where(empty, default, x) for x in (value, lo, hi))
        exact = exact | empty
    return value, lo, hi, exact


def rbp_residual(measure: Any, ranked: RankedRun, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Moffat and Zobel's residual of RBP per ranked query: hi - lo (the weight of the unjudged
    retrieved documents) plus p^d, the weight of the ranks below the list the measure sees
    (d its depth: the list's length, at most the cutoff). An empty list: 1 (everything unseen)."""
    p = float(measure["p"])
    depth = ranked.lengths.astype(np.float64)
    cutoff = measure.params.get("cutoff")
    if cutoff is not None:
        depth = np.minimum(depth, float(cutoff))
    return (hi - lo) + np.power(p, depth)


# --------------------------------------------------------------------------------------------
# from Python
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueryBounds:
    """One query's value of a measure and its bounds over the unjudged documents."""

    query_id: str
    value: float
    lo: float
    hi: float
    exact: bool
    #: RBP only: Moffat and Zobel's residual (hi - lo + p^depth), else None
    residual: Optional[float] = None


@dataclass(frozen=True)
class MeasureBounds:
    """A measure's mean over the qrels queries (DEFAULT for those the run lacks, as every mean
    of the package) with the means of the per-query bounds; ``exact``: every query's bounds are
    exact; ``per_query``: by query id, in qrels order."""

    measure: Any
    value: float
    lo: float
    hi: float
    exact: bool
    per_query: Dict[str, QueryBounds]
    residual: Optional[float] = None


def is_rbp(measure: Any) -> bool:
    return getattr(measure, "NAME", None) == "NTCIR_RBP"


def calc_bounds(measures: Any, qrels: Any, run: Any) -> Dict[Any, MeasureBounds]:
    """Per measure, the bounds over unjudged documents of ``run`` against ``qrels`` (paths, TREC
    format, gzipped or not, read by the package's strict readers as the command reads them; or
    anything ir_measures accepts: dicts, DataFrames, namedtuples): per query ``value``, ``lo``,
    ``hi``, ``exact`` and the means of them over every qrels query (a query the run lacks:
    lo = hi = value = DEFAULT). ``measures``: measure
    objects or strings, as everywhere in the package. Raises :class:`BoundsError` for a measure
    without bounds (bpref, judged-only measures, measures not listed in this module)."""
    from ..data.ranking import rank_run
    from ..measures.catalogue import parse_measures
    from ..measures.table import check_qrels

    measures = parse_measures(measures)
    check_boundable(measures)
    if isinstance(qrels, (str, os.PathLike)):
        from ..data.datasets import qrels_columns

        qrels = qrels_columns(os.fspath(qrels))
    if isinstance(run, (str, os.PathLike)):
        from ..data.readers import read_run

        run = read_run(os.fspath(run))
    prepared = Qrels.from_any(qrels)
    check_qrels(measures, prepared)
    ranked = rank_run(run, prepared)
    ids = prepared.query_ids
    at = {int(p): i for i, p in enumerate(ranked.qpos.tolist())}  # qrels query -> ranked query
    out: Dict[Any, MeasureBounds] = {}
    for m in measures:
        value, lo, hi, exact = query_bounds(m, ranked, bound_plan(m, prepared))
        residual = rbp_residual(m, ranked, lo, hi) if is_rbp(m) else None
        per: Dict[str, QueryBounds] = {}
        default = float(m.DEFAULT)
        for k, qid in enumerate(ids):
            i = at.get(k)
            if i is None:
                res = 1.0 if residual is not None else None
                per[qid] = QueryBounds(qid, default, default, default, True, res)
            else:
                res = None if residual is None else float(residual[i])
                per[qid] = QueryBounds(qid, float(value[i]), float(lo[i]), float(hi[i]), bool(exact[i]), res)
        rows = list(per.values())
        n = max(len(rows), 1)
        out[m] = MeasureBounds(
            m,
            sum(r.value for r in rows) / n,
            sum(r.lo for r in rows) / n,
            sum(r.hi for r in rows) / n,
            all(r.exact for r in rows),
            per,
            None if residual is None else sum(r.residual or 0.0 for r in rows) / n,
        )
    return out
