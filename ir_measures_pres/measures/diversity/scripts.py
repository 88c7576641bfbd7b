"""What NTCIREVAL 190111's diversity scripts compute for a run before they write its file
(spec diversity.md §6, §7, §9): ``ntcir_eval gcompute``'s values of each topic (of each intent
with a relevant document, for the intent-aware scripts), its two comment lines' counts and
``irec``'s I-rec values (:class:`ScriptValues`, made by :func:`script_values` from the kernels
of :mod:`.kernels`). The files' lines, and what the scripts compute in awk from the printed
values (D#, DIN#, the intent-aware sums), are :mod:`ir_measures_pres.printers.diversity`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional

import numpy as np

from .kernels import (
    RBP_P,
    RBP_P_EVAL2,
    DiversityJudgements,
    DiversityLists,
    IntentSegments,
    first_ranks,
    found,
    gcompute,
    intent_found,
    intent_recall,
    intent_segments,
)

__all__ = ["INTENT_SCRIPTS", "SCRIPTS", "SUPPORTED", "ScriptValues", "script_values"]

#: the scripts of the diversity suite, in the order of README.diversity
SCRIPTS = (
    "D-NTCIR-eval",
    "D-NTCIR-eval2",
    "DIN-NTCIR-eval",
    "D-NTCIR-IAeval",
    "D-NTCIR-IAeval2",
    "DIN-NTCIR-PQeval",
    "NEVIAPQ2sharpnev",
)
#: the scripts whose files are reproduced (docs/diversity.md's status table): all of them
SUPPORTED = SCRIPTS
#: the scripts whose values are per intent (NEVIAPQ2sharpnev reads DIN-NTCIR-PQeval's file)
INTENT_SCRIPTS = ("D-NTCIR-IAeval", "D-NTCIR-IAeval2", "DIN-NTCIR-PQeval", "NEVIAPQ2sharpnev")


@dataclass
class ScriptValues:
    """A script's numbers for a run at cutoff ``cutoff``: per topic of ``judg`` (per intent with
    a relevant document, in ``segs``' order, for :data:`INTENT_SCRIPTS`) the documents the list
    holds up to the cutoff (``syslen``), ``gcompute``'s values by printed name and the comment
    lines' ``r1`` / ``rp`` (``heads``); per topic the run's list length (``lengths``), I-rec at
    the cutoff (``irec_l``; the per-topic scripts and NEVIAPQ2sharpnev) and at the number of
    intents (``irec_n``; the per-topic scripts)."""

    script: str
    cutoff: int
    judg: DiversityJudgements
    lengths: np.ndarray
    syslen: np.ndarray
    values: Dict[str, np.ndarray]
    heads: Dict[str, np.ndarray]
    irec_l: Optional[np.ndarray] = None
    irec_n: Optional[np.ndarray] = None
    segs: Optional[IntentSegments] = None


def script_values(script: str, judg: DiversityJudgements, lists: DiversityLists, cutoff: int) -> ScriptValues:
    """What ``script`` computes for the run's ``lists`` at cutoff ``cutoff`` (D-NTCIR-eval2: RBP
    with p = 0.99; DIN-NTCIR-eval: DIN's gains)."""
    if script not in SUPPORTED:
        raise ValueError(f"{script} is not reproduced yet (supported: {', '.join(SUPPORTED)})")
    all_topics = np.full(len(judg.topics), cutoff)
    if script in INTENT_SCRIPTS:
        segs = intent_segments(judg)
        f = intent_found(judg, segs, lists, cutoff)
        values = gcompute(f, segs.ideal, cutoff)
        irec_l = intent_recall(judg, lists, all_topics) if script == "NEVIAPQ2sharpnev" else None
        return ScriptValues(
            script, cutoff, judg, lists.lengths, f.syslen, values, first_ranks(f), irec_l, segs=segs
        )
    rbp = RBP_P_EVAL2 if script == "D-NTCIR-eval2" else RBP_P
    f = found(judg, lists, cutoff, din=script == "DIN-NTCIR-eval")
    values = gcompute(f, judg.ideal, cutoff, rbp)
    irec_l = intent_recall(judg, lists, all_topics)
    irec_n = intent_recall(judg, lists, judg.n_intents)
    return ScriptValues(script, cutoff, judg, lists.lengths, f.syslen, values, first_ranks(f), irec_l, irec_n)
