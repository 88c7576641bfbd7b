"""The NTCIREVAL families against pyNTCIREVAL (PyPI 0.0.3, the Python port of NTCIREVAL) where it
has the measure: NCU (gu/rb x P/BR), RBP, ERR, nERR@l, nDCG@l (original form), MSnDCG@l, and
P@l / Hit@l (the command's ir_measures ``P`` and ``Success``); to 1e-9.

Seeded random graded topics (levels 0-3, retrieved documents absent from the qrels, topics with
one level only); judged_only False and True (pyNTCIREVAL gets the condensed list). pyNTCIREVAL
ranks in list order: the run has strictly decreasing scores in that order. Its measures take
``grades`` for levels 1..3 (g_max = the last), so ours get the same ``gains``. RBP and ERR have
no cutoff in pyNTCIREVAL: ``@l`` gets the top l of the list. Not in pyNTCIREVAL 0.0.3: GAP, EBR,
iRBU, RBP@l, ERR@l and the -j bpref family (tests/test_ntcir_reference.py checks those against
NTCIREVAL itself).
"""

from __future__ import annotations

import random
from typing import Any

import ir_measures
import pytest

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.measures.ntcir import NCU, NTCIR_ERR, NTCIR_RBP, MSnDCG, NTCIR_nDCG, NTCIR_nERR

pyntcireval = pytest.importorskip("pyNTCIREVAL.metrics")

TOL = 1e-9
GAINS = ({1: 1, 2: 2, 3: 3}, {1: 1, 2: 4, 3: 9})
SEEDS = range(6)


def topic(seed: int) -> tuple[dict[str, int], list[str]]:
    """(qrels of one topic with a relevant document, the run's documents best first)."""
    rng = random.Random(seed)
    levels = rng.choice([[0, 1, 2, 3], [0, 3], [1]])
    qrels = {f"d{i}": rng.choice(levels) for i in range(rng.randint(1, 25))}
    qrels[f"d{rng.randint(0, 30)}"] = max(levels)
    pool = [f"d{i}" for i in range(40)]
    rng.shuffle(pool)
    return qrels, pool[: rng.randint(1, 40)]


def oracle_input(qrels: dict[str, int], order: list[str], judged_only: bool) -> tuple[list[Any], list[int]]:
    ranked = [(d, qrels.get(d)) for d in order if not judged_only or d in qrels]
    xrelnum = [sum(1 for v in qrels.values() if v == level) for level in range(4)]
    return ranked, xrelnum


def ours(measure: Any, qrels: dict[str, int], order: list[str]) -> float:
    run = {"q": {d: float(len(order) - r) for r, d in enumerate(order)}}
    found = {m.query_id: m.value for m in ir_measures.iter_calc([measure], {"q": qrels}, run)}
    return found["q"]


def cases() -> list[tuple[str, Any, Any]]:
    """(id, our measure, pyNTCIREVAL value from (ranked, xrelnum, grades))."""
    out = []
    m = pyntcireval
    for g in GAINS:
        grades = [float(g[level]) for level in (1, 2, 3)]
        for beta in (0.0, 1.0, 0.5):
            out.append(
                (
                    f"NCUgu b={beta} {g}",
                    NCU(beta=beta, gains=g),
                    lambda r, x, gr=grades, b=beta: m.NCUguBR(x, gr, gr, b).compute(r),
                )
            )
            out.append(
                (
                    f"NCUrb b={beta} {g}",
                    NCU(beta=beta, gains=g, stopping="rb", gamma=0.8),
                    lambda r, x, gr=grades, b=beta: m.NCUrbBR(x, gr, 0.8, b).compute(r),
                )
            )
        out.append(("NCUguP", NCU(beta=0.0, gains=g), lambda r, x, gr=grades: m.NCUguP(x, gr, gr).compute(r)))
        out.append(
            (
                "NCUrbP",
                NCU(beta=0.0, gains=g, stopping="rb"),
                lambda r, x, gr=grades: m.NCUrbP(x, gr, 0.95).compute(r),
            )
        )
        for p in (0.95, 0.5):
            out.append(
                (
                    f"RBP p={p}",
                    NTCIR_RBP(p=p, gains=g),
                    lambda r, x, gr=grades, p=p: m.RBP(x, gr, p).compute(r),
                )
            )
        out.append(("ERR", NTCIR_ERR(gains=g), lambda r, x, gr=grades: m.ERR(x, gr).compute(r)))
        for cut in (1, 5, 20):
            out.append(
                (
                    f"ERR@{cut}",
                    NTCIR_ERR(gains=g) @ cut,
                    lambda r, x, gr=grades, c=cut: m.ERR(x, gr).compute(r[:c]),
                )
            )
            out.append(
                (
                    f"nERR@{cut}",
                    NTCIR_nERR(gains=g) @ cut,
                    lambda r, x, gr=grades, c=cut: m.nERR(x, gr, c).compute(r),
                )
            )
            out.append(
                (
                    f"MSnDCG@{cut}",
                    MSnDCG(gains=g) @ cut,
                    lambda r, x, gr=grades, c=cut: m.MSnDCG(x, gr, c).compute(r),
                )
            )
            if g is GAINS[0]:  # P@l and Hit@l (ir_measures' P and Success) take no gains
                out.append((f"P@{cut}", ir_measures.P @ cut, lambda r, x, c=cut: m.Precision(c).compute(r)))
                out.append((f"Hit@{cut}", ir_measures.Success @ cut, lambda r, x, c=cut: m.Hit(c).compute(r)))
            for b in (2.0, 10.0):
                out.append(
                    (
                        f"nDCG@{cut} b={b}",
                        NTCIR_nDCG(gains=g, logb=b) @ cut,
                        lambda r, x, gr=grades, c=cut, b=b: m.nDCG(x, gr, b, c).compute(r),
                    )
                )
    return out


CASES = cases()


@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize(
    ("name", "measure", "oracle"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_equals_pyntcireval(name: str, measure: Any, oracle: Any, judged_only: bool) -> None:
    if judged_only:
        measure = measure(judged_only=True)
    for seed in SEEDS:
        qrels, order = topic(seed)
        ranked, xrelnum = oracle_input(qrels, order, judged_only)
        expected = oracle(ranked, xrelnum) if ranked else 0.0
        assert ours(measure, qrels, order) == pytest.approx(expected, abs=TOL), (name, seed)
