"""The one ranked-relevance builder shared by every measure.

Everything a kernel needs about a run is built here, once per run:

* the **ranking rule** of trec_eval 9 as pytrec_eval runs it: score descending, the scores
  compared as IEEE single precision (:func:`ranking_scores`: two scores equal in float32 are a
  tie), ties broken by document id descending, comparing ids as byte strings (Python ``str``
  order is UTF-8 byte order); the rank column of a TREC file is ignored;
* the relevance label of every ranked document (``ABSENT`` when the qrels do not mention it);
* per-query offsets in CSR style: the documents of ranked query ``i`` are
  ``labels[offsets[i]:offsets[i + 1]]``, best first.

Kernels never sort and never look up relevance: they take a :class:`RankedRun` and the
:class:`Qrels` it was built against. The qrels-side work (grouping, per-query look-up tables)
lives in :class:`Qrels` and is done once per evaluator, not once per run.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from .arrays import ids_as_str, offsets_from_counts, segment_ids, segment_of
from .column2 import attach_column2
from .duplicates import find_duplicates
from .inputs import (
    Columns,
    InputError,
    all_of_type,
    as_columns,
    finite_scores,
    first_with_nul,
    frame_columns,
    group_lines,
    id_column,
    id_text,
    object_array,
    place,
    predict_kind,
    refuse_nul,
    take,
)
from .qrels import ABSENT, Qrels
from .ranking_rule import rank_order, rank_segments, ranking_scores
from .topics import JudgedList, RankedLists

__all__ = ["JudgedList", "RankedRun", "document_labels", "rank_run", "ranking_scores"]


@dataclass
class RankedRun(RankedLists):
    """A run sorted by the trec_eval rule, restricted to the queries of the qrels.

    ``qpos[i]`` is the qrels index of ranked query ``i``; its documents are
    ``labels[offsets[i]:offsets[i + 1]]`` (best first). Queries of the run that the qrels do
    not have are dropped; qrels queries that the run lacks are absent here (they score what the
    measure gives an empty list: :meth:`with_empty_lists`).
    """

    qrels: Qrels
    qpos: np.ndarray
    offsets: np.ndarray
    labels: np.ndarray
    #: document ids in ranked order (object array of str, or bytes array 'S'), see :attr:`docs`
    _docs: Optional[np.ndarray] = None
    _docs_factory: Optional[Callable[[], np.ndarray]] = field(default=None, init=False, repr=False)
    #: a screening run's column 2 as read, in ranked order (see :mod:`.column2`), or None
    column2: Optional[Tuple[Any, Any, str]] = field(default=None, init=False, repr=False)

    @classmethod
    def of_judged(cls, qrels: Qrels, judged: "JudgedList", cutoff: Optional[int] = None) -> "RankedRun":
        """A ranked run known only by the judged documents of its lists (with their lengths),
        already cut at ``cutoff`` (None: whole lists): what :meth:`judged_list` gives for that
        cutoff, for a kernel, which reads nothing else. The bounds over unjudged documents
        (:mod:`..engine.bounds`) lay their completions out so. Any other list of it (another
        cutoff, ``judged_only``, :meth:`view`) is an error: ``labels`` is empty."""
        ranked = cls(qrels, judged.qpos, offsets_from_counts(judged.lengths), np.zeros(0, dtype=np.int64))
        if cutoff is not None:
            judged = JudgedList(
                judged.qpos, np.minimum(judged.lengths, cutoff), judged.offsets, judged.rank, judged.label
            )
        ranked.memo[("judged", False, cutoff)] = judged
        ranked.memo["only"] = ("judged", False, cutoff)
        return ranked

    def with_empty_lists(self, qpos: np.ndarray) -> "RankedRun":
        """This run with an empty list added for each qrels query ``qpos`` (queries it lacks):
        what a kernel gives those is the value of an empty ranking
        (:func:`~ir_measures_pres.measures.summary.lacking_values`); the documents, labels and
        column 2 are this run's, as no position is added."""
        qpos = np.asarray(qpos, dtype=np.int64)
        offsets = np.concatenate(
            (self.offsets, np.full(len(qpos), self.offsets[-1], dtype=self.offsets.dtype))
        )
        out = RankedRun(self.qrels, np.concatenate((self.qpos, qpos)), offsets, self.labels, self._docs)
        out._docs_factory = None if self._docs is not None else self._docs_factory
        out.column2 = self.column2
        return out

    def with_every_query(self) -> "RankedRun":
        """This run with an empty list for each qrels query it lacks (:meth:`with_empty_lists`),
        itself when it lacks none: every qrels query scored, a lacking one as an empty ranking."""
        absent = np.setdiff1d(np.arange(len(self.qrels.query_ids)), self.qpos)
        return self.with_empty_lists(absent) if len(absent) else self

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
        if key not in self.memo:
            base = self
            if judged_only:
                base = self.subset(self.judged)
            if cutoff is not None:
                base = base.subset(base.rank <= cutoff)
            self.memo[key] = base
        return self.memo[key]

    def judged_list(self, judged_only: bool = False, cutoff: Optional[int] = None) -> JudgedList:
        """The judged documents of the list a measure sees (sparse form of :meth:`view`):
        with ``judged_only`` the unjudged documents are dropped and ranks renumbered; then only
        ranks <= ``cutoff`` are kept."""
        key = ("judged", judged_only, cutoff)
        memo = self.memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        if "only" in memo:  # made by of_judged: that one list is all there is
            raise ValueError(f"this ranked run holds only the list {memo['only']}, not {key}")
        if judged_only or cutoff is not None:
            base = self.judged_list()
            lengths, rank = base.lengths, base.rank
            if judged_only:
                lengths = np.diff(base.offsets)
                rank = np.arange(1, len(rank) + 1) - segment_ids(base.offsets, base.offsets[:-1])
            out = JudgedList(base.qpos, lengths, base.offsets, rank, base.label)
            if cutoff is not None:
                out = out.subset(out.rank <= cutoff)
                out.lengths = np.minimum(out.lengths, cutoff)
        else:
            pos = np.flatnonzero(self.labels >= 0)
            seg = segment_of(pos, self.offsets)
            offsets = offsets_from_counts(np.bincount(seg, minlength=self.num_queries))
            rank = pos + 1 - self.offsets[seg]
            out = JudgedList(self.qpos, self.lengths, offsets, rank, self.labels[pos])
        memo[key] = out
        return out

    def subset(self, keep: np.ndarray) -> "RankedRun":
        """The positions where ``keep`` holds, in order (every query kept, maybe empty)."""
        if keep.all():
            return self
        docs = None if self.docs is None else self.docs[keep]
        return RankedRun(self.qrels, self.qpos, self.kept_offsets(keep), self.labels[keep], docs)

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
            docs = docs[segment_ids(self.offsets, keep)]
            offsets = offsets_from_counts(self.lengths[keep])
            new_pos = new_pos[keep]
        return RankedRun(qrels, new_pos, offsets, document_labels(qrels, new_pos, offsets, docs), docs)


