"""The one ranked-relevance builder shared by every measure.

Everything a kernel needs about a run is built here, once per run:

* the **ranking rule** of trec_eval (and pytrec_eval): score descending, ties broken by
  document id descending, comparing ids as byte strings (Python ``str`` order is UTF-8 byte
  order); the rank column of a TREC file is ignored;
* the relevance label of every ranked document (``ABSENT`` when the qrels do not mention it);
* per-query offsets in CSR style: the documents of ranked query ``i`` are
  ``labels[offsets[i]:offsets[i + 1]]``, best first.

Kernels never sort and never look up relevance: they take a :class:`RankedRun` and the
:class:`Qrels` it was built against. The qrels-side work (grouping, per-query look-up tables)
lives in :class:`Qrels` and is done once per evaluator, not once per run.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ._arrays import cumsum_within, doc_keys, ids_as_str, offsets_from_counts
from ._duplicates import find_duplicates

__all__ = [
    "ABSENT",
    "Columns",
    "DocIndex",
    "InputError",
    "JudgedList",
    "Qrels",
    "RankedRun",
    "cumsum_within",
    "doc_keys",
    "offsets_from_counts",
    "rank_run",
]

#: Label given to a retrieved document that the qrels do not mention (unjudged).
ABSENT = np.iinfo(np.int64).min


class InputError(ValueError):
    """Qrels or run input that cannot be evaluated without guessing."""


# --------------------------------------------------------------------------------------------
# columns from the input types ir_measures accepts
# --------------------------------------------------------------------------------------------


def _str_column(values: Any) -> np.ndarray:
    """An object array of ``str`` ids (integer ids of a DataFrame become their decimal text)."""
    arr = np.asarray(values)
    if arr.dtype.kind in "iuUS":
        return arr.astype(str).astype(object)
    if arr.dtype.kind == "f":
        raise InputError("query and document ids must be strings or integers, found floats")
    arr = arr.astype(object, copy=False)
    if len(arr) and not all(type(v) is str for v in (arr[0], arr[-1])):
        arr = np.array([str(v) for v in arr], dtype=object)
    return arr


def _predict(obj: Any, kind: str) -> str:
    """'dict', 'frame', 'columns' or 'tuples' for a qrels/run object, as ir_measures accepts them."""
    if isinstance(obj, dict):
        return "dict"
    if hasattr(obj, "itertuples") and hasattr(obj, "columns"):
        return "frame"
    if isinstance(obj, Columns):
        return "columns"
    if hasattr(obj, "__iter__") and not isinstance(obj, (str, bytes)):
        return "tuples"
    raise InputError(
        f"unsupported {kind} input of type {type(obj).__name__}: expected a dict of dicts, a pandas "
        "DataFrame or an iterable of namedtuples"
    )


@dataclass
class Columns:
    """Columnar qrels or run lines: query ids, doc ids and a value (relevance or score).

    Readers (:mod:`ir_measures_pres.io`) produce these directly, so that a file never
    passes through Python objects per line.
    """

    query_ids: np.ndarray
    doc_ids: np.ndarray
    values: np.ndarray
    #: True when no (query, doc) pair repeats (a reader that already kept the last of each)
    unique_pairs: bool = False
    #: optional integer code of each line's query into ``query_names`` (spares a factorisation)
    query_codes: Optional[np.ndarray] = None
    query_names: Optional[List[str]] = None

    def __len__(self) -> int:
        return len(self.values)


def _frame_columns(df: Any, value_col: str, kind: str) -> Columns:
    missing = [c for c in ("query_id", "doc_id", value_col) if c not in df.columns]
    if missing:
        raise InputError(f"{kind} DataFrame is missing columns {missing} (found {list(df.columns)})")
    return Columns(
        _str_column(df["query_id"].to_numpy()),
        _str_column(df["doc_id"].to_numpy()),
        df[value_col].to_numpy(),
    )


def _tuple_columns(items: Iterable[Any], value_col: str, kind: str) -> Columns:
    qids: List[str] = []
    docs: List[str] = []
    vals: List[Any] = []
    for item in items:
        try:
            qids.append(item.query_id)
            docs.append(item.doc_id)
            vals.append(getattr(item, value_col))
        except AttributeError:
            raise InputError(
                f"{kind} items must be namedtuples with fields query_id, doc_id, {value_col}; found {item!r}"
            ) from None
    return Columns(
        _str_column(np.array(qids, dtype=object)), _str_column(np.array(docs, dtype=object)), np.asarray(vals)
    )


def _as_columns(obj: Any, kind: str, value_col: str, what: str) -> Columns:
    """Columns of a DataFrame, a namedtuple iterable or already-columnar input."""
    if kind == "frame":
        return _frame_columns(obj, value_col, what)
    if kind == "columns":
        return obj  # type: ignore[no-any-return]
    return _tuple_columns(obj, value_col, what)


def _group(cols: Columns) -> Tuple[List[str], Optional[np.ndarray], np.ndarray]:
    """Stable grouping of lines by query: (query ids, line order or None when the lines are
    already grouped, offsets)."""
    if cols.query_codes is not None and cols.query_names is not None:
        return _group_codes(np.asarray(cols.query_codes, dtype=np.int64), list(cols.query_names))
    try:
        import pandas as pd

        codes, uniques = pd.factorize(cols.query_ids)
        uniques = list(uniques)
    except ImportError:  # a core install without pandas: namedtuple or columnar inputs
        uniques_arr, first, codes = np.unique(
            cols.query_ids.astype(str), return_index=True, return_inverse=True
        )
        by_first = np.argsort(first)
        remap = np.empty_like(by_first)
        remap[by_first] = np.arange(len(by_first))
        codes = remap[codes]
        uniques = [str(u) for u in uniques_arr[by_first]]
    return _group_codes(np.asarray(codes, dtype=np.int64), uniques)


def _group_codes(codes: np.ndarray, uniques: List[str]) -> Tuple[List[str], Optional[np.ndarray], np.ndarray]:
    order = None
    if len(codes) and not np.all(codes[1:] >= codes[:-1]):
        order = np.argsort(codes, kind="stable")
    offsets = offsets_from_counts(np.bincount(codes, minlength=len(uniques)))
    return uniques, order, offsets


def _integral_labels(values: np.ndarray, kind: str = "qrels") -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64, copy=False)
    if arr.dtype.kind == "b":
        return arr.astype(np.int64)
    try:
        farr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{kind} relevance values must be integers") from None
    bad = ~np.isfinite(farr) | (farr != np.round(farr))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{kind} relevance values must be integers; found {arr[i]!r}")
    return farr.astype(np.int64)


# --------------------------------------------------------------------------------------------
# qrels
# --------------------------------------------------------------------------------------------


@dataclass
class Qrels:
    """Qrels grouped by query, with one ``{doc_id: label}`` look-up table per query.

    ``labels[offsets[i]:offsets[i + 1]]`` are the relevance values of query ``query_ids[i]``.
    Built once per evaluator and shared by every run it scores.
    """

    query_ids: List[str]
    offsets: np.ndarray
    labels: np.ndarray
    #: see :attr:`lookup` (None: made from the bytes ids on first use)
    _lookup: Optional[List[Dict[str, int]]]
    index: Dict[str, int] = field(init=False)
    _cache: Dict[Any, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {q: i for i, q in enumerate(self.query_ids)}

    @property
    def lookup(self) -> List[Dict[str, int]]:
        """Per query, ``{doc_id: label}`` in line order. Qrels read with bytes ids make it only
        when a run with ``str`` ids needs it: bytes ids are labelled through :meth:`doc_index`."""
        if self._lookup is None:
            docs = ids_as_str(self._cache["doc_bytes"]).tolist()
            values = self.labels.tolist()
            self._lookup = [
                dict(zip(docs[a:b], values[a:b]))
                for a, b in zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist())
            ]
        return self._lookup

    @classmethod
    def from_any(cls, qrels: Any) -> "Qrels":
        """Build from any qrels type ir_measures accepts (or from :class:`Columns`)."""
        if isinstance(qrels, Qrels):
            return qrels
        kind = _predict(qrels, "qrels")
        if kind == "dict":
            query_ids: List[str] = []
            lookup: List[Dict[str, int]] = []
            for qid, docs in qrels.items():
                first = next(iter(docs.items()), ("", 0))
                if type(first[0]) is not str or type(first[1]) is not int:
                    docs = {str(d): int(v) for d, v in docs.items()}
                query_ids.append(qid if type(qid) is str else str(qid))
                lookup.append(docs)
            return cls._from_lookup(query_ids, lookup)
        return cls.from_columns(_as_columns(qrels, kind, "relevance", "qrels"))

    @classmethod
    def _from_lookup(cls, query_ids: List[str], lookup: List[Dict[str, int]]) -> "Qrels":
        lengths = np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup))
        offsets = offsets_from_counts(lengths)
        labels = np.fromiter(
            chain.from_iterable(d.values() for d in lookup), dtype=np.int64, count=int(offsets[-1])
        )
        return cls(query_ids, offsets, labels, lookup)

    @classmethod
    def from_columns(cls, cols: Columns) -> "Qrels":
        values = _integral_labels(cols.values)
        query_ids, order, offsets = _group(cols)
        docs = _take(cols.doc_ids, order)
        values = _take(values, order)
        if docs.dtype.kind == "S" and cols.unique_pairs:
            # a reader's bytes ids (each pair once): the look-up tables wait until needed
            qrels = cls(query_ids, offsets, values, None)
            qrels._cache["doc_bytes"] = docs
            return qrels
        as_bytes = docs if docs.dtype.kind == "S" else None
        if as_bytes is not None:  # the look-up tables are keyed by str
            docs = ids_as_str(docs)
        lookup = []
        for i in range(len(query_ids)):
            a, b = offsets[i], offsets[i + 1]
            lookup.append(dict(zip(docs[a:b].tolist(), values[a:b].tolist())))
        # a doc judged twice for one query: the last line wins, as in ir_measures' dicts
        if sum(map(len, lookup)) != len(values):
            return cls._from_lookup(query_ids, lookup)
        qrels = cls(query_ids, offsets, values, lookup)
        if as_bytes is not None:  # the ids by line, as the bytes hash index wants them
            qrels._cache["doc_bytes"] = as_bytes
        return qrels

    # -- per-query statistics used by the kernels (cached: they depend on the qrels only) --

    @property
    def qidx(self) -> np.ndarray:
        """Query index of every qrels line."""
        if "qidx" not in self._cache:
            lengths = np.diff(self.offsets)
            self._cache["qidx"] = np.repeat(np.arange(len(self.query_ids)), lengths)
        return self._cache["qidx"]

    def count(self, lo: Optional[int] = None, hi: Optional[int] = None) -> np.ndarray:
        """Per query, the number of qrels lines with ``lo <= label < hi`` (a bound of None is open)."""
        key = ("count", lo, hi)
        if key not in self._cache:
            mask = np.ones(len(self.labels), dtype=bool)
            if lo is not None:
                mask &= self.labels >= lo
            if hi is not None:
                mask &= self.labels < hi
            self._cache[key] = np.bincount(self.qidx[mask], minlength=len(self.query_ids)).astype(np.int64)
        return self._cache[key]

    def doc_index(self) -> Optional["DocIndex"]:
        """The hash index that labels bytes document ids without Python objects (None when the
        ids cannot be indexed that way; the dict look-ups are used then)."""
        return self.cached("doc_index", lambda: _make_doc_index(self))  # type: ignore[no-any-return]

    def cached(self, key: Any, make: Any) -> Any:
        """Memoise a qrels-only quantity (for example ideal gains) under ``key``."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]


