"""Array helpers shared by the ranking builder, the readers and the meta-evaluation core:
CSR segment offsets, the segment of each position, running sums within segments, and 64-bit
keys of (query, bytes id) pairs; and how many CPUs the array work may spread over.

**Sums in the tool's order.** The tools the package reproduces (trec_eval, sample_eval.pl,
statAP_MQ_eval_v3.pl, NTCIREVAL, ir_measures' ``MeanAgg``) add one value after the other, left to
right. Floating-point addition is not associative: numpy's ``sum`` adds pairwise, ``np.add.reduceat``
too, Python's ``sum`` of floats compensates its error from Python 3.12 on, and a difference of two
running sums is not a sum; each can differ from the tool in the last bit, which a mean printed to
the tool's last digit sometimes shows. Wherever a printed number is a tool's sum or mean,
:func:`sum_in_order` (one sequence) and :func:`sums_in_order` / :func:`running_sums_in_order` (per
segment) add as the tool adds: numpy's accumulations (``cumsum``) add sequentially.
"""

from __future__ import annotations

import os
from itertools import repeat
from typing import Any, Optional

import numpy as np


def usable_cpus(at_most: int = 4) -> int:
    """CPUs this process may run on (its affinity, where the system tells), at most ``at_most``:
    the threads that parse a file and the processes that score runs side by side."""
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(at_most, available or 1))


def offsets_from_counts(counts: np.ndarray) -> np.ndarray:
    """CSR offsets (length ``len(counts) + 1``, starting at 0) of segments of the given sizes."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def segment_ids(offsets: np.ndarray, values: Optional[np.ndarray] = None) -> np.ndarray:
    """The segment (query) index of every position of CSR ``offsets``: ``[0, 0, 1, 2, 2, 2]``;
    given ``values`` (one per segment), the value of each position's segment instead."""
    counts = np.diff(offsets)
    return np.repeat(np.arange(len(counts)) if values is None else values, counts)


def ranks_within(offsets: np.ndarray, qidx: Optional[np.ndarray] = None) -> np.ndarray:
    """The 1-based rank of every position within its segment of CSR ``offsets``:
    ``[1, 1, 1, 2, 3]`` for offsets ``[0, 1, 2, 5]`` (``qidx``: :func:`segment_ids`, if at hand)."""
    qidx = segment_ids(offsets) if qidx is None else qidx
    return np.arange(1, len(qidx) + 1) - offsets[:-1][qidx]


def segment_of(positions: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The segment index of the given positions (any subset of them, in any order)."""
    return np.searchsorted(offsets, positions, side="right") - 1


def cumsum_within(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Inclusive running sum of ``values`` restarting at every segment of ``offsets``."""
    total = np.cumsum(values, dtype=np.float64)
    if not len(total):
        return total
    before = np.concatenate([[0.0], total])[offsets[:-1]]
    return total - segment_ids(offsets, before)


def running_sums_in_order(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Inclusive running sum of ``values`` within every segment of ``offsets``, each segment
    added left to right from 0 (as a tool's loop adds). :func:`cumsum_within` subtracts one
    running sum of the whole array, and ``np.add.reduceat`` adds in pairs: both can differ in the
    last bit. Here the segments are rows of a zero-padded matrix accumulated along its rows."""
    counts = np.diff(offsets)
    width = int(counts.max()) if len(counts) else 0
    if width == 0:
        return np.zeros(len(values))
    qidx = segment_ids(offsets)
    col = np.arange(len(values)) - offsets[:-1][qidx]
    grid = np.zeros((len(counts), width))
    grid[qidx, col] = values
    np.cumsum(grid, axis=1, out=grid)  # an accumulation: one addition after the other
    return grid[qidx, col]


def sum_in_order(values: Any) -> float:
    """The sum of ``values`` (a sequence of numbers) added left to right from 0.0, as a tool's
    loop adds (module docstring); 0.0 when empty."""
    array = np.asarray(values, dtype=np.float64)
    # + 0.0: the tool's sum starts at 0, so an all -0.0 sum is +0.0 there too
    return float(np.add.accumulate(array)[-1]) + 0.0 if len(array) else 0.0


def sums_in_order(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Per segment of ``offsets``, the sum of ``values`` added left to right from 0 (0 for an
    empty segment): ``np.bincount`` adds each weight to its segment's total in array order, one
    pass, no padded matrix."""
    counts = len(offsets) - 1
    return np.bincount(segment_ids(offsets), weights=values, minlength=counts).astype(np.float64)


_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of uint64 that spreads every input bit (in place:
    ``x`` must be an array the caller owns)."""
    tmp = np.empty_like(x)
    for shift, factor in ((30, _M2), (27, _M3), (31, None)):
        np.right_shift(x, np.uint64(shift), out=tmp)
        np.bitwise_xor(x, tmp, out=x)
        if factor is not None:
            np.multiply(x, factor, out=x)
    return x


def doc_keys(docs: np.ndarray, query: np.ndarray) -> np.ndarray:
    """A 64-bit key per (document id as zero-padded bytes, query index).

    The id's 8-byte words are folded in, trailing all-zero words skipped, so the key does not
    depend on the array's width (ids hold no NUL byte). Equal keys are only candidates: every
    match is confirmed by comparing the bytes and the query.
    """
    n, width = len(docs), docs.dtype.itemsize
    words = -(-width // 8)
    if width % 8 == 0 and docs.flags.c_contiguous:  # the reader's widths: no copy needed
        w = docs.view(np.uint64).reshape(n, words)
    else:
        buf = np.zeros((n, words * 8), dtype=np.uint8)
        buf[:, :width] = docs.view(np.uint8).reshape(n, width)
        w = buf.view(np.uint64)
    h = w[:, 0] * _M1
    for j in range(1, words):
        h = np.where(w[:, j] != 0, _mix(h ^ w[:, j]), h)
    h += query.astype(np.uint64) * _M3
    # a light finaliser (xor-shift, multiply, xor-shift: a bijection) brings the high bits the
    # multiplications filled down to the low bits the bitmap filters read
    tmp = h >> np.uint64(32)
    h ^= tmp
    h *= _M2
    np.right_shift(h, np.uint64(29), out=tmp)
    h ^= tmp
    return h


def ids_as_str(ids: np.ndarray) -> np.ndarray:
    """Document ids as an object array of ``str``: a bytes array (``'S'``, as ``doc_ids="bytes"``
    gives) is decoded as UTF-8 (``surrogateescape``, the readers' str mode); anything else is
    returned unchanged."""
    ids = np.asarray(ids)
    if ids.dtype.kind != "S":
        return ids
    n, width = len(ids), ids.dtype.itemsize
    out = np.empty(n, dtype=object)
    ids = np.ascontiguousarray(ids)
    raw = ids.view(np.uint8).reshape(n, width)
    step = 1 << 20  # bounded temporary UCS4 copies
    for a in range(0, n, step):
        part = raw[a : a + step]
        if (part < 128).all():  # ASCII: numpy makes the str objects as it assigns them
            out[a : a + step] = part.astype(np.uint32).view(f"U{width}").ravel()
        else:
            out[a : a + step] = list(
                map(bytes.decode, ids[a : a + step].tolist(), repeat("utf-8"), repeat("surrogateescape"))
            )
    return out
