"""The search over m of the bounds over unjudged documents (:mod:`.bounds`): max over m of
V(top-m) and min over m of V(bottom-m), m = 0 .. u the unjudged documents made relevant, with
as few completions scored by the measure's kernel as the measure's facts allow.

A branch and bound over the integers 0 .. u of each ranked query, all queries in each numpy
step. A *piece* ``[a, b]`` of m is kept with the values at its ends (scored) and a bound on V
over the m strictly inside; each round, per query, the :data:`PER_ROUND` pieces with the best
bounds are split into up to :data:`SPLIT` pieces, scored exactly at the new ends, and the new
pieces bounded; a piece is dropped once its bound cannot beat the best exact value of its query
(within :data:`TOLERANCE`). Best-first, so the best value is found early and most pieces are
dropped unsplit. The bound of a piece, by what the measure is (``BoundPlan`` in :mod:`.bounds`):

* **N(E) / (c R)** (AP, R@k, PRES; ``plan.per_relevant``): N is non-decreasing in the set E of
  relevant retrieved documents, and the sets of the top-m (bottom-m) completions grow with m.
  For a < m < b, N(m) <= N(b) and R = R0 + m >= R0 + a + 1, so V(top-m) <= V(top-b) (R0 + b) /
  (R0 + a + 1); and V(bottom-m) >= V(bottom-a) (R0 + a) / (R0 + b - 1). No completion scored.
* **and N concave along the top-m completions, convex along the bottom-m** (R@k, PRES;
  ``plan.concave``): tighter, from the chords of the pieces beside it (:func:`envelope_bound`).
* **another monotone measure** (nDCG, Q): one *decoupled* completion scored by the kernel,
  V(E = top-(b - 1), R = R0 + a + 1) (top) or V(E = bottom-(a + 1), R = R0 + b - 1) (bottom).
* **not monotone** (Rprec, R_norm, PRES_est): no bound; every m is scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Tuple

import numpy as np

from ..data.arrays import offsets_from_counts, segment_ids

if TYPE_CHECKING:
    from .bounds import BoundPlan, _Layout

__all__ = ["PER_ROUND", "SPLIT", "TOLERANCE", "branch_and_bound", "envelope_bound"]

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
    layout: "_Layout",
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


def branch_and_bound(
    layout: "_Layout", plan: "BoundPlan", top: bool, ends: np.ndarray, n_relevant: np.ndarray
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
    # per piece: query, ends, their values, the bound inside, the chords beside (none known)
    q, a, b = wide, np.zeros(len(wide), np.int64), layout.u[wide]
    va, vb = ends[:nq][wide], ends[nq:][wide]
    bound = np.full(len(q), np.inf)
    left = np.full(len(q), np.inf if top else 0.0)
    right = np.full(len(q), 0.0 if top else np.inf)
    per_round = PER_ROUND if plan.monotone else np.iinfo(np.int64).max
    while len(q):
        alive = bound > best[q] + TOLERANCE * np.maximum(1.0, np.abs(best[q]))
        # per query, the pieces with the best bounds first
        order = np.flatnonzero(alive)[np.lexsort((-bound[alive], q[alive]))]
        q, a, b, va, vb, bound, left, right = (x[order] for x in (q, a, b, va, vb, bound, left, right))
        if not len(q):
            break
        heads = np.r_[0, np.flatnonzero(q[1:] != q[:-1]) + 1]
        place = np.arange(len(q)) - np.repeat(heads, np.diff(np.r_[heads, len(q)]))
        chosen = place < per_round
        rest = [x[~chosen] for x in (q, a, b, va, vb, bound, left, right)]
        q, a, b, va, vb, left, right = (x[chosen] for x in (q, a, b, va, vb, left, right))
        # split each chosen piece at k + 1 points (its ends and k - 1 inside), scored inside
        k = np.minimum(SPLIT, b - a)
        starts = offsets_from_counts(k + 1)
        piece = segment_ids(starts)
        i = np.arange(len(piece)) - starts[:-1][piece]
        points = a[piece] + (i * (b - a)[piece]) // k[piece]
        pq = q[piece]
        inner = (i > 0) & (i < k[piece])
        values = np.where(i == 0, va[piece], vb[piece])
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
                top, r0, pq, points, values, has_next, i[sub] == 0, sub, left[piece], right[piece]
            )
        else:
            sub_left = sub_right = np.zeros(len(sub))
        inside = _piece_bounds(
            layout, plan, top, r0, sub_q, sub_a, sub_b, sub_va, sub_vb, sub_left, sub_right
        )
        fresh = (sub_q, sub_a, sub_b, sub_va, sub_vb, sign * inside, sub_left, sub_right)
        q, a, b, va, vb, bound, left, right = (np.r_[old, new] for old, new in zip(rest, fresh))
    return sign * best
