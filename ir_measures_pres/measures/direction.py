"""Which way a measure's values order runs: the one fact that ``compare`` (its best mark and its
"significantly better"), the meta-evaluation's agreement, the comparison tables and the plots ask.

Every measure the catalogue accepts has one direction (:data:`~.entry.DIRECTIONS`):

* this package's measures declare it in their entry (:attr:`.entry.Entry.direction`,
  :data:`.table.MEASURES`): lower is better for E, trec_eval 10's ``unj`` and ``rbp_resid``, and
  the TAR measures that count effort or loss (``LastRel``, ``TarLoss``, ``TarCost``,
  ``TarUtility``); neither for counts that say nothing of a run's quality (``NumCandidates``,
  ``NumFeedback``, ``Threshold``, ``inum_rel``, ``NumShown`` without ``rel``); higher for the rest;
* the standard (ir_measures) measures have theirs in :data:`STANDARD`, by ir_measures NAME:
  higher is better for all of them (ir_measures has no lower-is-better measure) except the counts
  ``NumQ``, ``NumRel`` and ``NumRet`` without ``rel``, which have none. ``Judged`` (the share of
  the top k that is judged) is higher-is-better, the mirror of ``unj``.

A measure ir_measures knows from another plugin has no direction here: :data:`~.entry.NEITHER`,
so nothing calls one of its runs better or best.
"""

from __future__ import annotations

import functools
from typing import Any, Dict

from .entry import DIRECTIONS, HIGHER, LOWER, NEITHER, Direction, higher_with_rel
from .table import entry_of

__all__ = [
    "DIRECTIONS",
    "HIGHER",
    "LOWER",
    "NEITHER",
    "STANDARD",
    "direction_of",
    "direction_of_name",
    "orientation",
]

#: ir_measures measure NAME -> direction of the standard measures the catalogue accepts
STANDARD: Dict[str, Direction] = {
    **dict.fromkeys(
        (
            "AP",
            "AP_IA",
            "Accuracy",
            "BPM",
            "Bpref",
            "Compat",
            "ERR",
            "ERR_IA",
            "INSQ",
            "INST",
            "IPrec",
            "Judged",
            "NERR8",
            "NERR9",
            "NERR10",
            "NERR11",
            "NRBP",
            "P",
            "P_IA",
            "R",
            "RBP",
            "RR",
            "Rprec",
            "SDCG",
            "SetAP",
            "SetF",
            "SetP",
            "SetR",
            "StRecall",
            "Success",
            "alpha_DCG",
            "alpha_nDCG",
            "infAP",
            "nDCG",
            "nERR_IA",
            "nNRBP",
        ),
        HIGHER,
    ),
    "NumQ": NEITHER,
    "NumRel": NEITHER,
    "NumRet": higher_with_rel,  # NumRelRet is NumRet(rel=1): trec_eval's num_rel_ret
}


def direction_of(measure: Any) -> str:
    """``"higher"``, ``"lower"`` or ``"neither"``: which way ``measure`` (a measure object) orders
    runs, from its catalogue entry or :data:`STANDARD`; ``"neither"`` for a measure known to
    neither (another plugin's)."""
    import ir_measures

    entry = entry_of(measure)
    if entry is not None:
        found: Any = entry.direction
    else:
        name = str(getattr(measure, "NAME", ""))
        registered = ir_measures.measures.registry.get(name)
        standard = registered is not None and isinstance(measure, type(registered))
        found = STANDARD.get(name, NEITHER) if standard else NEITHER
    return str(found(measure) if callable(found) else found)


@functools.lru_cache(maxsize=None)
def direction_of_name(name: str) -> str:
    """:func:`direction_of` the one measure ``name`` stands for as the catalogue reads it
    (``"AP@100"``, ``"unj_10"``, ``"map"``: the labels of per-topic score tables); ``"neither"``
    when it names no measure or several (``"P"``: trec_eval's cutoffs)."""
    from .catalogue import MeasureNameError, parse_measures

    try:
        measures = parse_measures(name)
    except (MeasureNameError, TypeError):
        return NEITHER
    return direction_of(measures[0]) if len(measures) == 1 else NEITHER


def orientation(direction: str) -> int:
    """-1 for a lower-is-better direction, else +1: the factor that turns a difference of values
    into a difference of quality (a measure of neither direction is read by its values)."""
    return -1 if direction == LOWER else 1
