"""Column 2 of a TAR screening run (2017 interaction codes, 2018 threshold flags), carried over
from the run to its ranking (docs/tar.md).

:func:`attach_column2` is what :func:`~.ranking.rank_run` does with a run read with
``read_run(..., order="file")`` (or a frame with an ``iteration`` column); :class:`KeptLines`
maps the lines a ranking or a screening list keeps to their line numbers in the file, for
messages. The TAR measures (:mod:`ir_measures_pres.measures.tar`) read both.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

__all__ = ["KeptLines", "attach_column2"]


class KeptLines:
    """Line number of a kept line (for messages), through the reader's own map."""

    def __init__(self, lines: Any, kept: Optional[np.ndarray]) -> None:
        self.lines = lines
        self.kept = kept

    def __getitem__(self, i: int) -> int:
        return int(self.lines[int(i) if self.kept is None else int(self.kept[i])])


def attach_column2(run: Any, ranked: Any) -> None:
    """Carry column 2 of a screening run over to its ranking: a
    :class:`~.readers.FileOrderColumns` (``column2``) or a DataFrame with an ``iteration``
    column (ir_measures' name for column 2; ``FileOrderColumns.frame()`` makes one). The
    ranking must be the row order (topics contiguous, scores decreasing within each, as
    ``read_run(..., order="file")`` makes them); otherwise nothing is attached, and a measure
    that needs column 2 says that it is missing."""
    column2 = getattr(run, "column2", None)
    lines, source = None, getattr(run, "source", "")
    if column2 is not None:
        qids = np.asarray(run.query_ids, dtype=object)
        scores = np.asarray(run.values, dtype=np.float64)
        lines = run.lines
    elif hasattr(run, "columns") and "iteration" in getattr(run, "columns", ()):
        column2 = run["iteration"].astype(str).to_numpy(dtype=object)
        qids = run["query_id"].astype(str).to_numpy(dtype=object)
        scores = run["score"].to_numpy(dtype=np.float64)
    else:
        return
    if not len(qids):
        return
    same = qids[1:] == qids[:-1]
    if (same & ~(scores[1:] < scores[:-1])).any():  # not in decreasing score order
        return
    heads = np.concatenate(([0], np.flatnonzero(~same) + 1))
    if len(set(qids[heads].tolist())) != len(heads):  # a topic split in two
        return
    known = np.fromiter((q in ranked.qrels.index for q in qids[heads].tolist()), dtype=bool, count=len(heads))
    keep = np.repeat(known, np.diff(np.append(heads, len(qids))))
    if int(keep.sum()) != len(ranked.labels):
        return
    kept = np.flatnonzero(keep)
    ranked.column2 = (column2[keep], None if lines is None else KeptLines(lines, kept), source)
