"""The one per-topic array type: entries grouped by topic in CSR style.

A ranked run (:class:`~.ranking.RankedRun`), its judged documents (:class:`JudgedList`),
trec_eval's relevance lists (:mod:`ir_measures_pres.measures.trec_eval.lists`), the diversity
lists (:mod:`ir_measures_pres.measures.diversity.kernels`) and the TAR screening lists
(:mod:`ir_measures_pres.measures.tar.screening`) all hold one array per entry, grouped by
topic: the entries of topic ``i`` are ``offsets[i]:offsets[i + 1]``, in rank (or file) order.
:class:`PerTopic` gives each of them, from ``offsets`` alone, what every kernel asks of such
arrays: the topic of every entry (``qidx``), the 1-based position of every entry within its
topic (``within_rank``), the number of entries per topic (``sizes``), per-topic sums, counts,
running sums and first/last entries, the offsets of a subset, and a memo of derived arrays
(``cached``) that lives as long as the arrays. Everything is vectorised over the offsets: no
Python code runs per entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from .arrays import cumsum_within, offsets_from_counts, ranks_within, segment_ids

__all__ = ["JudgedList", "PerTopic", "RankedLists"]


class PerTopic:
    """Entries grouped by topic: ``offsets`` (CSR, length topics + 1) is all a subclass gives.

    The derived arrays are made on first use and kept (:meth:`cached`): a subclass must not
    change ``offsets`` once they are made (none does: a subset is a new object)."""

    offsets: np.ndarray

    @property
    def memo(self) -> Dict[Any, Any]:
        """The memo of derived arrays (:meth:`cached`), made on first use."""
        memo = self.__dict__.get("_cache")
        if memo is None:
            memo = self.__dict__["_cache"] = {}
        return memo  # type: ignore[no-any-return]

    def cached(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make()`` gives, made once for these arrays and kept under ``key``: the kernels'
        shared intermediate arrays (walks, running sums, per-measure tables)."""
        memo = self.memo
        if key not in memo:
            memo[key] = make()
        return memo[key]

    @property
    def num_topics(self) -> int:
        return len(self.offsets) - 1

    @property
    def sizes(self) -> np.ndarray:
        """Entries per topic."""
        return np.diff(self.offsets)

    @property
    def qidx(self) -> np.ndarray:
        """Topic index of every entry (made once)."""
        return self.cached("qidx", lambda: segment_ids(self.offsets))  # type: ignore[no-any-return]

    @property
    def within_rank(self) -> np.ndarray:
        """1-based position of every entry within its topic (made once)."""
        return self.cached("within_rank", lambda: ranks_within(self.offsets, self.qidx))  # type: ignore[no-any-return]

    def kept_offsets(self, keep: np.ndarray) -> np.ndarray:
        """The offsets of the entries where ``keep`` holds (every topic kept, maybe empty)."""
        return offsets_from_counts(np.bincount(self.qidx[keep], minlength=self.num_topics))

    def at_rank(self, values: np.ndarray, k: Any, topics: Optional[np.ndarray] = None) -> np.ndarray:
        """Per topic (or per entry of ``topics``, topic indices), ``values`` (one per entry, a
        running sum for example) at rank ``k`` (one per topic asked, or one number), ``k``
        clipped to the topic's size; 0 where ``k`` is 0 or the topic empty."""
        starts, sizes = self.offsets[:-1], self.sizes
        if topics is not None:
            starts, sizes = starts[topics], sizes[topics]
        k = np.minimum(k, sizes)
        out = np.zeros(len(sizes), dtype=values.dtype)
        has = k > 0
        out[has] = values[starts[has] + k[has] - 1]
        return out

    def count_before(self, mask: np.ndarray) -> np.ndarray:
        """Per entry, the entries of its topic before it where ``mask`` holds (exclusive)."""
        total = np.cumsum(mask)
        return total - mask - np.concatenate([[0], total])[self.offsets[:-1]][self.qidx]  # type: ignore[no-any-return]

    def sum(self, values: np.ndarray) -> np.ndarray:
        """Per-topic sum of one value per entry, added in entry order."""
        return np.bincount(self.qidx, weights=values, minlength=self.num_topics)

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Per topic, the entries where ``mask`` holds."""
        return np.bincount(self.qidx[mask], minlength=self.num_topics).astype(np.int64)

    def cumsum(self, values: np.ndarray) -> np.ndarray:
        """Within-topic inclusive running sum of one value per entry."""
        return cumsum_within(values, self.offsets)

    def first(self, mask: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """(topics having an entry in ``mask``, index of their first such entry)."""
        idx = np.flatnonzero(mask)
        topics, first = np.unique(self.qidx[idx], return_index=True)
        return topics, idx[first]

    def first_of(self, mask: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per topic, ``values`` at its first entry in ``mask`` (0 where none)."""
        out = np.zeros(self.num_topics, dtype=np.float64)
        idx = np.flatnonzero(mask)
        if len(idx):
            q = self.qidx[idx]
            first = np.insert(q[1:] != q[:-1], 0, True)
            out[q[first]] = values[idx[first]]
        return out

    def last_of(self, mask: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per topic, ``values`` at its last entry in ``mask`` (0 where none)."""
        out = np.zeros(self.num_topics, dtype=np.float64)
        idx = np.flatnonzero(mask)
        if len(idx):
            q = self.qidx[idx]
            last = np.append(q[1:] != q[:-1], True)
            out[q[last]] = values[idx[last]]
        return out


class RankedLists(PerTopic):
    """Per-topic lists whose entries stand at ranks 1, 2, ... of their topic (a ranked run,
    trec_eval's lists, the diversity and screening lists): ``lengths`` and ``rank`` by name."""

    @property
    def lengths(self) -> np.ndarray:
        """The length of every topic's list."""
        return self.sizes

    @property
    def rank(self) -> np.ndarray:
        """1-based rank of every entry within its topic's list."""
        return self.within_rank


@dataclass
class JudgedList(PerTopic):
    """The judged documents of a ranked run: all that a kernel needs besides list lengths.

    Unjudged documents (absent from the qrels, or labelled < 0) only occupy ranks, so a kernel
    never has to touch them: it sees, per ranked query ``i``, the entries
    ``offsets[i]:offsets[i + 1]`` with their 1-based ``rank`` in the list the measure sees and
    their ``label``, plus ``lengths[i]``, the length of that list. A run of 1,000 documents per
    query with 65 judged each is 15 times smaller in this form.
    """

    qpos: np.ndarray
    lengths: np.ndarray
    offsets: np.ndarray
    rank: np.ndarray
    label: np.ndarray

    @property
    def num_queries(self) -> int:
        return len(self.qpos)

    def subset(self, keep: np.ndarray) -> "JudgedList":
        """Entries where ``keep`` is true (list lengths unchanged)."""
        return JudgedList(self.qpos, self.lengths, self.kept_offsets(keep), self.rank[keep], self.label[keep])
