"""The lines of NTCIREVAL's ``ntcir_eval compute``: which names it prints for a set of options,
in its order, and the registered measure behind each name (:func:`measure_lines`, also
``ir_measures_pres ntcir --list``), and the lines themselves for a run's values (:func:`lines`).

Every value is computed by a registered measure's own kernel
(:func:`ir_measures_pres.measures.ntcir.compute.compute`): the catalogue's entry for this
package's measures, the native kernel of :mod:`..measures.standard.kernels` for ir_measures'
``P`` and ``Success`` (NTCIREVAL's ``P@l`` and ``Hit@l`` are trec_eval's ``P_l`` and
``success_l``).

Per evaluated topic, in qrels order: ``TID # syslen=S jrel=R jnonrel=N``, ``TID # r1=A rp=B``,
then ``TID name=value`` per line, ``name=`` left-aligned in 21 characters (:func:`name_field`) and
the value ``%.4f`` (``digits``); with ``mean``, ``ALL name=value`` per line after them, the mean
of the printed values over the qrels topics (NEV2mean).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..data.arrays import sum_in_order
from ..measures.ntcir.blended_ratio import OMeasure, PMeasure, PPlusMeasure, QMeasure
from ..measures.ntcir.compute import ComputeRun
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

__all__ = ["Options", "lines", "measure_lines", "name_field"]

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


def lines(values: ComputeRun, names: Sequence[str], digits: int = 4, mean: bool = False) -> str:
    """What ``ntcir_eval compute -out TID`` prints for every evaluated topic of the qrels, in qrels
    order, the values of ``values`` under the printed ``names`` (:func:`measure_lines`' names, in
    the same order), ``digits`` decimals; with ``mean``, then the ``ALL`` lines (NEV2mean: the
    mean of the printed values over the qrels topics, a topic not printed counting 0)."""
    heads = values.heads
    fmt = f"%.{digits}f"
    fields = [name_field(name) for name in names]
    printed: List[List[float]] = [[] for _ in fields]  # NEV2mean adds the printed values
    parts: List[str] = []
    write = parts.append
    for q, tid in enumerate(values.topics):
        if not values.evaluated(q):
            continue
        i = values.row.get(q)
        syslen, r1, rp = (0, 0, 0) if i is None else (heads["syslen"][i], heads["r1"][i], heads["rp"][i])
        write(f"{tid} # syslen={syslen} jrel={values.n_rel[q]} jnonrel={values.n_nonrel[q]}\n")
        write(f"{tid} # r1={r1} rp={rp}\n")
        for k, name in enumerate(fields):
            text = fmt % (0.0 if i is None else values.values[k][i])
            printed[k].append(float(text))
            write(f"{tid} {name}{text}\n")
    if mean:
        topics = len(values.topics)
        for k, name in enumerate(fields):
            write(f"ALL {name}{fmt % (sum_in_order(printed[k]) / topics if topics else 0.0)}\n")
    return "".join(parts)
