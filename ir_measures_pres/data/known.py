"""The documents a user already knows (K), for the user-oriented measures of the textbook's
evaluation chapter (``Coverage(known=FILE)`` ...; :mod:`ir_measures_pres.measures.textbook.measures`).

K is read from a qrels-format file through the package's qrels reader (only its query and
document columns matter; an unreadable or malformed file is an input error naming the file and
line) and joined with the qrels once: K ∩ R, per qrels query, as a :class:`Qrels` aligned with
them (label 1 for each document of K ∩ R).
"""

from __future__ import annotations

import functools
import os
from typing import Dict, List, Tuple

import numpy as np

from .arrays import offsets_from_counts
from .qrels import Qrels

__all__ = ["known_relevant"]


@functools.lru_cache(maxsize=8)
def _read_known(path: str, stamp: Tuple[int, int]) -> Qrels:
    """The file of K, read once while it is unchanged (``stamp``: its mtime and size), however
    many qrels (the reduced copies of a meta-evaluation) ask for it."""
    from .readers import read_qrels

    return Qrels.from_any(read_qrels(path))


def known_relevant(qrels: Qrels, path: str, rel: int) -> Qrels:
    """K ∩ R as qrels aligned with ``qrels`` (every query, label 1 for each document of K ∩ R),
    made once per qrels. An unreadable file is an input error naming it (the readers')."""

    def make() -> Qrels:
        try:
            info = os.stat(path)
            stamp = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = (0, 0)  # the reader says what is wrong with it
        known = _read_known(path, stamp)
        lookup: List[Dict[str, int]] = []
        for qid, docs in zip(qrels.query_ids, qrels.lookup):
            i = known.index.get(qid)
            k = known.lookup[i] if i is not None else {}
            lookup.append({d: 1 for d, v in docs.items() if v >= rel and d in k})
        sizes = np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup))
        labels = np.ones(int(sizes.sum()), dtype=np.int64)
        return Qrels(list(qrels.query_ids), offsets_from_counts(sizes), labels, lookup)

    return qrels.cached(("known", path, rel), make)  # type: ignore[no-any-return]