def _check_scores(
    scores: np.ndarray, docs_at: Callable[[np.ndarray], np.ndarray], qids: Sequence[str], offsets: np.ndarray
) -> np.ndarray:
    """Finite float64 scores, or an :class:`InputError` naming the query and document."""

    def where(i: int) -> str:
        return place("run", qids[int(segment_of(np.array([i]), offsets)[0])], docs_at(np.array([i]))[0])

    return finite_scores(scores, where)


def _warn_duplicates(count: int, example: Tuple[str, str]) -> None:
    warnings.warn(
        f"run has {count} duplicate (query, document) line(s), e.g. query {example[0]!r} document "
        f"{example[1]!r}; the last one of each is used",
        stacklevel=4,
    )


def rank_run(run: Any, qrels: Qrels, exact_scores: bool = False) -> RankedRun:
    """Sort ``run`` (any run type ir_measures accepts, or :class:`Columns`) and label it.

    ``exact_scores``: compare the scores as float64, as trec_eval 10 and NIST's Perl tools do,
    instead of pytrec_eval's float32 (:func:`ranking_scores`); the tie rule is the same. For
    the commands that print a tool's lines (``sampled``); a dict run is not taken then."""
    kind = predict_kind(run, "run")
    if exact_scores:
        if kind == "dict":
            raise TypeError("exact_scores=True ranks columnar runs (a file, a DataFrame), not a dict")
        cols = (
            frame_columns(run, "score", "run") if kind == "frame" else as_columns(run, kind, "score", "run")
        )
        return _rank_columns(cols, qrels, exact=True)
    if kind == "dict":
        return _rank_dict(run, qrels)
    if kind == "frame":  # an object column of document ids is checked while it is labelled
        ranked = _rank_columns(frame_columns(run, "score", "run", check_docs=False), qrels, check_docs=True)
    else:
        ranked = _rank_columns(as_columns(run, kind, "score", "run"), qrels)
    # a TAR screening run: column 2 (interaction codes, threshold flags) comes along (docs/tar.md)
    if getattr(run, "column2", None) is not None or "iteration" in getattr(run, "columns", ()):
        attach_column2(run, ranked)
    return ranked


