"""Bounds as columns of a run's table (``--bounds`` of the main command, :mod:`.streaming`):
for each bounded measure its ``lo``, ``hi``, ``exact`` and RBP's ``residual``, per answered query
of a block, computed by :func:`.bounds.query_bounds`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence, Tuple

import numpy as np

from ..data.ranking import RankedRun
from .bounds import bound_plan, is_rbp, query_bounds, rbp_residual


def bounds_rows(measures: Sequence[Any], ranked: RankedRun) -> List[Tuple[Any, List[str], List[float]]]:
    """For the main command (:mod:`.streaming`): per measure, three rows of the block's answered
    queries: (:class:`BoundOf` lo, hi, exact (1.0 / 0.0)), as :func:`.streaming.block_metrics`
    hands rows to a :class:`.streaming.RunTable`."""
    answered = ranked.lengths > 0
    ids = ranked.qrels.query_ids
    qids = [ids[i] for i in ranked.qpos[answered].tolist()]
    rows: List[Tuple[Any, List[str], List[float]]] = []
    for m in measures:
        _, lo, hi, exact = query_bounds(m, ranked, bound_plan(m, ranked.qrels))
        rows.append((BoundOf(m, "lo"), qids, lo[answered].tolist()))
        rows.append((BoundOf(m, "hi"), qids, hi[answered].tolist()))
        rows.append((BoundOf(m, "exact"), qids, exact[answered].astype(np.float64).tolist()))
        if is_rbp(m):
            rows.append((BoundOf(m, "residual"), qids, rbp_residual(m, ranked, lo, hi)[answered].tolist()))
    return rows


def bound_columns(measures: Sequence[Any]) -> List["BoundOf"]:
    """The columns :func:`bounds_rows` fills for ``measures``, in its order."""
    columns: List[BoundOf] = []
    for m in measures:
        sides = ("lo", "hi", "exact", "residual") if is_rbp(m) else ("lo", "hi", "exact")
        columns.extend(BoundOf(m, side) for side in sides)
    return columns


@dataclass(frozen=True)
class BoundOf:
    """One side of a measure's bounds as a column of a :class:`.streaming.RunTable` (``lo``,
    ``hi``, ``exact`` as 1.0 / 0.0, RBP's ``residual``): its DEFAULT is the measure's (exact: 1;
    residual: 1, nothing seen), its mean the mean of the per-query values."""

    measure: Any
    side: str

    @property
    def DEFAULT(self) -> float:  # noqa: N802 - ir_measures' name
        return 1.0 if self.side in ("exact", "residual") else float(self.measure.DEFAULT)

    def aggregator(self) -> Any:
        from ir_measures.measures.base import MeanAgg

        return MeanAgg()

    def __str__(self) -> str:
        return f"{self.measure}:{self.side}"
