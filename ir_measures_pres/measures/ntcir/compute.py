"""What NTCIREVAL's ``ntcir_eval compute`` computes for a run, before it is printed: per topic of
the qrels, the values of the registered measures behind its lines (:func:`compute`, each by its
own kernel), the counts of its two comment lines (:func:`header_counts`), and which topics it
evaluates (:class:`ComputeRun`, made by :func:`compute_run`). Which measure stands behind which
printed name, and the lines, are :mod:`ir_measures_pres.printers.ntcir`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Sequence

import numpy as np

from ...data.qrels import Qrels
from ...data.ranking import RankedRun
from .kernels import found

__all__ = ["ComputeRun", "compute", "compute_run", "header_counts"]


def compute(measure: Any, ranked: RankedRun) -> np.ndarray:
    """One value per ranked topic of ``ranked``, by the measure's registered kernel."""
    from ..catalogue import entry_of
    from ..standard.kernels import kernel_for

    entry = entry_of(measure)
    if entry is not None:
        return entry.compute(measure, ranked)
    kernel = kernel_for(measure)
    if kernel is None:  # pragma: no cover - the printer's lines name only measures with a kernel
        raise ValueError(f"no kernel computes {measure}")
    return kernel(measure, ranked)


def header_counts(ranked: RankedRun, condensed: bool) -> Dict[str, np.ndarray]:
    """Per ranked topic, the numbers of the tool's two comment lines: syslen, jrel, jnonrel,
    r1 (rank of the first relevant document, 0 if none) and rp (the first document of the
    highest level retrieved, 0 if none)."""
    f = found(ranked, condensed, None, None, "ntcir")
    n = f.rel.num_queries
    r1 = np.zeros(n, dtype=np.int64)
    rp = np.zeros(n, dtype=np.int64)
    has = np.diff(f.rel.offsets) > 0
    starts = f.rel.offsets[:-1][has]
    r1[has] = f.rel.rank[starts]
    if has.any():
        top = np.maximum.reduceat(f.level, starts)
        top_of = np.zeros(n, dtype=np.int64)
        top_of[has] = top
        queries, first = f.rel.first(f.level == top_of[f.q])
        rp[queries] = f.rel.rank[first]
    return {"syslen": f.syslen, "jrel": f.n_rel, "jnonrel": f.n_nonrel, "r1": r1, "rp": rp}


@dataclass
class ComputeRun:
    """``ntcir_eval compute``'s numbers for a run, per topic of the qrels (in qrels file order):
    ``n_rel`` / ``n_nonrel`` the judged relevant and non-relevant documents, ``row`` the run's
    ranked row of each topic it has (qrels position -> row), ``heads`` the comment lines' counts
    and ``values`` one array per measure, per ranked row."""

    topics: List[str]
    n_rel: np.ndarray
    n_nonrel: np.ndarray
    condensed: bool
    row: Dict[int, int]
    heads: Dict[str, np.ndarray]
    values: List[np.ndarray]

    def evaluated(self, q: int) -> bool:
        """Whether the tool evaluates the qrels topic at position ``q``: not one without a relevant
        document, nor with ``-j`` one without a judged non-relevant document (``label`` fails)."""
        return not (self.n_rel[q] == 0 or (self.condensed and self.n_nonrel[q] == 0))

    def skipped(self) -> List[str]:
        """The qrels topics the tool does not evaluate (:meth:`evaluated`), in qrels order."""
        return [tid for q, tid in enumerate(self.topics) if not self.evaluated(q)]

    def lacking(self) -> List[str]:
        """The qrels topics the run lacks (the tool is given an empty list: every value 0)."""
        return [tid for q, tid in enumerate(self.topics) if q not in self.row]


def compute_run(measures: Sequence[Any], qrels: Qrels, ranked: RankedRun, condensed: bool) -> ComputeRun:
    """The values of ``measures`` (one per printed line, in order) for the ranked run."""
    return ComputeRun(
        topics=list(qrels.query_ids),
        n_rel=qrels.count(lo=1),
        n_nonrel=qrels.count(lo=0, hi=1),
        condensed=condensed,
        row={q: i for i, q in enumerate(ranked.qpos.tolist())},
        heads=header_counts(ranked, condensed),
        values=[compute(measure, ranked) for measure in measures],
    )
