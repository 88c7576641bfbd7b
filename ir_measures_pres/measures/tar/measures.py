"""Technology-assisted review (TAR) measures of the CLEF eHealth TAR labs (2017-2019).

A TAR run lists, per topic, the candidate documents in the order they were screened; the
organisers' tool (``tar_eval.py`` in 2017, ``tar_eval_2018.py`` in 2018 and 2019, repository
github.com/CLEF-TAR/tar) reads that order from the file. This module computes every per-topic
figure of both tools on *screening lists*: per topic block, the lines in file order with the
qrels value of their document and their column 2 (2017 interaction code, 2018 threshold flag).

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
from decimal import Decimal
from functools import cached_property
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.arrays import cumsum_within, offsets_from_counts, segment_ids
from ...data.column2 import KeptLines
from ...data.inputs import InputError
from ...data.qrels import ABSENT, Qrels
from ...data.ranking import document_labels
from ..base import REL_PARAM, MeasureParameterError, PluginMeasure

__all__ = [
    "CODES_2017",
    "ScreeningLists",
    "screening_lists",
    "tar2017",
    "NumCandidates",
    "NumFeedback",
    "NumShown",
    "LastRel",
    "WSS",
    "RecallPct",
    "NormArea",
    "TarLoss",
    "TarCost",
    "Threshold",
    "RecallAtThreshold",
    "TarUtility",
]

#: the 2017 interaction codes the tool's code and the CLEF 2017 runs use; ``Q0`` (the TREC
#: placeholder, in the QUT runs) is a plain shown document
CODES_2017 = ("NF", "AF", "NS", "AFN", "AFS", "DFN", "DFS", "NFS", "NFN", "Q0")

#: Task 1 of the 2018 tool: the candidate set is the top 5000 of PubMed
TASK1_N = 5000

#: ``task``, the one parameter of every measure that reads N (the candidate-set size): which
#: candidate set the topic was screened from, as the tools' TASK argument names it. 2 (default):
#: the qrels' candidates (values 0, 1, 2), as the 2017 tool and the 2018 tool's Task 2 (also
#: 2019) count them; 1: the 2018 tool's Task 1 (retrieval from PubMed), N = 5000 minus the
#: topic's documents valued -1 or above 2. A task number rather than a size, because Task 1's N
#: is not a size the user picks but that rule of the tool (5000, less the documents outside the
#: Boolean result), and it is the number ``tar --task`` and the tool take.
TASK_PARAM = ParamInfo(
    dtype=int,
    choices=[1, 2],
    default=2,
    desc="candidate set N: 2 = qrels values 0-2 (2017 tool, 2018 Task 2); 1 = 2018 Task 1, "
    "N = 5000 - documents valued -1 or above 2",
)


@dataclass
class ScreeningLists:
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

    @cached_property
    def qidx(self) -> np.ndarray:
        """Block index of every line (made once: every per-block sum and search uses it)."""
        return segment_ids(self.offsets)

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def position(self) -> np.ndarray:
        """1-based position of every line within its block."""
        return np.arange(1, len(self.value) + 1) - np.repeat(self.offsets[:-1], self.lengths)

    def within(self, values: np.ndarray) -> np.ndarray:
        """Running sum of ``values`` within each block (inclusive)."""
        return cumsum_within(values, self.offsets)

    def sum(self, values: np.ndarray) -> np.ndarray:
        """Per-block sum, added in line order (as the tools add)."""
        return np.bincount(self.qidx, weights=values, minlength=self.num_blocks)

    def last_of(self, mask: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per block, ``values`` at its last line in ``mask`` (0 where none)."""
        out = np.zeros(self.num_blocks, dtype=np.float64)
        idx = np.flatnonzero(mask)
        if len(idx):
            q = self.qidx[idx]
            last = np.append(q[1:] != q[:-1], True)
            out[q[last]] = values[idx[last]]
        return out

    def first_of(self, mask: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per block, ``values`` at its first line in ``mask`` (0 where none)."""
        out = np.zeros(self.num_blocks, dtype=np.float64)
        idx = np.flatnonzero(mask)
        if len(idx):
            q = self.qidx[idx]
            first = np.insert(q[1:] != q[:-1], 0, True)
            out[q[first]] = values[idx[first]]
        return out


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
        qidx = segment_ids(offsets)
        offsets = offsets_from_counts(np.bincount(qidx[keep], minlength=len(query_ids)))
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
    docs = qrels._cache.get("doc_bytes")
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
    key = ("tar_lists", rel, task)
    if key not in ranked._cache:
        qids = [ranked.qrels.query_ids[i] for i in ranked.qpos.tolist()]
        column2, lines, source = ranked._cache.get("column2", (None, None, ""))
        ranked._cache[key] = screening_lists(
            ranked.qrels, qids, ranked.offsets, ranked.labels, column2, rel, task, lines, source
        )
    return ranked._cache[key]


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


# --------------------------------------------------------------------------------------------
# the 2017 tool
# --------------------------------------------------------------------------------------------


def _decile_gains(lists: ScreeningLists, cg: np.ndarray, n_docs: np.ndarray) -> np.ndarray:
    """cg at the 2017 tool's ten checkpoints, per block (``(blocks, 10)``): with t = N // 10,
    every line i (all lines, NS too) that is a multiple of t sets the slots p >= int(10 i / N);
    so slot p holds cg of the last multiple i of t with int(10 i / N) <= p, or 0.

    The tool crashes when N < 10 (t = 0); here t is then 1 (every line is a checkpoint).
    """
    nb = lists.num_blocks
    q = lists.qidx
    i = lists.position()
    t = np.maximum(n_docs // 10, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = ((i.astype(np.float64) / n_docs[q].astype(np.float64)) * 10.0).astype(np.int64)
    check = (i % t[q] == 0) & (pos <= 9) & (n_docs[q] > 0)
    idx = np.flatnonzero(check)
    table = np.zeros((nb, 10), dtype=np.float64)
    has = np.zeros((nb, 10), dtype=bool)
    if len(idx):
        key = q[idx] * 10 + pos[idx]
        last = np.append(key[1:] != key[:-1], True)  # keys rise with i: the last of each wins
        table[q[idx][last], pos[idx][last]] = cg[idx][last]
        has[q[idx][last], pos[idx][last]] = True
    slot = np.where(has, np.arange(10), -1)
    slot = np.maximum.accumulate(slot, axis=1)
    return np.where(slot >= 0, np.take_along_axis(table, np.maximum(slot, 0), axis=1), 0.0)


def tar2017(
    lists: ScreeningLists,
    rel: int = 1,
    ca: float = 1.0,
    cf: float = 2.0,
    cp: float = 2.0,
    b: float = 100.0,
    codes: Optional[Dict[str, np.ndarray]] = None,
) -> Dict[str, np.ndarray]:
    """Every per-topic figure of the 2017 tool, one array per output (one value per block).

    ``codes`` as :func:`codes_2017` gives them (None: every line shown, no feedback: the run
    has no column 2, e.g. a ranking). Besides the printed outputs it returns ``cgat`` (the
    ten checkpoint gains) and the flags ``wss_100_int``, ``wss_95_int``, ``total_cost_int``,
    ``total_cost_weighted_int`` where the tool's value is the integer 0 (printed ``0``).
    """
    m = len(lists.value)
    n_docs = lists.n_docs
    n_rel = lists.n_rel
    if codes is None:
        true = np.ones(m, dtype=bool)
        false = np.zeros(m, dtype=bool)
        codes = {"shown": true, "af": false, "cost_shown": true, "cost_af": false}
    shown = codes["shown"]
    relv = (lists.value >= rel) & (lists.value <= 2)
    rs = relv & shown
    n = lists.sum(shown.astype(np.float64)).astype(np.int64)
    found = lists.sum(rs.astype(np.float64)).astype(np.int64)
    k = lists.within(shown.astype(np.float64))  # rank among the shown lines
    cg = lists.within(rs.astype(np.float64))  # relevant shown so far (inclusive)
    last_rel = lists.last_of(rs, k).astype(np.int64)
    n_prime = np.maximum(n_docs, n).astype(np.float64)
    wss_100, reached_100 = _wss(lists, 1.0, "clef", rs, k, cg, n, found)
    wss_95, reached_95 = _wss(lists, 0.95, "clef", rs, k, cg, n, found)
    wss_100_int, wss_95_int = ~reached_100, ~reached_95

    cgat = _decile_gains(lists, cg, n_docs)

    # cost model: Ca per shown document, Cf more per feedback request, Cp per missed document
    cost_shown, cost_af = codes["cost_shown"], codes["cost_af"]
    total_cost = lists.sum(np.where(cost_shown, ca, 0.0) + np.where(cost_af, cf, 0.0))
    n_c = lists.sum(cost_shown.astype(np.float64))
    found_c = lists.sum((relv & cost_shown).astype(np.float64))
    mr = n_rel - found_c.astype(np.int64)
    nu = (n_docs - n_c).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        pu = np.where(n_rel > 0, ((nu * cp) * mr) / n_rel.astype(np.float64), 0.0)
    # weighted penalty: sum_{i=1}^{Mr-1} Nu Cp / 2^i, added term by term as the tool adds
    pw = np.zeros(lists.num_blocks)
    top = int(mr.max()) if len(mr) else 0
    for i in range(1, top):
        pw = np.where(i < mr, pw + (nu * cp) / 2.0**i, pw)
    total_cost_uniform = total_cost + pu
    total_cost_weighted = total_cost + pw
    lines_per_block = lists.lengths
    total_cost_int = lines_per_block == 0
    total_cost_weighted_int = total_cost_int & (mr < 2)

    # normalised area under the cumulative gain curve, the unshown documents at final gain
    area = lists.sum(np.where(shown, (cg - rs) + rs * 0.5, 0.0))
    area = area + np.where(n_docs > n, (n_docs - n) * found, 0)
    max_area = n_rel * n_prime - (n_rel * n_rel) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        norm_area = np.where(max_area > 0, area / max_area, 0.0)

    with np.errstate(divide="ignore", invalid="ignore"):
        ap_sum = lists.sum(np.where(rs, cg / k, 0.0))
        ap = np.where(n_rel > 0, ap_sum / n_rel.astype(np.float64), 0.0)
        r = np.where(n_rel > 0, found / n_rel.astype(np.float64), 0.0)
        loss_r = (1 - r) ** 2.0
        loss_e = (b / n_prime) ** 2.0 * (n / (n_rel + b)) ** 2.0
    loss_er = loss_r + loss_e
    return {
        "num_docs": n_docs,
        "num_rels": n_rel,
        "num_shown": n,
        "num_feedback": lists.sum(codes["af"].astype(np.float64)).astype(np.int64),
        "rels_found": found,
        "last_rel": last_rel,
        "wss_100": wss_100,
        "wss_95": wss_95,
        "cgat": cgat,
        "total_cost": total_cost,
        "total_cost_uniform": total_cost_uniform,
        "total_cost_weighted": total_cost_weighted,
        "norm_area": norm_area,
        "ap": ap,
        "r": r,
        "loss_e": loss_e,
        "loss_r": loss_r,
        "loss_er": loss_er,
        "wss_100_int": wss_100_int,
        "wss_95_int": wss_95_int,
        "total_cost_int": total_cost_int,
        "total_cost_weighted_int": total_cost_weighted_int,
    }


# --------------------------------------------------------------------------------------------
# the 2018 tool (2018 and 2019)
# --------------------------------------------------------------------------------------------

#: the 2018 tool's Task 1 rank cutoffs (recall@k)
TASK1_LEVELS = (50, 100, 200, 300, 400, 500, 1000, 2000, 3000, 4000, 5000)


def tar2018(
    lists: ScreeningLists, flags: np.ndarray, rel: int = 1, b: float = 100.0
) -> Dict[str, np.ndarray]:
    """Every per-topic figure of the 2018 tool (tasks 1 and 2; N comes with ``lists``).

    All lines are shown (ranking measures: num_shown, last_rel, wss, norm_area, ap, recall@);
    the lines up to and including the first one flagged 1 are *seen* (r, loss_*, total_cost);
    the threshold T is the line of the *last* flagged one (N when none).
    """
    f = tar2017(lists, rel=rel, b=b)
    nb = lists.num_blocks
    pos = lists.position().astype(np.float64)
    flagged = flags == 1
    relv = (lists.value >= rel) & (lists.value <= 2)
    cg = lists.within(relv.astype(np.float64))
    has_flag = lists.sum(flagged.astype(np.float64)) > 0
    threshold = np.where(has_flag, lists.last_of(flagged, pos), lists.n_docs).astype(np.int64)
    cg_at_t = lists.last_of(flagged, cg)
    cg_threshold = np.where(has_flag & (threshold != lists.n_docs), cg_at_t, f["rels_found"]).astype(
        np.float64
    )
    seen = seen_lines(lists, flags)
    loss = tar2017(lists, rel=rel, b=b, codes=_all_shown(seen))
    found_seen = loss["rels_found"].astype(np.float64)
    n_rel = lists.n_rel.astype(np.float64)
    # utility: seen 1 (non-relevant) or -19 (relevant); unseen relevant 20; missed relevant 20
    per_line = np.where(seen, np.where(relv, -19.0, 1.0), np.where(relv, 20.0, 0.0))
    total_cost = lists.sum(per_line) + (n_rel - found_seen) * 20.0
    n_prime = np.maximum(lists.n_docs, f["num_shown"]).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm_last_rel = f["last_rel"] / n_prime
        norm_threshold = threshold / n_prime
        recall_threshold = np.where(n_rel > 0, cg_threshold / n_rel, 0.0)
    out = dict(f)
    out.update(
        {
            "norm_last_rel": norm_last_rel,
            "threshold": threshold,
            "norm_threshold": norm_threshold,
            "cg_threshold": cg_threshold,
            "recall_threshold": recall_threshold,
            "cg_pct": recall_2018_kernel(lists, np.arange(1, 101), rel) if nb else np.zeros((0, 100)),
            "total_cost_2018": total_cost,
            "r_seen": loss["r"],
            "loss_e_seen": loss["loss_e"],
            "loss_r_seen": loss["loss_r"],
            "loss_er_seen": loss["loss_er"],
            "rels_found_seen": found_seen,
            "num_seen": loss["num_shown"],
        }
    )
    # Task 1: cg at min(k, lines) for the fixed cutoffs
    ends = lists.offsets[:-1, None] + np.minimum(np.array(TASK1_LEVELS)[None, :], lists.lengths[:, None])
    at = np.where(lists.lengths[:, None] > 0, cg[np.maximum(ends - 1, 0)] if len(cg) else 0.0, 0.0)
    out["cg_at_k"] = at if nb else np.zeros((0, len(TASK1_LEVELS)))
    return out


# --------------------------------------------------------------------------------------------
# the measures (ir_measures registry)
# --------------------------------------------------------------------------------------------

_OVERVIEW_2017 = (
    "Evangelos Kanoulas, Dan Li, Leif Azzopardi and Rene Spijker. CLEF 2017 Technologically "
    "Assisted Reviews in Empirical Medicine Overview. CLEF 2017 Working Notes."
)
_TOOL = "Tool: github.com/CLEF-TAR/tar, scripts/tar_eval.py (2017), tar_eval_2018.py (2018, 2019)."


class _TarMeasure(PluginMeasure):
    """Shared behaviour: topics whose lines are the screening order (docs/tar.md).

    Every measure that reads N (the candidate-set size, directly or through N' = max(N, shown))
    takes the parameter ``task`` (:data:`TASK_PARAM`): 2 (default) counts N from the qrels as the
    2017 tool and the 2018 tool's Task 2 do, 1 is the 2018 tool's Task 1 (N = 5000 minus the
    documents valued -1 or above 2). The measures that do not read N (``NumShown``,
    ``NumFeedback``, ``TarUtility``) have no ``task``.
    """

    NAME: str


class _NumCandidates(_TarMeasure):
    """
    N, the size of the topic's candidate set:

    .. math::

        N = \\#\\{d : v(d) \\ne -1,\\ v(d) \\le 2\\} \\quad (task = 2), \\qquad
        N = 5000 - \\#\\{d : v(d) = -1 \\vee v(d) > 2\\} \\quad (task = 1)

    over the topic's qrels documents d with value v(d): with ``task=2`` (default) the documents
    whose value is neither -1 nor above 2 (values 3 and 4 mark relevant documents outside the
    Boolean result), as the 2017 tool and the 2018 tool's Task 2 count them; with ``task=1`` the
    2018 tool's Task 1 rule (the top 5000 of PubMed, less those documents).

    Tool line: ``num_docs`` (2017; ALL = sum); the N of every 2018 line (``tar_eval_2018.py 1``
    or ``2``), which prints no N line. Evangelos Kanoulas et al. CLEF 2017 Technologically
    Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NumCandidates"
    NAME = __name__
    PRETTY_NAME = "Candidate-set size (TAR)"
    SHORT_DESC = "Number of candidate documents of the topic (qrels values 0, 1, 2), CLEF TAR num_docs."
    SUPPORTED_PARAMS: Dict[str, ParamInfo] = {"task": TASK_PARAM}

    def aggregator(self) -> Any:
        from ir_measures.measures.base import SumAgg

        return SumAgg()


class _NumFeedback(_TarMeasure):
    """
    The number of lines whose 2017 interaction code is exactly ``AF`` (feedback asked for the
    document); ``AFN``, ``AFS``, ``DFN``, ``DFS`` are not counted, as in the tool. Needs column
    2: read the run with ``read_run(path, order="file")``.

    Tool line: ``num_feedback`` (2017; ALL = sum). Evangelos Kanoulas et al. CLEF 2017
    Technologically Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NumFeedback"
    NAME = __name__
    PRETTY_NAME = "Feedback requests (TAR 2017)"
    SHORT_DESC = "Number of screened lines with interaction code AF (CLEF TAR 2017 num_feedback)."
    SUPPORTED_PARAMS: Dict[str, ParamInfo] = {}

    def aggregator(self) -> Any:
        from ir_measures.measures.base import SumAgg

        return SumAgg()


class _NumShown(_TarMeasure):
    """
    The number of lines shown to the reviewer:

    .. math::

        n = \\#\\{\\text{lines} : code \\ne \\texttt{NS}\\}, \\qquad
        found = \\#\\{\\text{lines} : code \\ne \\texttt{NS},\\ rel \\le v \\le 2\\}

    ``NumShown`` is n: every line of the topic except those coded exactly ``NS`` ("not shown",
    2017 interaction codes; ``NFN`` counts as shown here, as in the tool), lines valued 3 or 4
    and repeated documents dropped as the tools drop them. ``NumShown(rel=k)`` is found, the
    shown lines whose qrels value v is from k to 2 (ir_measures' ``NumRet(rel=k)`` without the NS
    lines). A run without 2017 codes (a dict, a frame without ``iteration``, or 2018 flags)
    shows every line: then ``NumShown`` equals ir_measures' ``NumRet`` (for qrels without values
    3 and 4). ALL = sum, as ``NumRet``.

    Tool lines: ``num_shown`` (2017, 2018), ``rels_found`` (``rel=1``). Evangelos Kanoulas et
    al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NumShown"
    NAME = __name__
    PRETTY_NAME = "Lines shown (TAR)"
    SHORT_DESC = "Number of screened lines shown: all but those coded NS (CLEF TAR num_shown)."
    SUPPORTED_PARAMS = {
        "rel": ParamInfo(
            dtype=int,
            required=False,
            desc="count only shown lines valued rel..2 (rels_found), or every shown line if not given",
        ),
    }

    def aggregator(self) -> Any:
        from ir_measures.measures.base import SumAgg

        return SumAgg()


class _LastRel(_TarMeasure):
    """
    The rank of the last relevant document screened (0 when none is):
    ``last_rel`` = k of the last relevant shown line; ``normalised=True`` divides by
    N' = max(N, shown): ``norm_last_rel`` = last_rel / N' (the 2018 tool; it prints it rounded
    to 3 places). Lower is better. Lines coded ``NS`` (2017) are not shown and take no rank.
    ``task=1`` takes Task 1's N (5000 minus the documents valued -1 or above 2) for N'; it
    changes nothing without ``normalised``.

    Tool lines: ``last_rel`` (2017, 2018), ``norm_last_rel`` (2018 Task 2; Task 1 with
    ``task=1``); ALL = mean.
    Evangelos Kanoulas et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2017.
    """

    __name__ = "LastRel"
    NAME = __name__
    PRETTY_NAME = "Last relevant rank (TAR)"
    SHORT_DESC = "Rank of the last relevant document screened (CLEF TAR last_rel, norm_last_rel)."
    SUPPORTED_PARAMS = {
        "rel": REL_PARAM,
        "normalised": ParamInfo(dtype=bool, default=False, desc="divide by N' = max(N, shown)"),
        "task": TASK_PARAM,
    }


class _WSS(_TarMeasure):
    """
    Work saved over sampling at a recall target r (``recall``, default 0.95):

    .. math::

        WSS@r = \\frac{N' - k_r}{N'} - (1 - r)

    where k_r is the rank of the t-th relevant document shown, t = round-half-even(r R)
    (``rule='clef'``, the CLEF tool: R = 30 gives t = 28) or ceil(r R) (``rule='cohen'``), and
    N' = max(N, shown). 0 when fewer than t relevant documents are shown. ``recall=1.0`` is the
    tool's ``wss_100`` (k_r = last_rel), ``recall=0.95`` its ``wss_95``; the tool subtracts 0.05
    whatever recall t relevant documents are (R = 2: t = 2). Can be negative. ``task=1``: N is
    the 2018 tool's Task 1 N (5000 minus the documents valued -1 or above 2).

    Tool lines: ``wss_100``, ``wss_95`` (2017, 2018 Task 2; 2018 Task 1 with ``task=1``);
    ALL = mean.
    Aaron M. Cohen, William R. Hersh, K. Peterson and Po-Yin Yen. Reducing Workload in Systematic
    Review Preparation Using Automated Citation Classification. JAMIA 13(2), 2006.
    """

    __name__ = "WSS"
    NAME = __name__
    PRETTY_NAME = "Work Saved over Sampling"
    SHORT_DESC = "Share of the candidate set not screened when recall r is reached, minus 1 - r."
    SUPPORTED_PARAMS = {
        "recall": ParamInfo(dtype=float, default=0.95, desc="recall target r, 0 < r <= 1"),
        "rel": REL_PARAM,
        "rule": ParamInfo(
            dtype=str,
            choices=["clef", "cohen"],
            default="clef",
            desc="relevant documents needed: 'clef' round-half-even(rR), 'cohen' ceil(rR)",
        ),
        "task": TASK_PARAM,
    }

    def _check_combination(self) -> None:
        r = self.params.get("recall", 0.95)
        if not 0 < r <= 1:
            raise MeasureParameterError(f"WSS: parameter 'recall' must be in (0, 1], got {r!r}")


class _RecallPct(_TarMeasure):
    """
    Recall after screening p % of the candidate set (``pct``), with the position rule of a
    CLEF tool:

    * ``positions='2018'`` (tar_eval_2018 ``recall@p%``): the cumulative gain at line
      round-half-even(N p / 100); when the run is shorter, at the largest such position it
      reaches; 0 while the position is 0 (N < 50);
    * ``positions='2017'`` (tar_eval ``NCG@p``, p a multiple of 10): with t = N // 10 (t = 1
      when N < 10, where the tool crashes), the gain at the last line i that is a multiple of t
      with int(10 i / N) <= p / 10 - 1, else 0. So ``NCG@10`` is recall at 0 % when 10 divides
      N, and ``NCG@100`` is recall before the last decile, not final recall.

    value = cg / R (lines coded NS count as positions but not as gain). ALL in the tool is micro
    (sum cg / sum R); through ir_measures it is the mean of the per-topic values. ``task=1``
    takes the positions as fractions of Task 1's N (5000 minus the documents valued -1 or above
    2); the 2018 tool prints no ``recall@p%`` line for Task 1 (its ``recall@k`` lines are
    ir_measures' ``R@k``).

    Tool lines: ``NCG@10`` ... ``NCG@100`` (2017), ``recall@1.0%`` ... ``recall@100.0%`` (2018).
    Evangelos Kanoulas et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2017.
    """

    __name__ = "RecallPct"
    NAME = __name__
    PRETTY_NAME = "Recall at p % screened (TAR)"
    SHORT_DESC = "Recall after screening p % of the candidate set (CLEF TAR NCG@p / recall@p%)."
    SUPPORTED_PARAMS = {
        "pct": ParamInfo(dtype=int, default=10, desc="p, the percentage of the candidate set screened"),
        "positions": ParamInfo(
            dtype=str, choices=["2018", "2017"], default="2018", desc="position rule of the 2018 or 2017 tool"
        ),
        "rel": REL_PARAM,
        "task": TASK_PARAM,
    }

    def _check_combination(self) -> None:
        p = self.params.get("pct", 10)
        if self.params.get("positions", "2018") == "2017":
            if p not in range(10, 101, 10):
                raise MeasureParameterError(
                    f"RecallPct: positions='2017' takes pct 10, 20, ..., 100, got {p!r}"
                )
        elif not 1 <= p <= 100:
            raise MeasureParameterError(f"RecallPct: parameter 'pct' must be from 1 to 100, got {p!r}")


class _NormArea(_TarMeasure):
    """
    Normalised area under the cumulative-gain curve of the screening, the documents never shown
    counted at the final gain:

    .. math::

        A = \\sum_{shown} (cg_{before} + rel/2) + (N - n)\\,found, \\quad
        norm\\_area = A / (R N' - R^2 / 2)

    with n lines shown, N' = max(N, n). The tool rounds it to 3 places per topic before its mean.
    ``task=1``: N is the 2018 tool's Task 1 N (5000 minus the documents valued -1 or above 2).

    Tool line: ``norm_area`` (2017, 2018 Task 2; 2018 Task 1 with ``task=1``). Evangelos Kanoulas
    et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NormArea"
    NAME = __name__
    PRETTY_NAME = "Normalised cumulative-gain area (TAR)"
    SHORT_DESC = "Area under the screening's gain curve over the ideal area (CLEF TAR norm_area)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "task": TASK_PARAM}


class _TarLoss(_TarMeasure):
    """
    Cormack and Grossman's losses for a review that stops after n shown lines:

    .. math::

        loss_r = (1 - found/R)^2, \\quad
        loss_e = (b / N')^2 (n / (R + b))^2, \\quad loss_{er} = loss_r + loss_e

    ``part`` picks ``'er'`` (default), ``'e'`` or ``'r'``; b = 100 (``b``); N' = max(N, n).
    With ``threshold=True`` (2018 tool) only the lines up to the first flagged one count as shown
    (needs the flags of column 2). Lower is better. ``task=1`` takes Task 1's N (5000 minus the
    documents valued -1 or above 2) for N' (only loss_e reads it); the 2018 tool prints no loss
    line for Task 1.

    Tool lines: ``loss_e``, ``loss_r``, ``loss_er`` (2017, 2018); ALL = mean.
    Gordon V. Cormack and Maura R. Grossman. Engineering Quality and Reliability in
    Technology-Assisted Review. SIGIR 2016.
    """

    __name__ = "TarLoss"
    NAME = __name__
    PRETTY_NAME = "Recall/effort loss (TAR)"
    SHORT_DESC = "Cormack & Grossman's loss: squared missed recall plus scaled squared effort."
    SUPPORTED_PARAMS = {
        "part": ParamInfo(
            dtype=str, choices=["er", "e", "r"], default="er", desc="loss_er, loss_e or loss_r"
        ),
        "b": ParamInfo(dtype=float, default=100.0, desc="the effort constant b (100 in the tools)"),
        "rel": REL_PARAM,
        "threshold": ParamInfo(
            dtype=bool, default=False, desc="shown = lines up to the first flagged one (2018; needs flags)"
        ),
        "task": TASK_PARAM,
    }


class _TarCost(_TarMeasure):
    """
    The 2017 tool's cost of a screening with interaction codes (column 2):

    .. math::

        TC = \\sum_{shown} (C_a + C_f [AF]), \\quad
        TCU = TC + C_p N_u M_r / R, \\quad
        TCW = TC + \\sum_{i=1}^{M_r - 1} C_p N_u / 2^i

    with the codes mapped as the tool maps them (AFN, DFN, DFS -> AF; NFS -> NF; NFN -> NS;
    AFS and Q0 are plain shown documents), N_u = N - shown, M_r = R - relevant shown.
    ``penalty`` picks ``'none'`` (TC), ``'uniform'`` (TCU) or ``'weighted'`` (TCW; one missed
    document costs nothing, as in the code, not the paper). C_a = 1, C_f = 2, C_p = 2 by default.
    Needs column 2 (``read_run(path, order="file")``). Lower is better. ``task=1`` takes the
    2018 tool's Task 1 N (5000 minus the documents valued -1 or above 2) for N_u, a combination
    no tool printed (the 2017 tool has no tasks).

    Tool lines: ``total_cost``, ``total_cost_uniform``, ``total_cost_weighted`` (2017).
    Evangelos Kanoulas et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2017.
    """

    __name__ = "TarCost"
    NAME = __name__
    PRETTY_NAME = "Screening cost (TAR 2017)"
    SHORT_DESC = "CLEF TAR 2017 cost: assessments, feedback and a penalty for missed relevant documents."
    SUPPORTED_PARAMS = {
        "penalty": ParamInfo(
            dtype=str,
            choices=["none", "uniform", "weighted"],
            default="none",
            desc="penalty for missed documents",
        ),
        "ca": ParamInfo(dtype=float, default=1.0, desc="cost of assessing a shown document"),
        "cf": ParamInfo(dtype=float, default=2.0, desc="extra cost of a feedback request (AF)"),
        "cp": ParamInfo(dtype=float, default=2.0, desc="penalty cost per document not shown"),
        "rel": REL_PARAM,
        "task": TASK_PARAM,
    }


class _Threshold(_TarMeasure):
    """
    Where a 2018/2019 run stops (column 2 flags, 1 = threshold):

    * ``flag='last'``: T, the line of the *last* flagged line (N when none, even for a shorter
      run): the tool's ``threshold``; ``normalised=True`` gives T / N' (``norm_threshold``);
    * ``flag='first'``: the lines up to and including the *first* flagged one (all lines when
      none): the lines the tool counts as seen (Task 1's ``recall_threshold``).

    Needs column 2 (``read_run(path, order="file")``). ``task=1`` takes the Task 1 N (5000 minus
    the documents valued -1 or above 2) for T without a flag and for N'.

    Tool lines: ``threshold``, ``norm_threshold`` (2018 Task 2; Task 1 with ``task=1``),
    ``recall_threshold`` (Task 1; ``flag='first'``).
    Evangelos Kanoulas, Dan Li, Leif Azzopardi and Rene Spijker. CLEF 2018 Technologically
    Assisted Reviews in Empirical Medicine Overview. CLEF 2018.
    """

    __name__ = "Threshold"
    NAME = __name__
    PRETTY_NAME = "Stopping threshold (TAR 2018)"
    SHORT_DESC = "Line where a TAR run stops screening (CLEF TAR 2018 threshold flags)."
    SUPPORTED_PARAMS = {
        "flag": ParamInfo(
            dtype=str, choices=["last", "first"], default="last", desc="last or first flagged line"
        ),
        "normalised": ParamInfo(dtype=bool, default=False, desc="divide by N' = max(N, lines)"),
        "task": TASK_PARAM,
    }


class _RecallAtThreshold(_TarMeasure):
    """
    Recall at the stopping threshold of a 2018/2019 run: cg(T) / R with T the last flagged line
    (``flag='last'``; the tool's ``recall_threshold``; cg of all lines when T = N) or the lines
    up to the first flagged one (``flag='first'``: the tool's ``r`` of Task 2 and
    ``recall_at_threshold`` of Task 1). With two flags the two differ. Needs column 2.
    ``flag='last'`` reads N as the tool does (a last flag on line N counts as no flag: cg of all
    lines); ``task=1`` takes Task 1's N there (5000 minus the documents valued -1 or above 2).

    Tool lines: ``recall_threshold``, ``r`` (2018 Task 2), ``recall_at_threshold`` (Task 1).
    Evangelos Kanoulas et al. CLEF 2018 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2018.
    """

    __name__ = "RecallAtThreshold"
    NAME = __name__
    PRETTY_NAME = "Recall at the threshold (TAR 2018)"
    SHORT_DESC = "Recall of the lines up to a TAR run's stopping flag (CLEF TAR 2018)."
    SUPPORTED_PARAMS = {
        "flag": ParamInfo(
            dtype=str, choices=["last", "first"], default="last", desc="last or first flagged line"
        ),
        "rel": REL_PARAM,
        "task": TASK_PARAM,
    }


class _TarUtility(_TarMeasure):
    """
    The 2018 tool's ``total_cost``, a utility over the seen lines (up to the first flag):

    .. math::

        cost = \\sum_{seen} (1 - 20 [rel]) + \\sum_{unseen} 20 [rel] + 20 (R - found_{seen})

    so a relevant document after the threshold costs 40 and one never retrieved 20. Lower is
    better. Needs column 2 (flags).

    Tool line: ``total_cost`` (2018, 2019). Evangelos Kanoulas et al. CLEF 2018 Technologically
    Assisted Reviews in Empirical Medicine Overview. CLEF 2018.
    """

    __name__ = "TarUtility"
    NAME = __name__
    PRETTY_NAME = "Utility cost (TAR 2018)"
    SHORT_DESC = "CLEF TAR 2018 cost: 1 per document seen, -19 per relevant seen, 20 per relevant missed."
    SUPPORTED_PARAMS = {"rel": REL_PARAM}


NumCandidates = _NumCandidates()
Threshold = _Threshold()
RecallAtThreshold = _RecallAtThreshold()
TarUtility = _TarUtility()
NumFeedback = _NumFeedback()
NumShown = _NumShown()
LastRel = _LastRel()
WSS = _WSS()
RecallPct = _RecallPct()
NormArea = _NormArea()
TarLoss = _TarLoss()
TarCost = _TarCost()


# --------------------------------------------------------------------------------------------
# adapters (catalogue dispatch): one value per ranked query
# --------------------------------------------------------------------------------------------


def _codes_or_all_shown(lists: ScreeningLists, what: str) -> Optional[Dict[str, np.ndarray]]:
    """The 2017 codes when the run brought them in column 2, else None (every line shown: a
    ranking, or a 2018 run whose column 2 holds threshold flags)."""
    if lists.column2 is None or _are_flags(lists.column2):
        return None
    return codes_2017(lists, what)


def _are_flags(column2: np.ndarray) -> bool:
    """True when column 2 holds integers only (2018 threshold flags, or TREC's ``0``)."""
    text = _as_text(_distinct(column2)[0])
    return bool(np.char.isdigit(np.char.lstrip(text, "+-")).all()) if len(text) else True


def _lists(measure: PluginMeasure, ranked: Any) -> ScreeningLists:
    """The screening lists ``measure`` reads: its ``rel`` (1 when it has none) and its ``task``
    (the candidate set N, :data:`TASK_PARAM`; 2 for the measures that do not read N)."""
    return from_ranked(ranked, rel=measure.params.get("rel", 1), task=measure.params.get("task", 2))


def _figures_2017(measure: PluginMeasure, ranked: Any, need_codes: bool = False, **kw: Any) -> Dict[str, Any]:
    rel = measure.params.get("rel", 1)
    task = measure.params.get("task", 2)
    lists = _lists(measure, ranked)
    codes = codes_2017(lists, str(measure)) if need_codes else _codes_or_all_shown(lists, str(measure))
    key = ("tar2017", rel, task, tuple(sorted(kw.items())), need_codes or lists.column2 is not None)
    if key not in ranked._cache:
        ranked._cache[key] = tar2017(lists, rel=rel, codes=codes, **kw)
    return ranked._cache[key]


def _zero_without_relevant(values: np.ndarray, ranked: Any, rel: int) -> np.ndarray:
    n_rel = from_ranked(ranked, rel=rel).n_rel
    return np.where(n_rel > 0, values, 0.0).astype(np.float64)


def compute_num_candidates(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _lists(measure, ranked).n_docs.astype(np.float64)


def compute_num_feedback(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _figures_2017(measure, ranked, need_codes=True)["num_feedback"].astype(np.float64)


def compute_num_shown(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    """``num_shown`` of the 2017 kernel (the codes when the run has them), or its
    ``rels_found`` when ``rel`` is given."""
    f = _figures_2017(measure, ranked)
    return f["num_shown" if measure.params.get("rel") is None else "rels_found"].astype(np.float64)


def compute_last_rel(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2017(measure, ranked)
    last = f["last_rel"].astype(np.float64)
    if measure["normalised"]:
        n_prime = np.maximum(f["num_docs"], f["num_shown"]).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            last = np.where(n_prime > 0, last / n_prime, 0.0)
    return last


def wss_kernel(
    lists: ScreeningLists, recall: float, rel: int, rule: str, shown: Optional[np.ndarray] = None
) -> np.ndarray:
    """WSS at ``recall`` per block (see :class:`_WSS`); 0 where the target is not reached."""
    value, reached = wss_where_reached(lists, recall, rel, rule, shown)
    return np.where(reached, value, 0.0)


def wss_where_reached(
    lists: ScreeningLists, recall: float, rel: int, rule: str, shown: Optional[np.ndarray] = None
) -> Tuple[np.ndarray, np.ndarray]:
    """(WSS at ``recall`` per block, 0 where unreached; whether the target was reached)."""
    m = len(lists.value)
    shown = np.ones(m, dtype=bool) if shown is None else shown
    rs = (lists.value >= rel) & (lists.value <= 2) & shown
    k = lists.within(shown.astype(np.float64))
    cg = lists.within(rs.astype(np.float64))
    return _wss(
        lists, recall, rule, rs, k, cg, lists.sum(shown.astype(np.float64)), lists.sum(rs.astype(np.float64))
    )


def _wss(
    lists: ScreeningLists,
    recall: float,
    rule: str,
    rs: np.ndarray,
    k: np.ndarray,
    cg: np.ndarray,
    n: np.ndarray,
    found: np.ndarray,
) -> Tuple[np.ndarray, np.ndarray]:
    """The one computation of WSS, for the measure and the tools' ``wss_100``/``wss_95`` lines,
    from the running counts the caller has: ``rs`` the relevant shown lines, ``k`` and ``cg``
    their running rank and gain, ``n`` and ``found`` the shown and relevant shown per block.

    1 - r is taken in decimal (``recall=0.95`` subtracts the double nearest 0.05, as the tool's
    ``- 0.05`` does; in binary 1 - 0.95 is 0.050000000000000044)."""
    r_all = lists.n_rel.astype(np.float64)
    target = np.round(r_all * recall) if rule == "clef" else np.ceil(r_all * recall - 1e-12)
    k_t = lists.first_of(rs & (cg == target[lists.qidx]), k)
    n_prime = np.maximum(lists.n_docs, n).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = ((n_prime - k_t) / n_prime) - float(Decimal(1) - Decimal(repr(float(recall))))
    reached = (found >= target) & (lists.n_rel > 0)
    return np.where(reached, value, 0.0), reached


def compute_wss(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    rel = measure["rel"]
    lists = _lists(measure, ranked)
    codes = _codes_or_all_shown(lists, str(measure))
    return wss_kernel(
        lists, measure["recall"], rel, measure["rule"], None if codes is None else codes["shown"]
    )


def recall_2018_kernel(lists: ScreeningLists, pct: np.ndarray, rel: int) -> np.ndarray:
    """cg at the 2018 tool's positions, one column per percentage in ``pct``: position
    round-half-even(N p / 100); a run shorter than it gets the gain at the largest position
    (of all 100) it reaches; 0 while no position is reached."""
    nb = lists.num_blocks
    rs = (lists.value >= rel) & (lists.value <= 2)
    cg = lists.within(rs.astype(np.float64))
    n_docs = lists.n_docs.astype(np.float64)
    grid = np.round(n_docs[:, None] * np.arange(1, 101)[None, :] / 100.0).astype(np.int64)  # (nb, 100)
    m = lists.lengths
    reached = (grid <= m[:, None]) & (grid >= 1)
    # the gain at each reached position; unreached ones take the last reached one before them
    safe = np.clip(grid - 1, 0, None) + lists.offsets[:-1, None]
    safe = np.minimum(safe, max(len(cg) - 1, 0))
    at = np.where(reached, cg[safe] if len(cg) else 0.0, 0.0)
    slot = np.where(reached, np.arange(100), -1)
    slot = np.maximum.accumulate(slot, axis=1)
    filled = np.where(slot >= 0, np.take_along_axis(at, np.maximum(slot, 0), axis=1), 0.0)
    cols = pct.astype(np.int64) - 1
    return filled[:, cols] if nb else np.zeros((0, len(cols)))


def compute_recall_pct(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    rel = measure["rel"]
    lists = _lists(measure, ranked)
    n_rel = lists.n_rel.astype(np.float64)
    if measure["positions"] == "2017":
        cg = _figures_2017(measure, ranked)["cgat"][:, measure["pct"] // 10 - 1]
    else:
        cg = recall_2018_kernel(lists, np.array([measure["pct"]]), rel)[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n_rel > 0, cg / n_rel, 0.0)


def compute_norm_area(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _zero_without_relevant(_figures_2017(measure, ranked)["norm_area"], ranked, measure["rel"])


def compute_tar_loss(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    rel, b = measure["rel"], measure["b"]
    if measure["threshold"]:
        lists = _lists(measure, ranked)
        seen = seen_lines(lists, flags_2018(lists, str(measure)))
        f = tar2017(lists, rel=rel, b=b, codes=_all_shown(seen))
    else:
        f = _figures_2017(measure, ranked, b=b)
    return (
        _zero_without_relevant(f["loss_" + measure["part"]], ranked, rel)
        if measure["part"] != "e"
        else f["loss_e"]
    )


def compute_tar_cost(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2017(measure, ranked, need_codes=True, ca=measure["ca"], cf=measure["cf"], cp=measure["cp"])
    name = {"none": "total_cost", "uniform": "total_cost_uniform", "weighted": "total_cost_weighted"}
    return f[name[measure["penalty"]]].astype(np.float64)


def _all_shown(shown: np.ndarray) -> Dict[str, np.ndarray]:
    false = np.zeros(len(shown), dtype=bool)
    return {"shown": shown, "af": false, "cost_shown": shown, "cost_af": false}


def seen_lines(lists: ScreeningLists, flags: np.ndarray) -> np.ndarray:
    """2018: the lines up to and including the first flagged one of each block (all if none)."""
    flagged = (flags == 1).astype(np.float64)
    before = lists.within(flagged) - flagged  # flagged lines strictly before
    return before == 0


def _figures_2018(measure: PluginMeasure, ranked: Any) -> Dict[str, Any]:
    rel = measure.params.get("rel", 1)
    task = measure.params.get("task", 2)
    lists = _lists(measure, ranked)
    key = ("tar2018", rel, task)
    if key not in ranked._cache:
        ranked._cache[key] = tar2018(lists, flags_2018(lists, str(measure)), rel=rel)
    return ranked._cache[key]


def compute_threshold(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2018(measure, ranked)
    value = (f["threshold"] if measure["flag"] == "last" else f["num_seen"]).astype(np.float64)
    if measure["normalised"]:
        n_prime = np.maximum(f["num_docs"], f["num_shown"]).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(n_prime > 0, value / n_prime, 0.0)
    return value


def compute_recall_at_threshold(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2018(measure, ranked)
    value = f["recall_threshold"] if measure["flag"] == "last" else f["r_seen"]
    return np.where(f["num_rels"] > 0, value, 0.0).astype(np.float64)


def compute_tar_utility(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _figures_2018(measure, ranked)["total_cost_2018"].astype(np.float64)