def _rank_dict(run: Dict[Any, Dict[Any, float]], qrels: Qrels) -> RankedRun:
    qids: List[str] = []
    qpos: List[int] = []
    seg_docs: List[Any] = []
    # the judged documents of each query, found from the qrels side (its ~65 ids looked up in the
    # run's dict, not the run's 1,000 ids in the qrels'): per qrels line, the run's score of the
    # document or NaN when the run lacks it (a run's NaN is refused below), read while the
    # query's dict is in cache; None once a score is not a number numpy reads (then read again
    # after the check of all scores has named the bad one)
    judged_counts: List[int] = []
    judged_parts: Optional[List[np.ndarray]] = []
    lookup = qrels.lookup
    run_qids = [q if type(q) is str else id_text(q, "run query id") for q in run]
    refuse_nul(run_qids, "run query id")  # pytrec_eval would read 'q\x00x' as 'q'
    for qid, docs in zip(run_qids, run.values()):
        if not isinstance(docs, dict):
            raise InputError(
                f"run query {qid!r}: expected a dict of document id -> score, found {type(docs).__name__}"
            )
        docs = _plain_doc_ids(docs)  # every query's, as a DataFrame's are checked
        i = qrels.index.get(qid)
        if i is None:
            continue
        judged = lookup[i]
        judged_counts.append(len(judged))
        if judged_parts is not None:
            try:
                judged_parts.append(
                    np.fromiter(map(docs.get, judged, repeat(math.nan)), dtype=np.float64, count=len(judged))
                )
            except (TypeError, ValueError, OverflowError):
                judged_parts = None
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

    def given_scores() -> Iterable[Any]:
        return chain.from_iterable(d.values() for d in seg_docs)

    try:
        scores = _check_scores(_as_scores(given_scores, total), docs_at, qids, offsets)
    except InputError:  # named as given: numpy reads None as NaN
        _check_scores(object_array(list(given_scores())), docs_at, qids, offsets)
        raise
    qpos_arr = np.asarray(qpos, dtype=np.int64)
    order, ranked_scores = rank_order(scores, docs_at, offsets)
    # the judged documents' scores are some of those just checked, converted the same way
    if judged_parts is None:
        judged_parts = [_judged_scores(d, lookup[i]) for d, i in zip(seg_docs, qpos)]
    judged_as_run = np.concatenate(judged_parts) if judged_parts else np.zeros(0)
    in_run = ~np.isnan(judged_as_run)
    # a look-up table holds its query's qrels lines in line order: their labels are a slice
    judged_offsets = offsets_from_counts(np.asarray(judged_counts, dtype=np.int64))
    judged_segment = segment_ids(judged_offsets)
    first_line = qrels.offsets[qpos_arr] - judged_offsets[:-1]
    qrels_line = np.arange(len(judged_segment)) + first_line[judged_segment]
    labels, shared = _labels_by_score(
        ranked_scores,
        offsets,
        judged_segment[in_run],
        ranking_scores(judged_as_run[in_run]),
        qrels.labels[qrels_line[in_run]],
    )
    for seg in shared.tolist():  # a judged score shared in its list: look every document up
        a, b = int(offsets[seg]), int(offsets[seg + 1])
        in_dict_order = np.fromiter(
            map(lookup[qpos[seg]].get, seg_docs[seg], repeat(ABSENT)), dtype=np.int64, count=b - a
        )
        labels[a:b] = in_dict_order if order is None else in_dict_order[order[a:b] - a]
    ranked = RankedRun(qrels, qpos_arr, offsets, labels)
    ranked._docs_factory = lambda: take(all_docs(), order)
    return ranked


