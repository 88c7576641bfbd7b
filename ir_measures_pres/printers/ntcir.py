"""The lines of NTCIREVAL's ``ntcir_eval compute``: which names it prints for a set of options,
in its order, and the registered measure behind each name (``ir_measures_pres ntcir`` and its
``--list``).

Every value is computed by a registered measure's own kernel (:func:`compute`): the catalogue's
entry for this package's measures, the native kernel of :mod:`..measures.standard.kernels` for
ir_measures' ``P`` and ``Success`` (NTCIREVAL's ``P@l`` and ``Hit@l`` are trec_eval's ``P_l`` and
``success_l``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..data.ranking import RankedRun
from ..measures.ntcir.blended_ratio import OMeasure, PMeasure, PPlusMeasure, QMeasure
from ..measures.ntcir.kernels import found
from ..measures.ntcir.measures import (
    EBR,
    GAP,
    NCU,
    NTCIR_ERR,
    NTCIR_RBP,
    MSnDCG,
    NTCIR_bpref,
    NTCIR_nDCG,
    NTCIR_nERR,
    NTCIR_rpref,
    iRBU,
)

#: the tool's defaults (ntcir_eval.h)
DEFAULT_BETA = 1.0
DEFAULT_GAMMA = 0.95
DEFAULT_RBP = 0.95
DEFAULT_LOGB = 2.0
DEFAULT_CUTOFFS = (1000,)
#: the tool's name field: ``name=`` left-aligned in this width
NAME_WIDTH = 21


@dataclass(frozen=True)
class Options:
    """``ntcir_eval compute``'s options. ``gains``: level -> gain (``-g``; None: g(L) = L),
    ``stops`` (``-s``)."""

    gains: Optional[Dict[int, float]] = None
    beta: float = DEFAULT_BETA
    gamma: float = DEFAULT_GAMMA
    rbp: float = DEFAULT_RBP
    logb: float = DEFAULT_LOGB
    gap: bool = False
    rbup: Optional[float] = None
    stops: Optional[Dict[int, float]] = None
    cutoffs: Tuple[int, ...] = DEFAULT_CUTOFFS
    condensed: bool = False


def measure_lines(opts: Options) -> List[Tuple[str, Any]]:
    """(printed name, measure) for every line the options make the tool print, in its order."""
    import ir_measures

    j: Dict[str, Any] = {"judged_only": True} if opts.condensed else {}
    g = {} if opts.gains is None else {"gains": dict(opts.gains)}
    blended = {"beta": opts.beta, **g, **j}
    stops = {"stops": dict(opts.stops)} if opts.stops is not None else {}
    lines: List[Tuple[str, Any]] = [
        ("RR", OMeasure(beta=0.0, **j)),
        ("O-measure", OMeasure(**blended)),
        ("P-measure", PMeasure(**blended)),
        ("P-plus", PPlusMeasure(**blended)),
        ("AP", QMeasure(beta=0.0, **j)),
        ("Q-measure", QMeasure(**blended)),
        ("NCUgu,P", NCU(beta=0.0, **g, **stops, **j)),
        ("NCUgu,BR", NCU(**blended, **stops)),
        ("NCUrb,P", NCU(stopping="rb", beta=0.0, gamma=opts.gamma, **j)),
        ("NCUrb,BR", NCU(stopping="rb", gamma=opts.gamma, **blended)),
    ]
    if opts.gap:
        lines.append(("GAP", GAP(**j)))
    lines += [
        ("RBP", NTCIR_RBP(p=opts.rbp, **g, **j)),
        ("ERR", NTCIR_ERR(**g, **j)),
        ("EBR", EBR(**blended)),
    ]
    for cut in opts.cutoffs:
        at = f"@{cut:04d}"
        lines += [(f"AP{at}", QMeasure(beta=0.0, **j) @ cut), (f"Q{at}", QMeasure(**blended) @ cut)]
        if opts.gap:
            lines.append((f"GAP{at}", GAP(**j) @ cut))
        lines += [
            (f"nDCG{at}", NTCIR_nDCG(logb=opts.logb, **g, **j) @ cut),
            (f"MSnDCG{at}", MSnDCG(**g, **j) @ cut),
            (f"P{at}", ir_measures.P(**j) @ cut),
            (f"RBP{at}", NTCIR_RBP(p=opts.rbp, **g, **j) @ cut),
            (f"ERR{at}", NTCIR_ERR(**g, **j) @ cut),
            (f"nERR{at}", NTCIR_nERR(**g, **j) @ cut),
            (f"EBR{at}", EBR(**blended) @ cut),
        ]
        if opts.rbup is not None:
            lines.append((f"iRBU{at}", iRBU(p=opts.rbup, **g, **j) @ cut))
        lines.append((f"Hit{at}", ir_measures.Success(**j) @ cut))
    if opts.condensed:
        lines += [
            ("bpref", NTCIR_bpref),
            ("bpref_R", NTCIR_bpref(variant="R")),
            ("bpref_N", NTCIR_bpref(variant="N")),
            ("bpref_relative", NTCIR_bpref(variant="relative")),
            ("rpref_N", NTCIR_rpref(**g)),
            ("rpref_relative", NTCIR_rpref(variant="relative", **g)),
            ("rpref_relative2", NTCIR_rpref(variant="relative2", **g)),
        ]
    return lines


def name_field(name: str) -> str:
    """``name=`` left-aligned in 21 characters, the tool's field for every name it prints with
    cutoffs of up to four digits. (Its format strings are fixed, ``"P@%04ld=              "``,
    so a cutoff of five digits or more makes its field one character longer there; the
    contract (spec ntcir.md) says 21 and no reference output has such a cutoff.)"""
    return f"{name}=".ljust(NAME_WIDTH)


def compute(measure: Any, ranked: RankedRun) -> np.ndarray:
    """One value per ranked topic of ``ranked``, by the measure's registered kernel."""
    from ..measures.catalogue import entry_of
    from ..measures.standard.kernels import kernel_for

    entry = entry_of(measure)
    if entry is not None:
        return entry.compute(measure, ranked)
    kernel = kernel_for(measure)
    if kernel is None:  # pragma: no cover - measure_lines names only measures with a kernel
        raise ValueError(f"no kernel computes {measure}")
    return kernel(measure, ranked)


def header_counts(ranked: RankedRun, condensed: bool) -> Dict[str, np.ndarray]:
    """Per ranked topic, the numbers of the tool's two comment lines: syslen, jrel, jnonrel,
    r1 (rank of the first relevant document, 0 if none) and rp (the first document of the
    highest level retrieved, 0 if none)."""
    f = found(ranked, condensed, None, None, "ntcir")
    n = f.rel.num_queries
    r1 = np.zeros(n, dtype=np.int64)
    rp = np.zeros(n, dtype=np.int64)
    has = np.diff(f.rel.offsets) > 0
    starts = f.rel.offsets[:-1][has]
    r1[has] = f.rel.rank[starts]
    if has.any():
        top = np.maximum.reduceat(f.level, starts)
        top_of = np.zeros(n, dtype=np.int64)
        top_of[has] = top
        queries, first = f.rel.first(f.level == top_of[f.q])
        rp[queries] = f.rel.rank[first]
    return {"syslen": f.syslen, "jrel": f.n_rel, "jnonrel": f.n_nonrel, "r1": r1, "rp": rp}
