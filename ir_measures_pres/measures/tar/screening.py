"""Screening lists: per topic block, the lines of a TAR run in screening order, as the CLEF tools
read them, and their column 2 (2017 interaction codes, 2018 threshold flags).

The rules the tools apply to their input, and which this module applies in the same way
(docs/tar.md gives the measures and the differences between tools and papers):

* relevant <=> ``rel <= value <= 2`` (``rel`` 1: the tool; 2: the content level of the graded
  2017 qrels); N = qrels documents of the topic whose value is not -1 and at most 2; R = the
  relevant ones;
* a line whose document is valued 3 or 4 ("relevant, not in the Boolean result") is dropped;
  an unjudged document is non-relevant (value 0), value -1 likewise, and both stay in the list;
* N' = max(N, number of lines shown): a run that shows more than the candidate set.

Everything is vectorised over all lines of all topics at once (per-topic offsets, as
:mod:`ir_measures_pres.data.ranking`); no Python code runs per document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...data.arrays import offsets_from_counts, segment_ids
from ...data.column2 import KeptLines
from ...data.inputs import InputError
from ...data.qrels import ABSENT, Qrels
from ...data.ranking import document_labels
from ...data.topics import RankedLists

#: the 2017 interaction codes the tool's code and the CLEF 2017 runs use; ``Q0`` (the TREC
#: placeholder, in the QUT runs) is a plain shown document
CODES_2017 = ("NF", "AF", "NS", "AFN", "AFS", "DFN", "DFS", "NFS", "NFN", "Q0")

#: Task 1 of the 2018 tool: the candidate set is the top 5000 of PubMed
TASK1_N = 5000


@dataclass
class ScreeningLists(RankedLists):
    """Per topic block (file order), the screened lines the tools evaluate.

    ``value[offsets[i]:offsets[i + 1]]`` are the qrels values of block ``i``'s lines (unjudged
    documents 0; lines valued 3 or 4 already dropped), ``column2`` their second column (or None
    when the run did not come with it), ``n_docs`` N and ``n_rel`` R of each block's topic
    (0 for a topic the qrels lack).
    """

    query_ids: List[str]
    offsets: np.ndarray
    value: np.ndarray
    n_docs: np.ndarray
    n_rel: np.ndarray
    column2: Optional[np.ndarray] = None
    #: per kept line, its line number in the file (indexable; for messages), or None
    lines: Any = None
    source: str = ""

    @property
    def num_blocks(self) -> int:
        return len(self.query_ids)

    def position(self) -> np.ndarray:
        """1-based position of every line within its block."""
        return self.within_rank

    def within(self, values: np.ndarray) -> np.ndarray:
        """Running sum of ``values`` within each block (inclusive)."""
        return self.cumsum(values)


def candidate_counts(qrels: Qrels, rel: int = 1, task: int = 2) -> "tuple[np.ndarray, np.ndarray]":
    """(N, R) per qrels query, as the tools count them (see the module docstring); ``task`` 1
    takes N = 5000 minus the documents valued -1 or above 2 (the 2018 tool's Task 1)."""

    def make() -> "tuple[np.ndarray, np.ndarray]":
        labels = qrels.labels
        seg = segment_ids(qrels.offsets)
        nq = len(qrels.query_ids)
        out_of_set = (labels == -1) | (labels > 2)
        if task == 1:
            n = TASK1_N - np.bincount(seg, weights=out_of_set, minlength=nq)
        else:
            n = np.bincount(seg, weights=~out_of_set, minlength=nq)
        r = np.bincount(seg, weights=(labels >= rel) & (labels <= 2), minlength=nq)
        return n.astype(np.int64), r.astype(np.int64)

    return qrels.cached(("tar_counts", rel, task), make)


def screening_lists(
    qrels: Qrels,
    query_ids: Sequence[str],
    offsets: np.ndarray,
    labels: np.ndarray,
    column2: Optional[np.ndarray] = None,
    rel: int = 1,
    task: int = 2,
    lines: Any = None,
    source: str = "",
) -> ScreeningLists:
    """Screening lists from blocks of lines in screening order.

    ``labels`` are the qrels values of the lines' documents (``ABSENT`` when unjudged; -1 for
    every line of a topic the qrels lack is fine too: such a block gets N = R = 0), per block
    ``offsets``. Lines valued 3 or 4 are dropped here, as the tools drop them.
    """
    qpos = np.fromiter((qrels.index.get(q, -1) for q in query_ids), dtype=np.int64, count=len(query_ids))
    n_all, r_all = candidate_counts(qrels, rel, task)
    known = qpos >= 0
    n_docs = np.where(known, n_all[np.maximum(qpos, 0)], 0) if len(qpos) else np.zeros(0, np.int64)
    n_rel = np.where(known, r_all[np.maximum(qpos, 0)], 0) if len(qpos) else np.zeros(0, np.int64)
    value = np.where(labels == ABSENT, 0, labels)
    keep = value < 3
    line_numbers = None
    if not keep.all():
        offsets = offsets_from_counts(np.bincount(segment_ids(offsets)[keep], minlength=len(query_ids)))
        value = value[keep]
        if column2 is not None:
            column2 = column2[keep]
        kept = np.flatnonzero(keep)
    else:
        kept = None
    if lines is not None:
        line_numbers = KeptLines(lines, kept)
    return ScreeningLists(
        list(query_ids),
        offsets,
        value,
        n_docs,
        n_rel,
        column2,
        line_numbers,
        source,  # type: ignore[arg-type]
    )


def from_file_order(qrels: Qrels, cols: Any, rel: int = 1, task: int = 2) -> ScreeningLists:
    """Screening lists of a run read with ``read_run(..., order="file")``."""
    names = list(cols.query_names)
    counts = np.bincount(np.asarray(cols.query_codes, dtype=np.int64), minlength=len(names))
    offsets = offsets_from_counts(counts)
    qpos = np.fromiter((qrels.index.get(q, -1) for q in names), dtype=np.int64, count=len(names))
    known = qpos >= 0
    labels = np.full(len(cols.doc_ids), -1, dtype=np.int64)
    docs = cols.doc_ids
    sorted_qrels = _sorted_qrels(qrels) if docs.dtype.kind == "S" else None
    if sorted_qrels is not None:
        _labels_by_topic(labels, sorted_qrels, qpos, offsets, docs)
    elif known.any():
        line_known = np.repeat(known, counts)
        sub_offsets = offsets_from_counts(counts[known])
        labels[line_known] = document_labels(qrels, qpos[known], sub_offsets, docs[line_known])
    return screening_lists(
        qrels, names, offsets, labels, cols.column2, rel, task, cols.lines, getattr(cols, "source", "")
    )


def _sorted_qrels(qrels: Qrels) -> Optional["tuple[np.ndarray, np.ndarray, np.ndarray]"]:
    """(document ids as 64-bit words, labels, qrels offsets), sorted by word within each query,
    for a per-topic join; None unless the qrels were read with bytes ids of at most 8 bytes
    (PubMed ids are), whose zero-padded bytes are then one integer each."""
    docs = qrels.doc_bytes
    if docs is None or docs.dtype.kind != "S" or docs.dtype.itemsize > 8:
        return None

    def make() -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
        words = docs.astype("S8").view("<u8")
        order = np.lexsort((words, segment_ids(qrels.offsets)))
        return words[order], qrels.labels[order], qrels.offsets

    return qrels.cached("tar_sorted_docs", make)


def _words(docs: np.ndarray) -> "tuple[np.ndarray, np.ndarray]":
    """(ids as 64-bit words, mask of ids longer than 8 bytes: they match no qrels id here)."""
    width = docs.dtype.itemsize
    if width <= 8:
        return docs.astype("S8").view("<u8"), np.zeros(len(docs), dtype=bool)
    raw = docs.view(np.uint8).reshape(len(docs), width)
    longer = (raw[:, 8:] != 0).any(axis=1)
    return np.ascontiguousarray(raw[:, :8]).view("<u8").reshape(-1), longer


def _labels_by_topic(
    out: np.ndarray,
    sorted_qrels: "tuple[np.ndarray, np.ndarray, np.ndarray]",
    qpos: np.ndarray,
    offsets: np.ndarray,
    docs: np.ndarray,
) -> None:
    """Label every line of a screening run (bytes ids) by a binary search among its own topic's
    judgements (integer words: a few thousand per topic, so the search stays in cache; one
    loop step per topic, none per line). Unjudged lines get ``ABSENT``; topics the qrels lack
    keep what ``out`` holds."""
    hay_all, lab_all, qoff = sorted_qrels
    words, longer = _words(docs)
    for b, q in enumerate(qpos.tolist()):
        a, e = int(offsets[b]), int(offsets[b + 1])
        if q < 0 or a == e:
            continue
        lo, hi = int(qoff[q]), int(qoff[q + 1])
        out[a:e] = ABSENT
        if lo == hi:
            continue
        hay, needles = hay_all[lo:hi], words[a:e]
        at = np.minimum(np.searchsorted(hay, needles), len(hay) - 1)
        hit = (hay[at] == needles) & ~longer[a:e]
        out[a:e][hit] = lab_all[lo:hi][at[hit]]


def from_ranked(ranked: Any, rel: int = 1, task: int = 2) -> ScreeningLists:
    """Screening lists of a :class:`~ir_measures_pres.data.ranking.RankedRun`: the ranking is the
    screening order (file order when the run was read with ``order="file"``, whose column 2 then
    comes along, see :func:`~ir_measures_pres.data.column2.attach_column2`)."""

    def make() -> ScreeningLists:
        qids = [ranked.qrels.query_ids[i] for i in ranked.qpos.tolist()]
        column2, lines, source = ranked.column2 or (None, None, "")
        return screening_lists(
            ranked.qrels, qids, ranked.offsets, ranked.labels, column2, rel, task, lines, source
        )

    return ranked.cached(("tar_lists", rel, task), make)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# column 2
# --------------------------------------------------------------------------------------------


def _column2_error(lists: ScreeningLists, i: int, expected: str, found: str) -> InputError:
    where = lists.source or "run"
    if lists.lines is not None:
        where = f"{where}:{lists.lines[i]}"
    return InputError(f"{where}: expected {expected}, found {found}")


def codes_2017(lists: ScreeningLists, what: str) -> Dict[str, np.ndarray]:
    """Per line, masks of the 2017 interaction codes (``shown``, ``af``, ``cost_shown``,
    ``cost_af``); an unknown code is an :class:`InputError` naming its line. Without column 2
    the error says that ``what`` needs it."""
    col = lists.column2
    if col is None:
        raise InputError(
            f"{what} needs the interaction codes of column 2 (2017 TAR runs): read the run with "
            "read_run(path, order='file') or use the 'ir_measures_pres tar' command; a run given "
            "as a dict or a scored frame has none"
        )
    uniq, inverse = _distinct(col)
    uniq = _as_text(uniq)
    unknown = [j for j, u in enumerate(uniq.tolist()) if u not in CODES_2017]
    if unknown:
        i = int(np.flatnonzero(np.isin(inverse, unknown))[0])
        raise _column2_error(
            lists,
            i,
            f"an interaction code in column 2 ({', '.join(CODES_2017)})",
            repr(str(uniq[inverse[i]])),
        )

    def mask(*codes: str) -> np.ndarray:
        hit = np.isin(uniq, list(codes))
        return hit[inverse]

    return {
        "shown": ~mask("NS"),
        "af": mask("AF"),
        # the tool's cost model maps AFN, DFN, DFS to AF, NFS to NF, NFN to NS (cost only)
        "cost_shown": ~mask("NS", "NFN"),
        "cost_af": mask("AF", "AFN", "DFN", "DFS"),
    }


def flags_2018(lists: ScreeningLists, what: str) -> np.ndarray:
    """Per line, the 2018 threshold flag (column 2 as an integer; 1 marks the threshold)."""
    col = lists.column2
    if col is None:
        raise InputError(
            f"{what} needs the threshold flags of column 2 (2018/2019 TAR runs): read the run with "
            "read_run(path, order='file') or use the 'ir_measures_pres tar' command"
        )
    uniq, inverse = _distinct(col)
    text = _as_text(uniq)
    ok = np.char.isdigit(np.char.lstrip(text, "+-")) if len(text) else np.zeros(0, bool)
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        i = int(np.flatnonzero(inverse == bad)[0])
        raise _column2_error(
            lists, i, "a threshold flag in column 2 (an integer, 1 = threshold)", repr(str(text[bad]))
        )
    return text.astype(np.int64)[inverse] if len(text) else np.zeros(0, np.int64)


def _distinct(col: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(distinct values of a column-2 array, sorted; index of each line's value among them). The
    readers' 8-byte codes are compared as one integer each (a few distinct codes in thousands
    of lines: sorting them as strings cost more than all the measures)."""
    if col.dtype.kind == "S" and col.dtype.itemsize == 8:
        words, inverse = np.unique(np.ascontiguousarray(col).view("<u8"), return_inverse=True)
        # little-endian words sort otherwise than their bytes: put the distinct values in byte order
        order = np.argsort(words.view("S8"), kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return words.view("S8")[order], rank[inverse.reshape(-1)]
    uniq, inverse = np.unique(col, return_inverse=True)
    return uniq, inverse.reshape(-1)


def _as_text(values: np.ndarray) -> np.ndarray:
    """``str`` values of a column-2 array (raw bytes from the readers, or ``str``)."""
    if values.dtype.kind == "S":
        return np.array([v.decode("utf-8", "replace") for v in values.tolist()], dtype=object).astype(str)
    return values.astype(str)


def are_flags(column2: np.ndarray) -> bool:
    """True when column 2 holds integers only (2018 threshold flags, or TREC's ``0``)."""
    text = _as_text(_distinct(column2)[0])
    return bool(np.char.isdigit(np.char.lstrip(text, "+-")).all()) if len(text) else True
