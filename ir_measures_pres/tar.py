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
:mod:`._ranking`); no Python code runs per document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ._arrays import cumsum_within, offsets_from_counts, segment_ids
from ._inputs import InputError
from ._qrels import ABSENT, Qrels

__all__ = [
    "CODES_2017",
    "ScreeningLists",
    "screening_lists",
    "tar2017",
    "tar2018",
]

#: the 2017 interaction codes the tool's code and the CLEF 2017 runs use; ``Q0`` (the TREC
#: placeholder, in the QUT runs) is a plain shown document
CODES_2017 = ("NF", "AF", "NS", "AFN", "AFS", "DFN", "DFS", "NFS", "NFN", "Q0")

#: Task 1 of the 2018 tool: the candidate set is the top 5000 of PubMed
TASK1_N = 5000


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

    @property
    def qidx(self) -> np.ndarray:
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
        line_numbers = _Lines(lines, kept)
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


class _Lines:
    """Line number of a kept line (for messages), through the reader's own map."""

    def __init__(self, lines: Any, kept: Optional[np.ndarray]) -> None:
        self.lines = lines
        self.kept = kept

    def __getitem__(self, i: int) -> int:
        return int(self.lines[int(i) if self.kept is None else int(self.kept[i])])


def from_file_order(qrels: Qrels, cols: Any, rel: int = 1, task: int = 2) -> ScreeningLists:
    """Screening lists of a run read with ``read_run(..., order="file")``."""
    from ._ranking import _labels

    names = list(cols.query_names)
    counts = np.bincount(np.asarray(cols.query_codes, dtype=np.int64), minlength=len(names))
    offsets = offsets_from_counts(counts)
    qpos = np.fromiter((qrels.index.get(q, -1) for q in names), dtype=np.int64, count=len(names))
    known = qpos >= 0
    labels = np.full(len(cols.doc_ids), -1, dtype=np.int64)
    if known.any():
        line_known = np.repeat(known, counts)
        sub_offsets = offsets_from_counts(counts[known])
        labels[line_known] = _labels(qrels, qpos[known], sub_offsets, cols.doc_ids[line_known])
    return screening_lists(
        qrels, names, offsets, labels, cols.column2, rel, task, cols.lines, getattr(cols, "source", "")
    )


def from_ranked(ranked: Any, rel: int = 1, task: int = 2) -> ScreeningLists:
    """Screening lists of a :class:`~._ranking.RankedRun`: the ranking is the screening order
    (file order when the run was read with ``order="file"``); no column 2."""
    qids = [ranked.qrels.query_ids[i] for i in ranked.qpos.tolist()]
    return screening_lists(ranked.qrels, qids, ranked.offsets, ranked.labels, None, rel, task)


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
    uniq, inverse = np.unique(col.astype(str), return_inverse=True)
    inverse = inverse.reshape(-1)
    unknown = [j for j, u in enumerate(uniq.tolist()) if u not in CODES_2017]
    if unknown:
        i = int(np.flatnonzero(np.isin(inverse, unknown))[0])
        raise _column2_error(
            lists, i, f"an interaction code in column 2 ({', '.join(CODES_2017)})", repr(str(col[i]))
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
    text = col.astype(str)
    ok = np.char.isdigit(np.char.lstrip(text, "+-"))
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise _column2_error(
            lists, i, "a threshold flag in column 2 (an integer, 1 = threshold)", repr(text[i])
        )
    return text.astype(np.int64)


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
    r95 = np.round(n_rel.astype(np.float64) * 0.95).astype(np.int64)
    k95 = lists.first_of(rs & (cg == r95[lists.qidx]), k)
    with np.errstate(divide="ignore", invalid="ignore"):
        wss_100 = (n_prime - last_rel) / n_prime
        wss_95 = ((n_prime - k95) / n_prime) - 0.05
    wss_100_int = found < n_rel
    wss_95_int = found < r95
    wss_100 = np.where(wss_100_int, 0.0, wss_100)
    wss_95 = np.where(wss_95_int, 0.0, wss_95)

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


def tar2018(*args: Any, **kwargs: Any) -> Dict[str, np.ndarray]:  # pragma: no cover - below
    raise NotImplementedError
