"""The ranking rule of trec_eval 9 as pytrec_eval runs it, over per-query segments: score
descending, the scores compared as IEEE single precision (:func:`ranking_scores`), ties broken by
document id descending, comparing ids as byte strings. :mod:`.ranking` builds the ranked runs
with it; this module holds only the order.
"""

from __future__ import annotations

from itertools import repeat
from typing import Callable, Optional, Tuple

import numpy as np

from .arrays import segment_of
from .inputs import object_array

__all__ = ["rank_order", "rank_segments", "ranking_scores"]


def ranking_scores(scores: np.ndarray) -> np.ndarray:
    """Scores as the ranking compares them: IEEE single precision, as pytrec_eval stores them.

    trec_eval 9 (pytrec_eval) keeps a run's scores as C ``float``, so two scores that differ only
    beyond float32 precision (``100000.002`` and ``100000.001``) tie and the doc id decides;
    scores beyond float32's range become +-inf and tie with each other the same way. Ranking by
    float64 here would hand our measures another list than the standard measures of the same
    call. (trec_eval 10.0 keeps doubles; we follow pytrec_eval, see docs/conventions.md.)
    """
    with np.errstate(over="ignore", under="ignore"):
        return np.asarray(scores).astype(np.float32)


def rank_segments(
    scores: np.ndarray,
    docs_at: Callable[[np.ndarray], np.ndarray],
    offsets: np.ndarray,
    exact: bool = False,
) -> Optional[np.ndarray]:
    """The trec_eval order of each segment (a permutation of all positions), or None when every
    segment is in that order already (as a run written by a retrieval system usually is).

    Sorting is per query segment, so only a loop over queries runs in Python; a segment already
    in score order (as TREC files usually are) is not sorted at all. Documents tied on score are
    then ordered by id descending, all ties of the run in one vectorised pass.
    """
    return rank_order(scores, docs_at, offsets, exact)[0]


def rank_order(
    scores: np.ndarray,
    docs_at: Callable[[np.ndarray], np.ndarray],
    offsets: np.ndarray,
    exact: bool = False,
) -> Tuple[Optional[np.ndarray], np.ndarray]:
    """:func:`rank_segments`'s order, and the scores as the ranking compares them
    (:func:`ranking_scores`, or float64 as given when ``exact``) in that order."""
    n = len(scores)
    compared = (lambda v: np.asarray(v, dtype=np.float64)) if exact else ranking_scores
    if n == 0:
        return None, compared(scores)
    scores = compared(scores)
    descending = scores[1:] <= scores[:-1]
    # a break in descending order inside a segment means that segment needs sorting
    boundary = np.zeros(n - 1, dtype=bool)
    inner = offsets[1:-1]
    boundary[inner[(inner > 0) & (inner < n)] - 1] = True
    unsorted = np.flatnonzero(~descending & ~boundary)
    order = None
    s = scores
    if len(unsorted):
        order = np.arange(n)
        segs = np.unique(segment_of(unsorted, offsets))
        for seg in segs.tolist():
            a, b = offsets[seg], offsets[seg + 1]
            order[a:b] = a + np.argsort(-scores[a:b], kind="stable")
        s = scores[order]
    tie = (s[1:] == s[:-1]) & ~boundary
    if tie.any():
        if order is None:
            order = np.arange(n)
        tied = np.zeros(n, dtype=bool)
        tied[:-1] |= tie
        tied[1:] |= tie
        pos = np.flatnonzero(tied)
        seg = segment_of(pos, offsets)
        tied_docs = docs_at(order[pos])
        if tied_docs.dtype.kind != "S":  # str ids: compare their UTF-8 bytes, as trec_eval does
            tied_docs = object_array(
                list(map(str.encode, tied_docs.tolist(), repeat("utf-8"), repeat("surrogateescape")))
            )
        _, doc_rank = np.unique(tied_docs, return_inverse=True)
        sub = np.lexsort((-doc_rank.reshape(-1), -s[pos], seg))
        order[pos] = order[pos][sub]  # within runs of equal scores: s stays the ranked scores
    return order, s
