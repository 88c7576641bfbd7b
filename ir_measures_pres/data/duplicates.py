"""Duplicate (query, document) lines: the last line of each pair wins, as in ir_measures' dicts.

One place for the rule, used by the TREC readers (with line numbers in their warning) and by the
ranking builder for in-memory columns. ``str`` ids are checked with one C-level ``set`` per query;
bytes ids with a vectorised hash filter whose candidates are confirmed exactly.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from .arrays import doc_keys, offsets_from_counts, segment_of

# (keep mask, lines dropped, first dropped line, every line of its (query, doc) pair)
_Dups = Tuple[np.ndarray, int, int, List[int]]


def find_duplicates(codes: np.ndarray, docs: np.ndarray, nq: int) -> Optional[_Dups]:
    """(keep mask, lines dropped, first dropped line, every line of its pair), or None.

    ``codes`` are the lines' query codes (0 .. nq - 1), ``docs`` their ids (str or bytes).
    """
    if docs.dtype.kind == "S":
        return _duplicates_bytes(codes, docs, nq)
    return _duplicates_str(codes, docs, nq)


def query_segments(codes: np.ndarray, nq: int) -> Tuple[Optional[np.ndarray], np.ndarray]:
    """(line order or None, offsets): the lines grouped by query, lines in file order within a
    query; the queries in file order when each query's lines are contiguous (order None), else
    in code order."""
    n = len(codes)
    change = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    if len(change) + 1 == nq:  # each query's lines are contiguous (the usual case)
        return None, np.concatenate(([0], change, [n]))
    order = np.argsort(codes, kind="stable")
    offsets = offsets_from_counts(np.bincount(codes, minlength=nq))
    return order, offsets


def _duplicates_str(codes: np.ndarray, docs: np.ndarray, nq: int) -> Optional[_Dups]:
    n = len(codes)
    order, offsets = query_segments(codes, nq)
    keep: Optional[np.ndarray] = None
    dropped = 0
    example: Optional[Tuple[int, List[int]]] = None
    for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist()):
        idx = None if order is None else order[a:b]
        seg = (docs[a:b] if idx is None else docs[idx]).tolist()
        if len(set(seg)) == len(seg):
            continue
        last = dict(zip(seg, range(len(seg))))
        seg_keep = np.zeros(len(seg), dtype=bool)
        seg_keep[np.fromiter(last.values(), dtype=np.int64, count=len(last))] = True
        if keep is None:
            keep = np.ones(n, dtype=bool)
        positions = np.arange(a, b) if idx is None else idx
        keep[positions] = seg_keep
        dropped += len(seg) - len(last)
        if example is None:
            j = int(np.flatnonzero(~seg_keep)[0])
            doc = seg[j]
            example = (int(positions[j]), [int(p) for p, d in zip(positions.tolist(), seg) if d == doc])
    if keep is None:
        return None
    assert example is not None
    return keep, dropped, example[0], example[1]


# lines per chunk of whole queries in the duplicate filter (its tables stay in cache)
DUP_CHUNK = 1 << 15


def _duplicates_bytes(codes: np.ndarray, docs: np.ndarray, nq: int) -> Optional[_Dups]:
    """Duplicates among bytes ids without a Python object per line.

    A duplicate pair has equal (query, doc), so equal 64-bit hash keys. The lines are taken in
    chunks of whole queries (about ``DUP_CHUNK`` lines); in each, a line whose key's bucket
    (some bits of the key, a table 16 times the chunk) holds no other line of the chunk cannot
    have a duplicate: this is checked with a last-writer table (``slot[bucket] = line``, read
    back), three times with other bits, leaving a few candidates per chunk. The candidates are
    then compared exactly (query code and bytes, by sorting them), so the hash decides speed
    only, never the result.
    """
    n = len(codes)
    if n < 2:
        return None
    order, offsets = query_segments(codes, nq)
    bounds = offsets[np.unique(np.searchsorted(offsets, np.arange(0, n, DUP_CHUNK)))]
    bounds = np.unique(np.append(bounds, n)).tolist()
    keys = doc_keys(docs, codes)  # one vectorised pass; the chunks below only read it
    slot = np.zeros(0, dtype=np.intp)
    mark = np.zeros(0, dtype=bool)
    found: List[np.ndarray] = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        if b - a < 2:
            continue
        lines = np.arange(a, b) if order is None else order[a:b]
        h = keys[a:b] if order is None else keys[lines]
        bits = max(10, (b - a).bit_length() + 4)
        if len(slot) < 1 << bits:
            slot = np.zeros(1 << bits, dtype=np.intp)
            mark = np.zeros(1 << bits, dtype=bool)
        mask = np.uint64((1 << bits) - 1)
        for r in range(3):
            bucket = ((h >> np.uint64(max(0, 64 - (r + 1) * bits))) & mask).astype(np.intp)
            slot[bucket] = lines
            lost = bucket[slot[bucket] != lines]  # buckets holding more than one line
            if not len(lost):
                lines = lines[:0]
                break
            mark[lost] = True
            sel = mark[bucket]
            mark[lost] = False
            lines, h = lines[sel], h[sel]
        if len(lines):
            found.append(lines)
    if not found:
        return None
    cand = np.concatenate(found)
    cc, cd = codes[cand], docs[cand]
    o = np.lexsort((cand, cd, cc))  # by query, id, line
    cand, cc, cd = cand[o], cc[o], cd[o]
    same_next = (cc[1:] == cc[:-1]) & (cd[1:] == cd[:-1])
    if not same_next.any():
        return None
    drop = cand[:-1][same_next]  # every line of a pair but its last
    keep = np.ones(n, dtype=bool)
    keep[drop] = False
    # the example, as _duplicates_str takes it: the first query segment (in file order when each
    # query is contiguous, else in code order) with a duplicate, its first dropped line
    segment = codes[drop] if order is not None else segment_of(drop, offsets)
    first = int(drop[np.lexsort((drop, segment))[0]])
    group = (cc == codes[first]) & (cd == docs[first])
    return keep, len(drop), first, cand[group].tolist()
