"""The search over m of the bounds over unjudged documents (:mod:`.bounds`): max over m of
V(top-m) and min over m of V(bottom-m), m = 0 .. u the unjudged documents made relevant, with
as few completions scored by the measure's kernel as the measure's facts allow.

A branch and bound over the integers 0 .. u of each ranked query, all queries in each numpy
step. A *piece* ``[a, b]`` of m is kept with the values at its ends (scored) and a bound on V
over the m strictly inside; each round, per query, the :data:`PER_ROUND` pieces with the best
bounds are split into up to :data:`SPLIT` pieces, scored exactly at the new ends, and the new
pieces bounded; a piece is dropped once its bound cannot beat the best exact value of its query
(within :data:`TOLERANCE`). Best-first, so the best value is found early and most pieces are
dropped unsplit. The bound of a piece, by what the measure is (``BoundPlan`` in :mod:`.bounds_layout`):

* **N(E) / (c R)** (AP, R@k, PRES; ``plan.per_relevant``): N is non-decreasing in the set E of
  relevant retrieved documents, and the sets of the top-m (bottom-m) completions grow with m.
  For a < m < b, N(m) <= N(b) and R = R0 + m >= R0 + a + 1, so V(top-m) <= V(top-b) (R0 + b) /
  (R0 + a + 1); and V(bottom-m) >= V(bottom-a) (R0 + a) / (R0 + b - 1). No completion scored.
* **and N concave along the top-m completions, convex along the bottom-m** (R@k, PRES;
  ``plan.concave``): tighter, from the chords of the pieces beside it (:func:`envelope_bound`).
  With rho_m the rank of the m-th unjudged document from the top (from the bottom), J the
  judged relevant documents within the cutoff and j the unjudged ones marked within it before
  rho_m, the step N(m) - N(m - 1) is, for R@k (N = |E within k|): top, 1 while rho_m <= k, then
  0; bottom, 0 while rho_m > k, then 1. For PRES (N = sum over E, i-th by rank, of
  N_max - r_i + i, each term >= i > 0; c = N_max): top, N_max + J + m - rho_m, which falls as
  rho_m grows by at least 1 a step; bottom, 0 beyond the cutoff, then N_max + J + 1 + j - rho_m,
  which grows as rho_m falls. AP's steps go either way (not concave).
* **another monotone measure** (nDCG, Q): one *decoupled* completion scored by the kernel,
  V(E = top-(b - 1), R = R0 + a + 1) (top) or V(E = bottom-(a + 1), R = R0 + b - 1) (bottom).
* **not monotone** (Rprec, R_norm, PRES_est): no bound; every m is scored.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Tuple

import numpy as np

from ..data.arrays import offsets_from_counts, segment_ids

if TYPE_CHECKING:
    from .bounds_layout import BoundPlan, Layout

__all__ = ["PER_ROUND", "SPLIT", "TOLERANCE", "Pieces", "branch_and_bound", "envelope_bound"]

#: prune a piece whose bound is within this of the best value found (relative to max(1, |best|))
TOLERANCE = 1e-12
#: pieces a piece of m is split into at each round of the branch and bound
SPLIT = 3
#: pieces of one query split per round (best bounds first)
PER_ROUND = 8
#: the rounding of :func:`envelope_bound`'s lines: this much of N for each step of m they span
ROUNDING = 1e-15


def envelope_bound(
    top: bool,
    r0: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    na: np.ndarray,
    nb: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
) -> np.ndarray:
    """For a measure N / (c R) with N concave along the top-m completions (``top``; convex along
    the bottom-m ones), a bound on V = N / (c (R0 + m)) over the m strictly between a and b.

    ``na``, ``nb``: N / c at a and b; ``left``, ``right``: the slopes of chords of N / c left
    and right of the piece (+inf or 0 where none is known). Concave, N's steps inside are at
    most ``left`` and at least ``right``, so N lies below both lines na + (m - a) left and
    nb - (b - m) right (convex: the steps are at least ``left`` and at most ``right``, and N
    lies above both). Each line over R0 + m is monotone in m, so the max (min) over the
    integers of the nearer line over R0 + m is at a + 1, b - 1 or beside the lines' crossing:
    those four are tried. Returns an upper (lower) bound, widened by the lines' rounding."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        cross = (nb - na - b * right + a * left) / (left - right)
        cross = np.clip(np.where(np.isfinite(cross), cross, a + 1.0), a + 1.0, b - 1.0)
        found = None
        for m in (a + 1.0, b - 1.0, np.floor(cross), np.ceil(cross)):
            line_a, line_b = na + (m - a) * left, nb - (b - m) * right
            v = (np.minimum(line_a, line_b) if top else np.maximum(line_a, line_b)) / (r0 + m)
            found = v if found is None else (np.maximum(found, v) if top else np.minimum(found, v))
    assert found is not None
    margin = ROUNDING * (b - a) * np.maximum(1.0, np.abs(nb)) / (r0 + a + 1.0)
    return found + margin if top else found - margin  # type: ignore[no-any-return]