# --------------------------------------------------------------------------------------------
# ranked runs
# --------------------------------------------------------------------------------------------


@dataclass
class RankedRun:
    """A run sorted by the trec_eval rule, restricted to the queries of the qrels.

    ``qpos[i]`` is the qrels index of ranked query ``i``; its documents are
    ``labels[offsets[i]:offsets[i + 1]]`` (best first). Queries of the run that the qrels do
    not have are dropped; qrels queries that the run lacks are absent here (ir_measures gives
    them the measure's DEFAULT).
    """

    qrels: Qrels
    qpos: np.ndarray
    offsets: np.ndarray
    labels: np.ndarray
    #: document ids in ranked order (object array of str, or bytes array 'S'), see :attr:`docs`
    _docs: Optional[np.ndarray] = None
    _cache: Dict[Any, Any] = field(default_factory=dict, init=False, repr=False)
    _docs_factory: Optional[Callable[[], np.ndarray]] = field(default=None, init=False, repr=False)

    @property
    def docs(self) -> Optional[np.ndarray]:
        """Document ids in ranked order (for relabelling against other qrels); made on first use
        for a dict-of-dict run, whose ranking needs them only where scores tie."""
        if self._docs is None and self._docs_factory is not None:
            self._docs = self._docs_factory()
            self._docs_factory = None
        return self._docs

    @property
    def num_queries(self) -> int:
        return len(self.qpos)

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def qidx(self) -> np.ndarray:
        """Ranked-query index of every position."""
        if "qidx" not in self._cache:
            self._cache["qidx"] = np.repeat(np.arange(self.num_queries), self.lengths)
        return self._cache["qidx"]

    @property
    def rank(self) -> np.ndarray:
        """1-based rank of every position within its query."""
        if "rank" not in self._cache:
            self._cache["rank"] = np.arange(1, len(self.labels) + 1) - self.offsets[:-1][self.qidx]
        return self._cache["rank"]

    @property
    def judged(self) -> np.ndarray:
        """True where the document is judged (in the qrels with a label >= 0)."""
        return self.labels >= 0

    def qrels_stat(self, per_qrels_query: np.ndarray) -> np.ndarray:
        """Align a per-qrels-query array with the ranked queries."""
        return per_qrels_query[self.qpos]

    def view(self, judged_only: bool = False, cutoff: Optional[int] = None) -> "RankedRun":
        """The list a measure sees: unjudged documents dropped first (``judged_only``, the
        condensed list of trec_eval ``-J`` / NTCIREVAL ``-j``), then the top ``cutoff`` kept."""
        if not judged_only and cutoff is None:
            return self
        key = ("view", judged_only, cutoff)
        if key not in self._cache:
            base = self
            if judged_only:
                base = self._subset(self.judged)
            if cutoff is not None:
                base = base._subset(base.rank <= cutoff)
            self._cache[key] = base
        return self._cache[key]

    def judged_list(self, judged_only: bool = False, cutoff: Optional[int] = None) -> JudgedList:
        """The judged documents of the list a measure sees (sparse form of :meth:`view`):
        with ``judged_only`` the unjudged documents are dropped and ranks renumbered; then only
        ranks <= ``cutoff`` are kept."""
        key = ("judged", judged_only, cutoff)
        if key in self._cache:
            return self._cache[key]
        if judged_only or cutoff is not None:
            base = self.judged_list()
            lengths, rank = base.lengths, base.rank
            if judged_only:
                lengths = np.diff(base.offsets)
                rank = np.arange(1, len(rank) + 1) - np.repeat(base.offsets[:-1], lengths)
            out = JudgedList(base.qpos, lengths, base.offsets, rank, base.label)
            if cutoff is not None:
                out = out.subset(out.rank <= cutoff)
                out.lengths = np.minimum(out.lengths, cutoff)
        else:
            pos = np.flatnonzero(self.labels >= 0)
            counts = np.bincount(
                np.searchsorted(self.offsets, pos, side="right") - 1, minlength=self.num_queries
            )
            offsets = offsets_from_counts(counts)
            rank = pos + 1 - np.repeat(self.offsets[:-1], counts)
            out = JudgedList(self.qpos, self.lengths, offsets, rank, self.labels[pos])
        self._cache[key] = out
        return out

    def _subset(self, keep: np.ndarray) -> "RankedRun":
        if keep.all():
            return self
        offsets = offsets_from_counts(np.bincount(self.qidx[keep], minlength=self.num_queries))
        docs = None if self.docs is None else self.docs[keep]
        return RankedRun(self.qrels, self.qpos, offsets, self.labels[keep], docs)

    def relabel(self, qrels: Qrels) -> "RankedRun":
        """The same ranking judged by other qrels (for example a sample of these): the order is
        kept, only the labels change. Queries the new qrels lack are dropped."""
        if self.docs is None:
            raise ValueError("this ranked run keeps no document ids; it cannot be relabelled")
        qids = [self.qrels.query_ids[i] for i in self.qpos.tolist()]
        new_pos = np.fromiter((qrels.index.get(q, -1) for q in qids), dtype=np.int64, count=len(qids))
        keep = new_pos >= 0
        offsets, docs = self.offsets, self.docs
        if not keep.all():
            docs = docs[np.repeat(keep, self.lengths)]
            offsets = offsets_from_counts(self.lengths[keep])
            new_pos = new_pos[keep]
        return RankedRun(qrels, new_pos, offsets, _labels(qrels, new_pos, offsets, docs), docs)


