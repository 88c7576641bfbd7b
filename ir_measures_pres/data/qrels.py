"""Qrels prepared once per evaluator: grouped by query, labels as int64, per-query counts, and
a hash index that labels bytes document ids without a Python object per line.

``labels[offsets[i]:offsets[i + 1]]`` are the relevance values of query ``query_ids[i]``; every
run an evaluator scores is labelled against the same :class:`Qrels` (see :mod:`.ranking`).
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any, Dict, List, Optional

import numpy as np

from .arrays import doc_keys, ids_as_str, offsets_from_counts, segment_ids, segment_of
from .inputs import (
    Columns,
    InputError,
    all_numbers,
    all_of_type,
    as_columns,
    check_bytes_ids,
    first_with_nul,
    group_lines,
    id_column,
    id_text,
    integral_labels,
    line_where,
    object_array,
    place,
    predict_kind,
    refuse_nul,
    take,
)

__all__ = ["ABSENT", "DocIndex", "Qrels"]

#: Label given to a retrieved document that the qrels do not mention (unjudged).
ABSENT = np.iinfo(np.int64).min


@dataclass
class Qrels:
    """Qrels grouped by query, with one ``{doc_id: label}`` look-up table per query.

    ``labels[offsets[i]:offsets[i + 1]]`` are the relevance values of query ``query_ids[i]``,
    in the order of ``lookup[i]`` (every constructor keeps the two in step: a dict run's judged
    labels are sliced from ``labels``). Built once per evaluator and shared by every run it scores.
    """

    query_ids: List[str]
    offsets: np.ndarray
    labels: np.ndarray
    #: see :attr:`lookup` (None: made from the bytes ids on first use)
    _lookup: Optional[List[Dict[str, int]]]
    #: sampled judgements' stratum of each entry of :attr:`labels` (object array of ``str``), or
    #: None for plain qrels (see :mod:`ir_measures_pres.measures.sampled.estimators`)
    strata: Optional[np.ndarray] = None
    #: the file they were read from (:attr:`.inputs.Columns.path`), or None
    path: Optional[str] = None
    #: per-intent judgements of qrels whose iteration column is the intent
    #: (:class:`.diversity.DiversityQrels`), kept when a diversity measure asked for them and the
    #: qrels were objects (a file's are read again from :attr:`path`); None otherwise
    intents: Optional[Any] = None
    index: Dict[str, int] = field(init=False)
    _cache: Dict[Any, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {q: i for i, q in enumerate(self.query_ids)}

    @property
    def lookup(self) -> List[Dict[str, int]]:
        """Per query, ``{doc_id: label}`` in line order. Qrels read with bytes ids make it only
        when a run with ``str`` ids needs it: bytes ids are labelled through :meth:`doc_index`."""
        if self._lookup is None:
            if "doc_bytes" not in self._cache:
                raise ValueError("these qrels were built from labels alone: they hold no document ids")
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
        kind = predict_kind(qrels, "qrels")
        if kind == "dict":
            return cls._from_dict(qrels)
        cols = as_columns(qrels, kind, "relevance", "qrels")
        if kind == "frame" and "stratum" in qrels.columns:  # sampled judgements as a DataFrame
            cols = replace(cols, strata=id_column(qrels["stratum"].to_numpy(), "qrels stratum"))
        return cls.from_columns(cols)

    @classmethod
    def of_labels(cls, query_ids: List[str], offsets: np.ndarray, labels: np.ndarray) -> "Qrels":
        """Qrels known by their labels alone, grouped by query (``labels[offsets[i]:offsets[i + 1]]``
        of ``query_ids[i]``; names may repeat): what a kernel reads, which counts and sorts labels
        but looks up no document. The completions of the bounds over unjudged documents
        (:mod:`..engine.bounds`) are scored against such qrels. :attr:`lookup` and
        :meth:`doc_index` have no documents to give."""
        return cls(list(query_ids), offsets, labels.astype(np.int64, copy=False), None)

    @classmethod
    def _from_dict(cls, qrels: Dict[Any, Any]) -> "Qrels":
        """From ``{query: {doc: relevance}}``, every id and value checked (see :mod:`.inputs`)."""
        query_ids = [id_text(q, "qrels query id") for q in qrels]
        refuse_nul(query_ids, "qrels query id")  # pytrec_eval would read 'q\x00x' as 'q'
        lookup = list(qrels.values())
        for qid, docs in zip(query_ids, lookup):
            if not isinstance(docs, dict):
                raise InputError(
                    f"qrels query {qid!r}: expected a dict of document id -> relevance, "
                    f"found {type(docs).__name__}"
                )
        offsets = offsets_from_counts(np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup)))
        values = list(chain.from_iterable(d.values() for d in lookup))
        docs = list(chain.from_iterable(lookup))

        def where(i: int) -> str:
            return place("qrels", query_ids[int(segment_of(np.array([i]), offsets)[0])], docs[i])

        int_values = all_of_type(values, int, len(values))
        given: Any = values if int_values or all_numbers(values) else object_array(values)
        if int_values:  # the array np.asarray would make, without its pass to find the type
            with suppress(OverflowError):  # beyond int64: np.asarray's object array, refused below
                given = np.fromiter(values, dtype=np.int64, count=len(values))
        labels = integral_labels(given, where)
        plain_docs = all_of_type(docs, str, len(docs))
        if not plain_docs or first_with_nul(docs) is not None:
            docs = id_column(object_array(docs), "qrels document id").tolist()  # raises on a bad id
        if plain_docs and int_values:  # the caller's dicts serve as they are
            return cls(query_ids, offsets, labels, lookup)
        starts, ends = offsets[:-1].tolist(), offsets[1:].tolist()
        all_int = labels.tolist()
        lookup = [dict(zip(docs[a:b], all_int[a:b])) for a, b in zip(starts, ends)]
        return cls._from_lookup(query_ids, lookup)

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
        values = integral_labels(cols.values, lambda i: line_where("qrels", cols, i))
        check_bytes_ids(cols.doc_ids, "qrels document id")
        query_ids, order, offsets = group_lines(cols)
        docs = take(cols.doc_ids, order)
        values = take(values, order)
        strata = None if cols.strata is None else take(cols.strata, order)
        if docs.dtype.kind == "S" and cols.unique_pairs:
            # a reader's bytes ids (each pair once): the look-up tables wait until needed
            qrels = cls(query_ids, offsets, values, None, strata, cols.path)
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
            deduplicated = cls._from_lookup(query_ids, lookup)
            if strata is not None:  # each document's stratum from its last line, in lookup order
                texts = strata.tolist()
                deduplicated.strata = object_array(
                    list(
                        chain.from_iterable(
                            dict(zip(docs[a:b].tolist(), texts[a:b])).values()
                            for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())
                        )
                    )
                )
            deduplicated.path = cols.path
            return deduplicated
        qrels = cls(query_ids, offsets, values, lookup, strata, cols.path)
        if as_bytes is not None:  # the ids by line, as the bytes hash index wants them
            qrels._cache["doc_bytes"] = as_bytes
        return qrels

    # -- per-query statistics used by the kernels (cached: they depend on the qrels only) --

    @property
    def qidx(self) -> np.ndarray:
        """Query index of every qrels line."""
        if "qidx" not in self._cache:
            self._cache["qidx"] = segment_ids(self.offsets)
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

    @property
    def doc_bytes(self) -> Optional[np.ndarray]:
        """The document ids of :attr:`labels`' entries as one bytes array (``'S'``), when the qrels
        were read with bytes ids; None otherwise (the ids are then the keys of :attr:`lookup`)."""
        return self._cache.get("doc_bytes")  # type: ignore[no-any-return]

    def with_labels(self, labels: np.ndarray) -> "Qrels":
        """The same topics and documents with other labels, one per entry of :attr:`labels` (for
        example each entry's position: a run ranked against them says which entry each
        document is). The look-up tables are made only if these qrels have them."""
        labels = np.asarray(labels, dtype=np.int64)
        docs = self.doc_bytes
        if self._lookup is None and docs is not None:
            out = Qrels(self.query_ids, self.offsets, labels, None)
            out._cache["doc_bytes"] = docs
            return out
        values = labels.tolist()
        starts, ends = self.offsets[:-1].tolist(), self.offsets[1:].tolist()
        lookup = [dict(zip(d, values[a:b])) for d, a, b in zip(self.lookup, starts, ends)]
        return Qrels(self.query_ids, self.offsets, labels, lookup)


# --------------------------------------------------------------------------------------------
# document ids as bytes: a vectorised hash join with the qrels
# --------------------------------------------------------------------------------------------


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

        Done ``JOIN_CHUNK`` lines at a time, so that the temporaries (keys, candidates) stay
        small and their memory is reused from chunk to chunk (why: bench/README.md)."""
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
        # the candidates in key order: searchsorted then walks the qrels' keys once, which is
        # several times faster than as many independent binary searches (cache misses)
        by_key = np.argsort(keys[cand])
        cand = cand[by_key]
        at = np.minimum(np.searchsorted(self.keys, keys[cand]), len(self.keys) - 1)
        hit = self.keys[at] == keys[cand]
        cand, line = cand[hit], self.line[at[hit]]
        same = (self.docs[line] == docs[cand]) & (self.query[line] == query[cand])
        out[cand[same]] = self.labels[line[same]]


def _make_doc_index(qrels: Qrels) -> Optional[DocIndex]:
    # qrels read as bytes: the ids by line, as read (from_columns refused a NUL inside an id)
    docs = qrels.doc_bytes
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