def _plain_doc_ids(docs: Dict[Any, float]) -> Dict[str, float]:
    """One query of a dict run with its ids checked as a DataFrame's are (:func:`.inputs.id_column`):
    exact ``str`` ids as they are, integers and ``str`` subclasses as their text; any other id,
    or one holding a NUL (which pytrec_eval would cut short), an :class:`InputError` naming the
    first. Two C-level passes over the keys: their types, then a join searched for NULs."""
    if not all_of_type(docs, str, len(docs)):
        docs = {id_text(d, "run document id"): v for d, v in docs.items()}
    if "\x00" in "".join(docs):
        refuse_nul(list(docs), "run document id")
    return docs


def _judged_scores(docs: Dict[str, Any], judged: Dict[str, int]) -> np.ndarray:
    """The run's score of each judged document (NaN where the run lacks it) as float64, through
    :func:`_as_scores` as the run's scores were read (after they were checked)."""
    values = list(map(docs.get, judged, repeat(math.nan)))
    with np.errstate(over="ignore"):
        return _as_scores(lambda: values, len(values)).astype(np.float64)


def _as_scores(values: Callable[[], Iterable[Any]], count: int) -> np.ndarray:
    """Scores as float64 when they are all numbers, else as the objects they are (for
    :func:`_check_scores` to name the bad one). numpy reads text (``'1.5'``) and ``None`` as
    numbers; adding the values up finds them (a C loop, float's fast path: 0.045 s for 5M
    scores), so text is an error here as in DataFrames, files and pytrec_eval."""
    try:
        scores = np.fromiter(values(), dtype=np.float64, count=count)
        sum(values(), 0.0)  # TypeError on text, None, bytes, Decimal; OverflowError on 10**400
        return scores
    except (TypeError, ValueError, OverflowError):  # let the check name it
        return object_array(list(values()))


def _descending_bits(scores: np.ndarray) -> np.ndarray:
    """float32 scores as uint32 in the reverse order of their values: a higher score gives a
    lower number, equal scores (``0.0`` and ``-0.0`` too) the same one."""
    bits = (scores + np.float32(0)).view(np.uint32)  # a copy we own; -0.0 + 0.0 is 0.0
    # IEEE order: a positive float's bits grow with it, a negative one's shrink as it grows
    np.subtract(np.uint32(0x7FFFFFFF), bits, out=bits, where=bits < np.uint32(1 << 31))
    return bits


#: ranked positions placed at a time by :func:`_labels_by_score` (whole segments): its
#: temporaries stay a few MiB, reused from chunk to chunk instead of fresh pages each time, and
#: the binary search runs in 2 MiB of keys that stay in cache (1 << 20: 8 MiB, 0.01 s slower
#: on the 5M-line benchmark)
PLACE_CHUNK = 1 << 18


