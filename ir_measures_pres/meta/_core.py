"""What the meta-evaluation experiments share besides the engine's :class:`Scores` (re-exported
here with :class:`Core`, the engine that ranks runs once and scores them against reduced
qrels)."""

from __future__ import annotations

from typing import Any, Iterable, Optional, Tuple

from ..engine.scores import Core, MeasureSpec, Scores, evaluate, load_qrels
from ..measures.catalogue import parse_measures

__all__ = [
    "Core",
    "MeasureSpec",
    "Scores",
    "evaluate",
    "load_qrels",
    "parse_measures",
    "measure_parts",
    "iter_pairs",
]


def measure_parts(measure: Any) -> Tuple[str, Optional[int]]:
    """(label without the ``@`` parameter, value of the ``@`` parameter or None)."""
    label = str(measure)
    at = getattr(measure, "AT_PARAM", "cutoff")
    cutoff = measure.params.get(at)
    if cutoff is not None and label.endswith(f"@{cutoff}"):
        return label[: -len(f"@{cutoff}")], cutoff
    return label, None


def iter_pairs(n: int) -> Iterable[Tuple[int, int]]:
    """Every unordered pair (i, j), i < j, in row order."""
    for i in range(n):
        for j in range(i + 1, n):
            yield i, j