@dataclass
class JudgedList:
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

    @property
    def qidx(self) -> np.ndarray:
        """Ranked-query index of every entry."""
        return np.repeat(np.arange(self.num_queries), np.diff(self.offsets))

    def subset(self, keep: np.ndarray) -> "JudgedList":
        """Entries where ``keep`` is true (list lengths unchanged)."""
        offsets = offsets_from_counts(np.bincount(self.qidx[keep], minlength=self.num_queries))
        return JudgedList(self.qpos, self.lengths, offsets, self.rank[keep], self.label[keep])

    def sum(self, values: np.ndarray) -> np.ndarray:
        """Per-query sum of one value per entry."""
        return np.bincount(self.qidx, weights=values, minlength=self.num_queries)

    def cumsum(self, values: np.ndarray) -> np.ndarray:
        """Within-query inclusive running sum of one value per entry."""
        return cumsum_within(values, self.offsets)

    def first(self, mask: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """(queries having an entry in ``mask``, index of their first such entry)."""
        idx = np.flatnonzero(mask)
        queries, first = np.unique(self.qidx[idx], return_index=True)
        return queries, idx[first]


def _take(values: np.ndarray, order: Optional[np.ndarray]) -> np.ndarray:
    """``values`` in ``order`` (None: the order they are in, no copy)."""
    return values if order is None else values[order]


def _rank_segments(
    scores: np.ndarray, docs_at: Callable[[np.ndarray], np.ndarray], offsets: np.ndarray
) -> Optional[np.ndarray]:
    """The trec_eval order of each segment (a permutation of all positions), or None when every
    segment is in that order already (as a run written by a retrieval system usually is).

    Sorting is per query segment, so only a loop over queries runs in Python; a segment already
    in score order (as TREC files usually are) is not sorted at all. Documents tied on score are
    then ordered by id descending, all ties of the run in one vectorised pass.
    """
    n = len(scores)
    if n == 0:
        return None
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
        segs = np.unique(np.searchsorted(offsets, unsorted, side="right") - 1)
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
        seg = np.searchsorted(offsets, pos, side="right") - 1
        tied_docs = docs_at(order[pos])
        if tied_docs.dtype.kind != "S":  # str: compare as numpy unicode (code point = byte order)
            tied_docs = tied_docs.astype(str)
        _, doc_rank = np.unique(tied_docs, return_inverse=True)
        sub = np.lexsort((-doc_rank.reshape(-1), -s[pos], seg))
        order[pos] = order[pos][sub]
    return order


def _check_scores(
    scores: np.ndarray, docs_at: Callable[[np.ndarray], np.ndarray], qids: Sequence[str], offsets: np.ndarray
) -> np.ndarray:
    try:
        scores = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("run scores must be numbers") from None
    bad = np.isnan(scores)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        q = int(np.searchsorted(offsets, i, side="right") - 1)
        doc = docs_at(np.array([i]))[0]
        doc = doc.decode("utf-8", "surrogateescape") if isinstance(doc, bytes) else doc
        raise InputError(f"run score is NaN for query {qids[q]!r}, document {doc!r}")
    return scores


def _warn_duplicates(count: int, example: Tuple[str, str]) -> None:
    warnings.warn(
        f"run has {count} duplicate (query, document) line(s), e.g. query {example[0]!r} document "
        f"{example[1]!r}; the last one of each is used",
        stacklevel=4,
    )


def rank_run(run: Any, qrels: Qrels) -> RankedRun:
    """Sort ``run`` (any run type ir_measures accepts, or :class:`Columns`) and label it."""
    kind = _predict(run, "run")
    if kind == "dict":
        return _rank_dict(run, qrels)
    return _rank_columns(_as_columns(run, kind, "score", "run"), qrels)


def _rank_dict(run: Dict[Any, Dict[Any, float]], qrels: Qrels) -> RankedRun:
    qids: List[str] = []
    qpos: List[int] = []
    seg_docs: List[Any] = []
    for qid, docs in run.items():
        qid = qid if type(qid) is str else str(qid)
        i = qrels.index.get(qid)
        if i is None:
            continue
        if docs and type(next(iter(docs))) is not str:
            docs = {str(d): v for d, v in docs.items()}
        qids.append(qid)
        qpos.append(i)
        seg_docs.append(docs)
    lengths = np.fromiter(map(len, seg_docs), dtype=np.int64, count=len(seg_docs))
    offsets = offsets_from_counts(lengths)
    total = int(offsets[-1])
    made: List[np.ndarray] = []

    def all_docs() -> np.ndarray:  # the ids in dict order, made once, only if needed
        if not made:
            made.append(np.fromiter(chain.from_iterable(seg_docs), dtype=object, count=total))
        return made[0]

    def docs_at(positions: np.ndarray) -> np.ndarray:
        return all_docs()[positions]

    scores = _check_scores(
        np.fromiter(chain.from_iterable(d.values() for d in seg_docs), dtype=np.float64, count=total),
        docs_at,
        qids,
        offsets,
    )
    qpos_arr = np.asarray(qpos, dtype=np.int64)
    lookups = [qrels.lookup[i] for i in qpos]
    labels = np.fromiter(
        chain.from_iterable(map(lk.get, d, repeat(ABSENT)) for lk, d in zip(lookups, seg_docs)),
        dtype=np.int64,
        count=total,
    )
    order = _rank_segments(scores, docs_at, offsets)
    ranked = RankedRun(qrels, qpos_arr, offsets, _take(labels, order))
    ranked._docs_factory = lambda: _take(all_docs(), order)
    return ranked


def _rank_columns(cols: Columns, qrels: Qrels) -> RankedRun:
    qids, order, offsets = _group(cols)
    keep_q = np.fromiter((qrels.index.get(q, -1) for q in qids), dtype=np.int64, count=len(qids))
    if len(qids) and (keep_q < 0).any():
        lengths = np.diff(offsets)
        line_keep = np.repeat(keep_q >= 0, lengths)
        order = np.flatnonzero(line_keep) if order is None else order[line_keep]
        lengths = lengths[keep_q >= 0]
        qids = [q for q, k in zip(qids, keep_q.tolist()) if k >= 0]
        keep_q = keep_q[keep_q >= 0]
        offsets = offsets_from_counts(lengths)
    docs = _take(cols.doc_ids, order)
    scores = _check_scores(_take(np.asarray(cols.values), order), docs.__getitem__, qids, offsets)
    # duplicates: the last line of a (query, doc) pair wins, as in ir_measures' dict conversion
    found = None
    if not cols.unique_pairs:
        qidx = np.repeat(np.arange(len(qids)), np.diff(offsets))
        found = find_duplicates(qidx, docs, len(qids))
    if found is not None:
        keep_lines, dropped, first, _ = found
        doc = docs[first]
        doc = doc.decode("utf-8", "surrogateescape") if isinstance(doc, bytes) else doc
        _warn_duplicates(dropped, (qids[qidx[first]], doc))
        docs, scores = docs[keep_lines], scores[keep_lines]
        offsets = offsets_from_counts(np.bincount(qidx[keep_lines], minlength=len(qids)))
    return _finish(qrels, keep_q, offsets, docs, scores)


def _finish(
    qrels: Qrels, qpos: np.ndarray, offsets: np.ndarray, docs: np.ndarray, scores: np.ndarray
) -> RankedRun:
    docs = _take(docs, _rank_segments(scores, docs.__getitem__, offsets))
    return RankedRun(qrels, qpos, offsets, _labels(qrels, qpos, offsets, docs), docs)


def _labels(qrels: Qrels, qpos: np.ndarray, offsets: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """The qrels label of every ranked document (``ABSENT`` when not judged for its query)."""
    if docs.dtype.kind == "S":
        index = qrels.doc_index()
        if index is not None:
            return index.labels_of(docs, np.repeat(qpos, np.diff(offsets)))
        docs = ids_as_str(docs)
    lookups = [qrels.lookup[i] for i in qpos.tolist()]
    return np.fromiter(
        chain.from_iterable(
            map(d.get, docs[a:b], repeat(ABSENT))
            for d, a, b in zip(lookups, offsets[:-1].tolist(), offsets[1:].tolist())
        ),
        dtype=np.int64,
        count=len(docs),
    )


# --------------------------------------------------------------------------------------------
# document ids as bytes: a vectorised hash join with the qrels
# --------------------------------------------------------------------------------------------


def _has_inner_nul(docs: np.ndarray) -> bool:
    """Whether a bytes id holds a NUL before its last byte (numpy pads with NULs, so such an id
    is not the id it was; the readers never make one)."""
    width = docs.dtype.itemsize
    if not len(docs) or width < 2:
        return False
    b = docs.view(np.uint8).reshape(len(docs), width)
    return bool(((b[:, :-1] == 0) & (b[:, 1:] != 0)).any())


#: Lines joined with the qrels at a time (see :meth:`DocIndex.labels_of`).
JOIN_CHUNK = 1 << 21


@dataclass
class DocIndex:
    """The qrels' (query, document) pairs as sorted 64-bit keys, for :func:`doc_keys` joins."""

    keys: np.ndarray  # sorted
    line: np.ndarray  # qrels line of each sorted key
    docs: np.ndarray  # qrels document ids as bytes, by line
    query: np.ndarray  # qrels query index, by line
    labels: np.ndarray  # by line
    bitmap: np.ndarray  # bool: some qrels key has these low bits
    mask: np.uint64

    def labels_of(self, docs: np.ndarray, query: np.ndarray) -> np.ndarray:
        """Label of each (bytes doc id, qrels query index); ``ABSENT`` where not judged.

        Done ``JOIN_CHUNK`` lines at a time: the temporaries (keys, candidates) stay small and
        malloc hands the same memory back for every chunk, where whole-run temporaries would be
        fresh pages each time (first touches of memory are a good part of a large run's time)."""
        out = np.full(len(docs), ABSENT, dtype=np.int64)
        if not len(docs) or not len(self.keys):
            return out
        for a in range(0, len(docs), JOIN_CHUNK):
            b = min(a + JOIN_CHUNK, len(docs))
            self._labels_into(out[a:b], docs[a:b], query[a:b])
        return out

    def _labels_into(self, out: np.ndarray, docs: np.ndarray, query: np.ndarray) -> None:
        keys = doc_keys(docs, query)
        cand = np.flatnonzero(self.bitmap[(keys & self.mask).view(np.int64)])
        at = np.minimum(np.searchsorted(self.keys, keys[cand]), len(self.keys) - 1)
        hit = self.keys[at] == keys[cand]
        cand, line = cand[hit], self.line[at[hit]]
        same = (self.docs[line] == docs[cand]) & (self.query[line] == query[cand])
        out[cand[same]] = self.labels[line[same]]


def _make_doc_index(qrels: Qrels) -> Optional[DocIndex]:
    docs = qrels._cache.get("doc_bytes")  # qrels read as bytes: the ids by line, as read
    if docs is not None and _has_inner_nul(docs):
        return None  # a NUL inside an id would not survive numpy's bytes arrays
    if docs is None:
        encoded = [d.encode("utf-8", "surrogateescape") for lookup in qrels.lookup for d in lookup]
        if b"\x00" in b"".join(encoded):
            return None  # a NUL inside an id would not survive numpy's bytes arrays
        docs = np.array(encoded, dtype="S") if encoded else np.zeros(0, dtype="S1")
    query = qrels.qidx
    keys = doc_keys(docs, query)
    line = np.argsort(keys)
    keys = keys[line]
    if len(keys) > 1 and (keys[1:] == keys[:-1]).any():
        return None  # two pairs share a key (vanishingly rare): keep to the dict look-ups
    bits = max(16, (8 * len(keys)).bit_length())
    mask = np.uint64((1 << bits) - 1)
    bitmap = np.zeros(1 << bits, dtype=bool)
    bitmap[(keys & mask).view(np.int64)] = True
    return DocIndex(keys, line, docs, query, qrels.labels, bitmap, mask)