def _labels_by_score(
    ranked: np.ndarray, offsets: np.ndarray, segment: np.ndarray, scores: np.ndarray, labels: np.ndarray
) -> Tuple[np.ndarray, np.ndarray]:
    """The label of every ranked position, placed by score: (labels, segments left to look up).

    ``ranked`` are the run's scores in ranked order (float32, descending within each segment of
    ``offsets``); the judged documents are given by their segment (ascending), score (float32)
    and label. A judged document whose score no other document of its list has is at the one
    position holding that score, found by a binary search on (segment, score); the others (a
    tie: only the document ids can place them) are left to the caller, whose segments are
    returned. Positions of no judged document are ``ABSENT``.
    """
    n = len(ranked)
    out = np.full(n, ABSENT, dtype=np.int64)
    shared = [np.zeros(0, dtype=np.int64)]
    if not len(scores):
        return out, shared[0]
    # chunks of whole segments, about PLACE_CHUNK positions each
    firsts = np.searchsorted(offsets, np.arange(0, n, PLACE_CHUNK), side="right") - 1
    bounds = np.unique(np.append(firsts, len(offsets) - 1)).tolist()
    judged = np.searchsorted(segment, bounds).tolist()
    for s0, s1, j0, j1 in zip(bounds[:-1], bounds[1:], judged[:-1], judged[1:]):
        if j0 == j1:
            continue
        a, b = int(offsets[s0]), int(offsets[s1])
        keys = np.repeat(np.arange(s1 - s0, dtype=np.uint64) << np.uint64(32), np.diff(offsets[s0 : s1 + 1]))
        np.bitwise_or(keys, _descending_bits(ranked[a:b]), out=keys)  # (segment, score): non-decreasing
        seg = segment[j0:j1]
        wanted = ((seg - s0).astype(np.uint64) << np.uint64(32)) | _descending_bits(scores[j0:j1])
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        after = np.minimum(at + 1, len(keys) - 1)
        alone = (keys[at] == wanted) & ((after == at) | (keys[after] != wanted))
        out[a + at[alone]] = labels[j0:j1][alone]
        shared.append(seg[~alone])
    return out, np.unique(np.concatenate(shared))


def _rank_columns(cols: Columns, qrels: Qrels, check_docs: bool = False, exact: bool = False) -> RankedRun:
    """Rank and label columnar lines. ``check_docs``: ``cols.doc_ids`` may be an unchecked object
    column (:func:`.inputs.frame_columns`): checked here, as :func:`.inputs.id_column` would."""
    qids, order, offsets = group_lines(cols)
    keep_q = np.fromiter((qrels.index.get(q, -1) for q in qids), dtype=np.int64, count=len(qids))
    left_out = None  # lines of queries the qrels lack (by position in cols)
    if len(qids) and (keep_q < 0).any():
        lengths = np.diff(offsets)
        line_keep = segment_ids(offsets, keep_q >= 0)
        left_out = np.flatnonzero(~line_keep) if order is None else order[~line_keep]
        order = np.flatnonzero(line_keep) if order is None else order[line_keep]
        lengths = lengths[keep_q >= 0]
        qids = [q for q, k in zip(qids, keep_q.tolist()) if k >= 0]
        keep_q = keep_q[keep_q >= 0]
        offsets = offsets_from_counts(lengths)
    docs = take(cols.doc_ids, order)
    judged = None
    if check_docs and docs.dtype.kind == "O":
        # one pass over each query's ids: their type, NULs, repeats, and where its judged ones are
        judged = _judged_lines(docs, offsets, [qrels.lookup[i] for i in keep_q.tolist()])
        if judged is None or (left_out is not None and not _plain_ids(cols.doc_ids[left_out])):
            # a bad, converted or repeated id: the whole column checked as id_column does (the
            # first bad id in line order named), then the general path
            judged = None
            docs = take(id_column(cols.doc_ids, "run document id"), order)
    scores = _check_scores(take(np.asarray(cols.values), order), docs.__getitem__, qids, offsets)
    if judged is not None:  # no repeated (query, doc) pair, the judged lines known
        lines, line_labels = judged
        labels = np.full(len(docs), ABSENT, dtype=np.int64)
        labels[lines] = line_labels
        rank = rank_segments(scores, docs.__getitem__, offsets, exact)
        return RankedRun(qrels, keep_q, offsets, take(labels, rank), take(docs, rank))
    # duplicates: the last line of a (query, doc) pair wins, as in ir_measures' dict conversion
    found = None
    if not cols.unique_pairs:
        qidx = segment_ids(offsets)
        found = find_duplicates(qidx, docs, len(qids))
    if found is not None:
        keep_lines, dropped, first, _ = found
        doc = docs[first]
        doc = doc.decode("utf-8", "surrogateescape") if isinstance(doc, bytes) else doc
        _warn_duplicates(dropped, (qids[qidx[first]], doc))
        docs, scores = docs[keep_lines], scores[keep_lines]
        offsets = offsets_from_counts(np.bincount(qidx[keep_lines], minlength=len(qids)))
    return _finish(qrels, keep_q, offsets, docs, scores, exact)