def _piece_bounds(
    layout: "Layout",
    plan: "BoundPlan",
    top: bool,
    r0: np.ndarray,
    q: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    va: np.ndarray,
    vb: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
) -> np.ndarray:
    """The bound on V over the m strictly inside each piece (query ``q``, ends ``a`` < ``b`` with
    values ``va``, ``vb``; ``left``, ``right``: the chords beside it, when ``plan.concave``)."""
    if plan.concave:
        return envelope_bound(top, r0[q], a, b, va * (r0[q] + a), vb * (r0[q] + b), left, right)
    if plan.per_relevant:
        if top:  # N(m) <= N(b), R0 + m >= R0 + a + 1
            return vb * (r0[q] + b) / (r0[q] + a + 1)  # type: ignore[no-any-return]
        return va * (r0[q] + a) / (r0[q] + b - 1)  # type: ignore[no-any-return]  # N(m) >= N(a)
    if plan.monotone and len(q):
        e = b - 1 if top else a + 1
        r = a + 1 if top else b - 1
        return layout.score(plan, q, np.full(len(q), top), e, r)
    return np.full(len(q), np.inf if top else -np.inf)


def _chords_beside(
    top: bool,
    r0: np.ndarray,
    pq: np.ndarray,
    points: np.ndarray,
    values: np.ndarray,
    has_next: np.ndarray,
    first: np.ndarray,
    sub: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
) -> Tuple[np.ndarray, np.ndarray]:
    """The slopes of N / c left and right of each new piece ``[points[sub], points[sub + 1]]``:
    the chords of its neighbours in the split, or its parent's (``left``, ``right``, per point)
    at the split's ends. N only grows: a chord rounding made negative says no more than 0."""
    n = values * (r0[pq] + points)
    t = np.flatnonzero(has_next)
    chord = np.full(len(points), np.nan)
    chord[t] = (n[t + 1] - n[t]) / (points[t + 1] - points[t])
    last = ~has_next[sub + 1]
    sub_left = np.where(first, left[sub], chord[np.maximum(sub - 1, 0)])
    sub_right = np.where(last, right[sub], chord[np.minimum(sub + 1, len(points) - 1)])
    if top:
        return sub_left, np.maximum(sub_right, 0.0)
    return np.maximum(sub_left, 0.0), sub_right


@dataclass(frozen=True)
class Pieces:
    """Pieces ``[a, b]`` of m, one per row of parallel arrays: the ranked query ``q``, the ends
    and their exact values ``va``, ``vb``, the bound on V strictly inside (times the side's
    sign: larger is more promising) and the slopes of the chords ``left`` and ``right`` of it."""

    q: np.ndarray
    a: np.ndarray
    b: np.ndarray
    va: np.ndarray
    vb: np.ndarray
    bound: np.ndarray
    left: np.ndarray
    right: np.ndarray

    def __len__(self) -> int:
        return len(self.q)

    def take(self, rows: np.ndarray) -> "Pieces":
        """The pieces of ``rows`` (a mask or indices), in that order."""
        return Pieces(*(getattr(self, f.name)[rows] for f in fields(self)))

    def concat(self, other: "Pieces") -> "Pieces":
        """These pieces, then ``other``."""
        return Pieces(*(np.r_[getattr(self, f.name), getattr(other, f.name)] for f in fields(self)))


