"""Slow, obviously-correct reference implementations, written straight from the formulas.

Pure Python loops over one query's ranked list; used by ``bench_core.py`` to check our values on
a sample of queries of the large collection. Independent of the package's kernels: they share
nothing but the trec_eval ranking rule, which is written out again here.
"""

from __future__ import annotations

from typing import Dict, List, Optional


def trec_order(run_q: Dict[str, float]) -> List[str]:
    """Doc ids by score descending, then doc id descending (trec_eval)."""
    return sorted(run_q, key=lambda d: (run_q[d], d), reverse=True)


def pres(ranking: List[str], qrels_q: Dict[str, int], n_max: int = 1000, rel: int = 1) -> float:
    relevant = {d for d, v in qrels_q.items() if v >= rel}
    n = len(relevant)
    if n == 0:
        return 0.0
    ranks = [i + 1 for i, d in enumerate(ranking[:n_max]) if d in relevant]
    k = len(ranks)
    ranks += [n_max + j for j in range(k + 1, n + 1)]  # missing ones just after N_max
    return 1 - (sum(ranks) / n - (n + 1) / 2) / n_max


def rnorm(ranking: List[str], qrels_q: Dict[str, int], collection_size: int, rel: int = 1) -> float:
    relevant = {d for d, v in qrels_q.items() if v >= rel}
    n, big_n = len(relevant), collection_size
    if n == 0:
        return 0.0
    if n == big_n:
        return 1.0
    ranks = [i + 1 for i, d in enumerate(ranking) if d in relevant]
    m = n - len(ranks)
    ranks += list(range(big_n - m + 1, big_n + 1))  # unretrieved relevant ones ranked last
    return 1 - (sum(ranks) - n * (n + 1) / 2) / (n * (big_n - n))


def blended(
    ranking: List[str],
    qrels_q: Dict[str, int],
    beta: float = 1.0,
    gains: Optional[Dict[int, float]] = None,
    cutoff: Optional[int] = None,
) -> Dict[str, float]:
    """Q, O, P, P+ for one query (gains default g(L) = L)."""

    def gain(level: int) -> float:
        if level < 1:
            return 0.0
        return float(level) if gains is None else float(gains[level])

    rel_levels = sorted((v for v in qrels_q.values() if v >= 1), key=gain, reverse=True)
    big_r = len(rel_levels)
    ideal = []
    acc = 0.0
    for v in rel_levels:
        acc += gain(v)
        ideal.append(acc)
    listed = ranking if cutoff is None else ranking[:cutoff]
    out = {"Q": 0.0, "O": 0.0, "P": 0.0, "P+": 0.0}
    if big_r == 0:
        return out
    cg = 0.0
    count = 0
    brs = []  # (rank, level, BR) at the relevant documents
    for r, d in enumerate(listed, start=1):
        level = qrels_q.get(d, -1)
        if level >= 1:
            cg += gain(level)
            count += 1
            cgi = ideal[min(r, big_r) - 1]
            brs.append((r, level, (beta * cg + count) / (beta * cgi + r)))
    if not brs:
        return out
    norm = big_r if cutoff is None else min(cutoff, big_r)
    out["Q"] = sum(b for _, _, b in brs) / norm
    out["O"] = brs[0][2]
    top = max(level for _, level, _ in brs)
    rp_index = next(i for i, (_, level, _) in enumerate(brs) if level == top)
    out["P"] = brs[rp_index][2]
    out["P+"] = sum(b for _, _, b in brs[: rp_index + 1]) / (rp_index + 1)
    return out


def bpref10(
    ranking: List[str], qrels_q: Dict[str, int], rel: int = 1, variant: str = "trec", offset: int = 10
) -> float:
    big_r = sum(1 for v in qrels_q.values() if v >= rel)
    big_n = sum(1 for v in qrels_q.values() if 0 <= v < rel)
    if big_r == 0:
        return 0.0
    judged = [qrels_q[d] for d in ranking if d in qrels_q and qrels_q[d] >= 0]
    n_ret = sum(1 for v in judged if v < rel)
    cap = offset + big_r
    denom = {"trec": min(big_n, cap), "old": min(n_ret, cap), "paper": cap}[variant]
    total = 0.0
    above = 0
    for v in judged:
        if v >= rel:
            total += 1.0 if above == 0 else 1 - min(above, cap) / denom
        else:
            above += 1
    return total / big_r