def _plain_ids(ids: np.ndarray) -> bool:
    """Whether every id is an exact ``str`` holding no NUL (what id_column leaves as it is)."""
    return all_of_type(ids, str, len(ids)) and first_with_nul(ids) is None


def _judged_lines(
    docs: np.ndarray, offsets: np.ndarray, lookups: List[Dict[str, int]]
) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """(line, label) of every judged line of an object column of document ids grouped by query
    (segments of ``offsets``, one qrels look-up table each); None when an id is not an exact
    ``str``, holds a NUL or repeats within its query (the caller's general path then).

    One C-level pass per query over its ids, all of which stay in cache: their type, a join
    searched for NULs, and a ``{doc: position}`` table that finds the repeats and, looked up with
    the query's ~65 judged ids, the judged lines (instead of 1,000 look-ups in the qrels)."""
    local: List[int] = []  # per judged id, its position in its query's lines (or -1)
    labels: List[int] = []
    counts: List[int] = []
    join = "".join
    starts, ends = offsets[:-1].tolist(), offsets[1:].tolist()
    # the positions as one list of ints made once: no int object made per line
    positions = list(range(max((b - a for a, b in zip(starts, ends)), default=0)))
    for lookup, a, b in zip(lookups, starts, ends):
        ids = docs[a:b].tolist()
        if not all_of_type(ids, str, b - a) or "\x00" in join(ids):
            return None
        position_of = dict(zip(ids, positions))
        if len(position_of) != b - a:
            return None
        local.extend(map(position_of.get, lookup, repeat(-1)))
        labels.extend(lookup.values())
        counts.append(len(lookup))
    line = np.fromiter(local, dtype=np.int64, count=len(local))
    found = line >= 0
    line += np.repeat(offsets[:-1], counts)
    return line[found], np.fromiter(labels, dtype=np.int64, count=len(labels))[found]


def _finish(
    qrels: Qrels,
    qpos: np.ndarray,
    offsets: np.ndarray,
    docs: np.ndarray,
    scores: np.ndarray,
    exact: bool = False,
) -> RankedRun:
    docs = take(docs, rank_segments(scores, docs.__getitem__, offsets, exact))
    return RankedRun(qrels, qpos, offsets, document_labels(qrels, qpos, offsets, docs), docs)


def document_labels(qrels: Qrels, qpos: np.ndarray, offsets: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """The qrels label of every ranked document (``ABSENT`` when not judged for its query)."""
    if docs.dtype.kind == "S":
        index = qrels.doc_index()
        if index is not None:
            return index.labels_of(docs, segment_ids(offsets, qpos))
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