def branch_and_bound(
    layout: "Layout", plan: "BoundPlan", top: bool, ends: np.ndarray, n_relevant: np.ndarray
) -> np.ndarray:
    """max over m of V(top-m) (``top``) or min over m of V(bottom-m), per ranked query.

    ``ends``: V(0) then V(u) per query (no unjudged document relevant, every one: the same
    completions from the top and from the bottom); ``n_relevant``: R0, the query's relevant
    documents in the qrels as the kernel counts them (the module docstring has the rest)."""
    nq = layout.ranked.num_queries
    sign = 1.0 if top else -1.0
    best = np.maximum(sign * ends[:nq], sign * ends[nq:])  # V(0) and V(u), the same both sides
    wide = np.flatnonzero(layout.u >= 2)
    r0 = n_relevant.astype(np.float64)
    # one piece [0, u] per query with an m inside: no bound known inside, no chord beside
    pieces = Pieces(
        wide,
        np.zeros(len(wide), np.int64),
        layout.u[wide],
        ends[:nq][wide],
        ends[nq:][wide],
        np.full(len(wide), np.inf),
        np.full(len(wide), np.inf if top else 0.0),
        np.full(len(wide), 0.0 if top else np.inf),
    )
    per_round = PER_ROUND if plan.monotone else np.iinfo(np.int64).max
    while len(pieces):
        q, bound = pieces.q, pieces.bound
        alive = bound > best[q] + TOLERANCE * np.maximum(1.0, np.abs(best[q]))
        # per query, the pieces with the best bounds first
        pieces = pieces.take(np.flatnonzero(alive)[np.lexsort((-bound[alive], q[alive]))])
        if not len(pieces):
            break
        q = pieces.q
        heads = np.r_[0, np.flatnonzero(q[1:] != q[:-1]) + 1]
        place = np.arange(len(q)) - np.repeat(heads, np.diff(np.r_[heads, len(q)]))
        chosen = place < per_round
        rest, split = pieces.take(~chosen), pieces.take(chosen)
        q, a, b = split.q, split.a, split.b
        # split each chosen piece at k + 1 points (its ends and k - 1 inside), scored inside
        k = np.minimum(SPLIT, b - a)
        starts = offsets_from_counts(k + 1)
        piece = segment_ids(starts)
        i = np.arange(len(piece)) - starts[:-1][piece]
        points = a[piece] + (i * (b - a)[piece]) // k[piece]
        pq = q[piece]
        inner = (i > 0) & (i < k[piece])
        values = np.where(i == 0, split.va[piece], split.vb[piece])
        at = points[inner]
        values[inner] = layout.score(plan, pq[inner], np.full(len(at), top), at, at)
        np.maximum.at(best, pq[inner], sign * values[inner])
        # the new pieces [points[t], points[t + 1]] with an m strictly inside
        has_next = np.r_[i[1:] != 0, False]
        t = np.flatnonzero(has_next)
        sub = t[points[t + 1] - points[t] >= 2]
        sub_q, sub_a, sub_b = pq[sub], points[sub], points[sub + 1]
        sub_va, sub_vb = values[sub], values[sub + 1]
        if plan.concave:
            sub_left, sub_right = _chords_beside(
                top, r0, pq, points, values, has_next, i[sub] == 0, sub, split.left[piece], split.right[piece]
            )
        else:
            sub_left = sub_right = np.zeros(len(sub))
        inside = _piece_bounds(
            layout, plan, top, r0, sub_q, sub_a, sub_b, sub_va, sub_vb, sub_left, sub_right
        )
        fresh = Pieces(sub_q, sub_a, sub_b, sub_va, sub_vb, sign * inside, sub_left, sub_right)
        pieces = rest.concat(fresh)
    return sign * best
