"""A naive reading of sample_eval.pl's estimators, straight from spec/judgements.md §1.2: one topic
at a time, one rank at a time, dicts for the counters. Test-only: the oracle the vectorised
kernels of :mod:`ir_measures_pres.measures.sampled.estimators` are compared with on random inputs
(tests/test_sampled_naive.py)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Dict, List, Tuple

LEVELS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def naive_topic(
    judged: Dict[str, Tuple[str, int]], ranking: List[str], variant: str, depth: int, ranks: List[int]
) -> Dict[str, object]:
    """``judged``: doc -> (stratum, rel) of one topic; ``ranking``: the run's documents, best first."""
    N: Dict[str, int] = defaultdict(int)
    n: Dict[str, int] = defaultdict(int)
    r: Dict[str, int] = defaultdict(int)
    s: Dict[str, Dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for c, rel in judged.values():
        N[c] += 1
        if rel >= 0:
            n[c] += 1
        if rel > 0:
            r[c] += 1
            s[c][rel] += 1
    strata = sorted(N)
    R = 0.0
    for c in strata:
        if n[c] != 0:
            R += r[c] * N[c] / n[c]
    E: Dict[int, float] = {}
    for c in strata:
        for g in sorted(s[c]):
            E[g] = E.get(g, 0.0) + s[c][g] * N[c] / n[c]
    ideal = 0.0
    start = 0.0
    for g in sorted(E, key=str, reverse=True):
        e = float(int(E[g] + 0.5)) if variant == "cds" else E[g]
        x = start + 1
        while x <= start + e:
            ideal += g / (math.log(x + 1) / math.log(2))
            if x >= depth:
                break
            x += 1
        start += e
    D = 0
    Dc: Dict[str, int] = defaultdict(int)
    Sc: Dict[str, int] = defaultdict(int)
    Qc: Dict[str, int] = defaultdict(int)
    SAP: Dict[str, float] = defaultdict(float)
    G: Dict[str, float] = defaultdict(float)
    est: List[float] = []
    for k, doc in enumerate(ranking[:depth], start=1):
        c, rel = judged.get(doc, (None, None))  # type: ignore[assignment]
        if rel is not None and rel > 0:
            above = 0.0
            for c2 in strata:
                if D != 0 and Dc[c2] != 0:
                    above += Dc[c2] / D * (Qc[c2] + 0.00001) / (Sc[c2] + 0.00003)
            SAP[c] += 1 / k + (D / k) * above
            Qc[c] += 1
            G[c] += rel / (math.log(k + 1) / math.log(2))
        if rel is not None:
            D += 1
            Dc[c] += 1
            if rel >= 0:
                Sc[c] += 1
        total = 0.0
        for c2 in strata:
            total += Dc[c2] * (Qc[c2] + 0.00001) / (Sc[c2] + 0.00003)
        est.append(total)
    ap = 0.0
    for c in strata:
        if n[c] != 0 and R != 0:
            ap += (r[c] * N[c] / n[c]) / R * (SAP[c] / r[c] if r[c] != 0 else 0.0)
    if variant == "trecvid" and R > depth:
        ap = ap * R / depth
    dcg = 0.0
    for c in strata:
        if D != 0 and Sc[c] != 0:
            dcg += Dc[c] / D * G[c] / Sc[c]
    ndcg = D * dcg / ideal if ideal != 0 else 0.0
    precision = {k: (est[min(k, len(est)) - 1] / k if est else 0.0) for k in ranks}
    # iprec@rec: from the last rank upwards, at most one level consumed per rank
    cuts = [x * R for x in LEVELS]
    points = [0.0] * len(LEVELS)
    current = len(LEVELS) - 1
    last = est[-1] if est else 0.0
    while current >= 0 and cuts[current] > last:
        current -= 1
    best = 0.0
    for k in range(len(est), 0, -1):
        best = max(best, est[k - 1] / k)
        if current >= 0 and cuts[current] > est[k - 1]:
            points[current] = best
            current -= 1
    while current >= 0:
        points[current] = best
        current -= 1
    return {
        "infAP": ap,
        "infNDCG": ndcg,
        "iP": precision,
        "inum_rel_ret": last,
        "inum_rel": R,
        "iprec": points,
    }
