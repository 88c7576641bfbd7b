"""What the bounds over unjudged documents (:mod:`ir_measures_pres.engine.bounds`) need to know
of one measure: a :class:`BoundSpec`, which hangs off the measure's catalogue entry
(:mod:`.table`) or off its native kernel (:mod:`.standard.kernels`), beside the function that scores it.
Every list the bounds speak of (the measures bounded, those refused and why, the table of
docs/uncertainty.md) is derived from these records
(:mod:`ir_measures_pres.engine.bounds_catalogue`).

A record only: the gain functions a spec carries are handed in by the tables that hold the
measures' kernels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

import numpy as np

__all__ = [
    "COMPLETIONS",
    "EXTREMES",
    "FREE",
    "JUDGED_ONLY",
    "REFUSED",
    "SKIPS",
    "BoundSpec",
    "GainOf",
]

#: no dependence on R, never lower when a document's gain rises: the extreme completions
EXTREMES = "extremes"
#: normalised by R or an ideal ranking: the top-m / bottom-m completions (outer when graded)
COMPLETIONS = "completions"
#: the value does not depend on relevance: lo = hi = value, exact
FREE = "relevance-free"
#: no bounds, for the reason the spec gives
REFUSED = "refused"

#: why every ``judged_only=True`` measure is refused
JUDGED_ONLY = "judged_only=True drops them from the list, so their labels change the list itself"
#: why the bpref family is refused (``SKIPS.format(name)``)
SKIPS = "{} skips unjudged documents (only judged ones are ranked against each other)"

#: the gain a measure's kernel gives each level of an array (nan where the measure refuses the
#: level: its gains leave it out)
GainOf = Callable[[Any, np.ndarray], np.ndarray]


def _always(measure: Any) -> bool:
    return True


@dataclass(frozen=True)
class BoundSpec:
    """How one measure is bounded over unjudged documents (the engine's ``bounds`` has the proofs).

    ``kind``: :data:`EXTREMES`, :data:`COMPLETIONS`, :data:`FREE` or :data:`REFUSED`;
    ``label``: how the docs table and the refusal message name the measure; ``reason``: why it
    is refused (a clause). For the bounded kinds:

    * ``gain``: a graded measure's gain of each level, as its kernel gives it (None: binary, the
      levels >= ``rel`` relevant, the others not); ``relevant_by_gain``: a level of a graded
      measure is relevant (enters the normaliser) when its gain is > 0 (nDCG), else when it is
      >= ``rel`` (Q); ``grades_matter``: False where the gains do not enter the value (Q with
      beta = 0);
    * ``monotone``: the value never falls when a retrieved document becomes relevant and never
      rises when R grows, also across completions (the branch and bound's decoupled completions);
      ``per_relevant``: it is N(E) / (c R); ``concave``: and N is concave along the top-m
      completions, convex along the bottom-m ones (the engine's ``bounds_search``);
    * ``reads_scale``: the kernel reads the qrels' top level (NTCIREVAL's g_max), so the extremes
      are scored with completed qrels; ``full_cutoff``: the kernel cuts the list at the cutoff's
      default when none is given (PRES's N_max);
    * ``check``: why a parameter value has no bounds, the end of the refusal's sentence
      (``"for Bollmann's pairwise R_norm (pessimistic only)"``; None: it has).
    """

    kind: str
    label: str = ""
    reason: str = ""
    gain: Optional[GainOf] = None
    relevant_by_gain: bool = False
    grades_matter: Callable[[Any], bool] = _always
    monotone: Union[bool, Callable[[Any], bool]] = False
    per_relevant: bool = False
    concave: bool = False
    reads_scale: bool = False
    full_cutoff: bool = False
    check: Optional[Callable[[Any], Optional[str]]] = None

    @classmethod
    def refused(cls, label: str, reason: str) -> "BoundSpec":
        """A measure without bounds, and why."""
        return cls(REFUSED, label, reason)

    def monotone_for(self, measure: Any) -> bool:
        return self.monotone(measure) if callable(self.monotone) else self.monotone
