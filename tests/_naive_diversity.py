"""A naive, per-document implementation of the diversity measures, written straight from the
contract (shared spec diversity.md §2-§5: Sakai and Song SIGIR 2011, Sakai WWW 2012), with its
roundings: w_i(d) and GG(d) as awk writes a number (integer, else ``%.6g``), a retrieved
document's gain ``%.4f``. One topic at a time, plain Python loops; the oracle of
tests/test_diversity_command.py for the vectorised kernels of
:mod:`ir_measures_pres.measures.diversity.kernels`."""

from __future__ import annotations

import math
from typing import Dict, List, Tuple


def awk(value: float) -> float:
    """The number awk's ``print`` writes, read back."""
    return value if value == math.floor(value) else float("%.6g" % value)


def four(value: float) -> float:
    return float("%.4f" % value)


def naive_topic(
    probs: Dict[str, Tuple[float, bool]],
    lines: List[Tuple[str, str, int]],
    ranking: List[str],
    cutoff: int,
    exp: bool = False,
    rbp_p: float = 0.95,
) -> Dict[str, float]:
    """The values of one topic. ``probs``: intent -> (P(i|q), navigational); ``lines``: the
    topic's qrels lines (intent, docno, level) in file order; ``ranking``: the run's docnos for
    the topic in file order."""
    ranking = ranking[:1000]
    weight: Dict[Tuple[str, str], float] = {}
    by_doc: Dict[str, List[str]] = {}
    for intent, doc, level in lines:
        if level == 0:
            continue
        g = (2.0**level - 1) if exp else float(level)
        weight[(intent, doc)] = awk(probs[intent][0] * g)
        by_doc.setdefault(doc, []).append(intent)
    gg: Dict[str, float] = {}
    for doc, intents in by_doc.items():
        total = 0.0
        for intent in intents:
            total += weight[(intent, doc)]
        gg[doc] = awk(total)
    ideal = sorted((v for v in gg.values() if v > 0), reverse=True)
    big_r = len(ideal)
    h = max(ideal) if ideal else 0.0
    intents_with_docs = {i for i, _, level in lines if level > 0}
    n = len(intents_with_docs)
    top = ranking[:cutoff]
    d_gains = [four(gg.get(doc, 0.0)) for doc in top]
    din_gains: List[float] = []
    seen: set = set()
    for doc in top:
        total = 0.0
        for intent in by_doc.get(doc, []):
            if not probs[intent][1] or intent not in seen:
                total += weight[(intent, doc)]
        seen.update(by_doc.get(doc, []))
        din_gains.append(four(total))
    out: Dict[str, float] = {}
    for prefix, gains in (("D-", d_gains), ("DIN-", din_gains)):
        out.update({prefix + k: v for k, v in _single(gains, ideal, big_r, h, cutoff, rbp_p).items()})

    def irec(k: int) -> float:
        found = {i for doc in ranking[:k] for i in by_doc.get(doc, [])}
        return len(found) / n if n else 0.0

    # intent-aware (Agrawal et al. 2009) and P+Q (Sakai 2012): per intent with a relevant
    # document, its own gains and ideal list, weighed by P(i|q) (spec §6: the sum of P(i|q)
    # times the value gcompute printed, in the probability file's order)
    for name in ("IA-nDCG@l", "IA-Q@l", "IA-ERR", "P+Q@l"):
        out[name] = 0.0
    for intent, (p, nav) in probs.items():
        judged = {
            doc: ((2.0**level - 1) if exp else float(level))
            for i, doc, level in lines
            if i == intent and level > 0
        }
        if not judged:
            continue
        own = sorted(judged.values(), reverse=True)
        one = _single([four(judged.get(doc, 0.0)) for doc in top], own, len(own), max(own), cutoff, rbp_p)
        # the scripts weigh each intent's value as gcompute printed it (4 decimals)
        out["IA-nDCG@l"] += p * four(one["nDCG@l"])
        out["IA-Q@l"] += p * four(one["Q@l"])
        out["IA-ERR"] += p * four(one["ERR"])
        out["P+Q@l"] += p * four(one["P-plus"] if nav else one["Q@l"])
    out["I-rec@l"] = irec(cutoff)
    out["I-rec@n"] = irec(n)
    out["D#-nDCG@l"] = 0.5 * out["I-rec@l"] + 0.5 * out["D-nDCG@l"]
    out["D#-Q@l"] = 0.5 * out["I-rec@l"] + 0.5 * out["D-Q@l"]
    return out


def _single(
    gains: List[float], ideal: List[float], big_r: int, h: float, cutoff: int, rbp_p: float
) -> Dict[str, float]:
    """gcompute's measures on one list of gains against one ideal list."""
    cg = count = 0.0
    q_sum = ap_sum = 0.0
    dcg = 0.0
    err = 0.0
    ebr = 0.0
    rbp = 0.0
    not_stopped = 1.0
    first_br = 0.0
    best = max(gains, default=0.0)
    brs_to_rp: List[float] = []
    for r, g in enumerate(gains, start=1):
        ideal_cg = sum(ideal[: min(r, big_r)])
        if g > 0:
            cg += g
            count += 1
            br = (cg + count) / (ideal_cg + r)
            q_sum += br
            ap_sum += count / r
            if count == 1:
                first_br = br
            if not brs_to_rp or brs_to_rp[-1] >= 0:
                brs_to_rp.append(br)
                if g == best:  # the preferred rank: the first with the list's largest gain
                    brs_to_rp.append(-1.0)
        dcg += g / math.log(r + 1)
        stop = g / (h + 1)
        err += not_stopped * stop / r
        if g > 0:  # the blended ratio at a relevant rank: the user stops there with probability stop
            ebr += not_stopped * stop * (cg + count) / (ideal_cg + r)
        not_stopped *= 1 - stop
        rbp += g * rbp_p ** (r - 1)
    depth = min(cutoff, big_r)
    ideal_dcg = sum(ideal[k - 1] / math.log(k + 1) for k in range(1, depth + 1))
    ideal_err = 0.0
    not_stopped = 1.0
    for k in range(1, depth + 1):
        stop = ideal[k - 1] / (h + 1)
        ideal_err += not_stopped * stop / k
        not_stopped *= 1 - stop
    return {
        "nDCG@l": dcg / ideal_dcg if ideal_dcg else 0.0,
        "Q@l": q_sum / depth if depth else 0.0,
        "AP@l": ap_sum / depth if depth else 0.0,
        "Q-measure": q_sum / big_r if big_r else 0.0,
        "O-measure": first_br,
        "ERR": err,
        "EBR": ebr,
        "nERR@l": err / ideal_err if ideal_err else 0.0,
        "RBP": (1 - rbp_p) * rbp / h if h else 0.0,
        "P@l": count / cutoff,
        "P-plus": _mean([b for b in brs_to_rp if b >= 0]) if best > 0 else 0.0,
    }


def _mean(values: List[float]) -> float:
    return sum(values) / len(values) if values else 0.0
