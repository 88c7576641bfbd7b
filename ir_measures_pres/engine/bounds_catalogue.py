"""The measures the bounds over unjudged documents (:mod:`.bounds`) speak of, derived from the
:class:`~..measures.bounds_spec.BoundSpec` each measure carries beside its kernel: the spec of a
measure, the list of the measures that have bounds (what a refusal names), and the table of
docs/uncertainty.md (tests/test_bounds_specs.py checks the page against it). Nothing here is
typed by hand per measure.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..measures.bounds_spec import COMPLETIONS, EXTREMES, FREE, JUDGED_ONLY, REFUSED, BoundSpec

__all__ = ["all_specs", "docs_table", "spec_of", "supported"]


def spec_of(measure: Any) -> Optional[BoundSpec]:
    """The :class:`BoundSpec` of ``measure``: its catalogue entry's, or its native kernel's for
    an ir_measures measure (None: the bounds know nothing of it)."""
    from ..measures.catalogue import entry_of
    from ..measures.standard.kernels import standard_bounds

    entry = entry_of(measure)
    return entry.bounds if entry is not None else standard_bounds(measure)


def all_specs() -> List[BoundSpec]:
    """Every spec: the standard measures' (their native kernels' order), then the catalogue's."""
    from ..measures.standard.kernels import STANDARD_KERNELS, STANDARD_REFUSED
    from ..measures.table import MEASURES

    standard = [k.bounds for k in STANDARD_KERNELS.values()] + list(STANDARD_REFUSED.values())
    return [s for s in standard + [e.bounds for e in MEASURES] if s is not None]


def supported() -> str:
    """The measures that have bounds, as the refusal lists them: extremes first, then completions."""
    specs = all_specs()
    return ", ".join(s.label for kind in (EXTREMES, COMPLETIONS) for s in specs if s.kind == kind)


#: the docs table's cells of each kind: (bounds, how)
_DOCS_CELLS = {
    EXTREMES: (
        "exact",
        "they do not depend on R and never fall when a document's gain rises: lo and hi are the run "
        "as judged and every unjudged document at the level of the smallest or the largest gain",
    ),
    COMPLETIONS: (
        "exact",
        'hi = max over m of "the m highest-ranked unjudged documents relevant", lo = min over m of '
        '"the m lowest-ranked relevant", m = 0 .. u',
    ),
    FREE: (
        "none needed",
        "its value does not depend on relevance: lo = hi = value (the command leaves the cells empty)",
    ),
}
_GRADED_CELLS = (
    "exact with one relevant gain, else outer (`exact` false)",
    "one relevant gain: as the row above; else numerator and normaliser bounded apart (below)",
)


def docs_table() -> str:
    """The table "Which measures, and how exact" of docs/uncertainty.md, derived from the specs
    (tests/test_bounds_specs.py checks that the page holds it): one row per kind of bounds, the
    refused measures one row per reason."""
    rows: Dict[Tuple[str, str], List[str]] = {}
    order = {EXTREMES: 0, COMPLETIONS: 1, REFUSED: 3, FREE: 4}
    specs = sorted(all_specs(), key=lambda s: order[s.kind] + (1 if s.kind == COMPLETIONS and s.gain else 0))
    for s in specs:
        if s.kind == REFUSED:
            cells = ("refused", s.reason)
        elif s.kind == COMPLETIONS and s.gain is not None:
            cells = _GRADED_CELLS
        else:
            cells = _DOCS_CELLS[s.kind]
        rows.setdefault(cells, []).append(f"`{s.label}`")
    lines = ["| measures | bounds | how |", "|---|---|---|"]
    lines += [f"| {', '.join(names)} | {bounds} | {how} |" for (bounds, how), names in rows.items()]
    lines.append(f"| any `judged_only=True` | refused | {JUDGED_ONLY} |")
    lines.append("| anything else | refused | not bounded yet; the message lists the measures that are |")
    return "\n".join(lines)
