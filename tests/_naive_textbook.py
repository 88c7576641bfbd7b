"""The textbook's measures written naively, straight from the chapter's definitions
(docs/textbook.md), independently of the package's kernels: the oracle of tests/test_textbook.py
and of bench/bench_textbook.py, one copy for both."""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Set

import numpy as np


def trec_ranking(docs: Dict[str, float]) -> List[str]:
    """One query's document ids in trec_eval's order: score compared as float32, descending,
    then document id descending (byte order)."""
    by_id = sorted(docs.items(), key=lambda x: x[0].encode(), reverse=True)
    return [d for d, _ in sorted(by_id, key=lambda x: -float(np.float32(x[1])))]  # stable sort


def naive(
    name: str,
    labels: Dict[str, int],
    ranking: List[str],
    known: Set[str],
    k: Optional[int],
    beta: float = 1.0,
    logb: float = 2.0,
) -> float:
    """One query's value of measure ``name`` (``@k`` when k is not None); NaN where undefined."""
    top = ranking if k is None else ranking[:k]
    relevant = {d for d, v in labels.items() if v >= 1}
    seen = [j for j, d in enumerate(top, 1) if d in relevant]
    if name == "APSeen":
        return sum(sum(1 for d in top[:j] if d in relevant) / j for j in seen) / len(seen) if seen else 0.0
    if name in ("F", "E"):
        cut = len(ranking) if k is None else k
        f = 0.0
        if seen and relevant:
            r, p = len(seen) / len(relevant), len(seen) / cut
            f = (1 + beta**2) / (beta**2 / r + 1 / p)
        return f if name == "F" else 1 - f
    kr = relevant & known
    if name == "Coverage":
        return len(kr & set(top)) / len(kr) if kr else math.nan
    if name == "Novelty":
        found = relevant & set(top)
        return len(found - known) / len(found) if found else 0.0
    if name == "RelativeRecall":
        return len(relevant & set(top)) / len(kr) if kr else math.nan
    if name == "RecallEffort":
        if not kr:
            return math.nan
        if kr <= set(ranking):
            return len(kr) / max(ranking.index(d) + 1 for d in kr)
        return len(kr) / len(ranking)
    gains = [max(labels.get(d, 0), 0) for d in top]
    if name == "CG":
        return float(sum(gains))
    return sum(g / max(1.0, math.log(i) / math.log(logb)) for i, g in enumerate(gains, 1))
