"""trec_eval-style measure names and output lines (``--format trec`` of the CLI).

trec_eval prints ``printf("%-22s\\t%s\\t%6.4f\\n", name, qid, value)`` (counts as ``%ld``), so a
name is one whitespace-free token. :func:`trec_name` gives every measure such a name:

* standard measures with a trec_eval equivalent get trec_eval's own name (``AP`` -> ``map``,
  ``P@10`` -> ``P_10``, ``nDCG@10`` -> ``ndcg_cut_10``, ``R@1000`` -> ``recall_1000``, ``RR`` ->
  ``recip_rank``, ``NumRet(rel=1)`` -> ``num_rel_ret`` ...);
* this package's measures get trec-style names (table below), which :func:`parse_trec_name`
  reads back, so the names of ``--format trec`` output are also valid measure arguments;
* any measure with a non-default parameter that trec_eval would set by a command-line flag
  (``rel`` = ``-l``, ``judged_only`` = ``-J``, gains, beta ...) keeps its canonical ir_measures
  form, e.g. ``AP(rel=2)`` or ``QMeasure(beta=0.5)@10`` (spaces removed), so nothing is
  mislabelled.

===============================  =====================================
measure                          trec-style name
===============================  =====================================
``PRES@k`` (``PRES`` = ``@1000``)  ``PRES_k``
``PRES(estimate=True)@k``        ``PRES_est_k``
``R_norm(collection_size=N)``    ``Rnorm`` (``@k``: ``Rnorm_cut_k``)
``R_norm(mode='bollmann', ...)`` ``Rnorm_bollmann`` (``_cut_k``)
``QMeasure`` / ``@k``            ``Q-measure`` / ``Q-measure_cut_k``
``OMeasure`` / ``@k``            ``O-measure`` / ``O-measure_cut_k``
``PMeasure`` / ``@k``            ``P-measure`` / ``P-measure_cut_k``
``PPlusMeasure`` / ``@k``        ``P-plus`` / ``P-plus_cut_k``
``Bpref10``                      ``bpref_top10pRnonrel`` (trec_eval 8.1's name)
``Bpref10(variant='old')``       ``old_bpref_top10pRnonrel`` (trec_eval 8.1's name)
``Bpref10(variant='paper')``     ``bpref_top10pRnonrel_paper``
===============================  =====================================

``Q-measure``, ``O-measure``, ``P-measure`` and ``P-plus`` are NTCIREVAL's names; the ``_cut_k``
suffix follows trec_eval's ``map_cut_k`` / ``ndcg_cut_k`` for measures restricted to the top k.
PRES keeps its N_max in the name, like ``P_10`` / ``recall_1000``: it defines the measure.
R_norm's collection size is not in the name (like trec_eval's ``-N``); when two requested
measures would share a name, :func:`trec_names` falls back to their canonical forms.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List, Optional

from ir_measures.measures.base import _NOT_PROVIDED

#: measures whose values trec_eval prints as integers (``%ld``)
INTEGER_MEASURES = frozenset({"NumRet", "NumRel", "NumQ"})

# standard measure NAME -> (trec name without parameter, trec name with its @-parameter)
_STANDARD = {
    "AP": ("map", "map_cut_{}"),
    "P": (None, "P_{}"),
    "R": (None, "recall_{}"),
    "nDCG": ("ndcg", "ndcg_cut_{}"),
    "RR": ("recip_rank", None),
    "Bpref": ("bpref", None),
    "Rprec": ("Rprec", None),
    "infAP": ("infAP", None),
    "NumRel": ("num_rel", None),
    "NumQ": ("num_q", None),
    "SetR": ("set_recall", None),
    "SetAP": ("set_map", None),
    "Success": (None, "success_{}"),
}

# ours: NAME -> (base name, whether the @-parameter is N_max (PRES) or a cut)
_OURS_BASE = {
    "QMeasure": "Q-measure",
    "OMeasure": "O-measure",
    "PMeasure": "P-measure",
    "PPlusMeasure": "P-plus",
}
_BPREF10 = {
    "trec": "bpref_top10pRnonrel",
    "old": "old_bpref_top10pRnonrel",
    "paper": "bpref_top10pRnonrel_paper",
}


def _defaults_except(measure: Any, *allowed: str) -> bool:
    """True when every parameter of ``measure`` other than ``allowed`` is left at its default."""
    for name, value in getattr(measure, "params", {}).items():
        if name in allowed:
            continue
        info = measure.SUPPORTED_PARAMS.get(name)
        default = getattr(info, "default", _NOT_PROVIDED)
        if default is _NOT_PROVIDED or type(value) is not type(default) or value != default:
            return False
    return True


def canonical_name(measure: Any) -> str:
    """ir_measures' canonical form, without blanks (so it stays one token)."""
    return re.sub(r"\s+", "", str(measure))


def trec_name(measure: Any) -> str:
    """The trec_eval-style name of ``measure`` (see the module docstring)."""
    name = getattr(measure, "NAME", None)
    params = getattr(measure, "params", {})
    at = getattr(measure, "AT_PARAM", "cutoff")
    cut = params.get(at)
    if name in _STANDARD and _defaults_except(measure, at):
        plain, with_cut = _STANDARD[name]
        pattern = plain if cut is None else with_cut
        if pattern is not None:
            return pattern.format(cut)
    elif name == "NumRet":
        if "rel" not in params:
            return "num_ret"
        if params["rel"] == 1:
            return "num_rel_ret"
    elif name == "SetP" and _defaults_except(measure, "relative"):
        return "set_relative_P" if params.get("relative") else "set_P"
    elif name == "SetF" and _defaults_except(measure):
        return "set_F"
    elif name == "IPrec" and cut is not None and _defaults_except(measure, at):
        return f"iprec_at_recall_{cut:.2f}"
    elif name == "PRES" and _defaults_except(measure, at, "estimate"):
        n_max = measure[at]
        return f"PRES_est_{n_max}" if params.get("estimate") else f"PRES_{n_max}"
    elif name == "R_norm" and _defaults_except(measure, at, "collection_size", "mode"):
        base = "Rnorm_bollmann" if params.get("mode") == "bollmann" else "Rnorm"
        return base if cut is None else f"{base}_cut_{cut}"
    elif name in _OURS_BASE and _defaults_except(measure, at):
        base = _OURS_BASE[name]
        return base if cut is None else f"{base}_cut_{cut}"
    elif name == "Bpref10" and _defaults_except(measure, "variant"):
        return _BPREF10[params.get("variant", "trec")]
    return canonical_name(measure)


def trec_names(measures: Iterable[Any]) -> Dict[Any, str]:
    """:func:`trec_name` of each measure; measures that would share a name keep their canonical
    form instead (e.g. two R_norm with different collection sizes)."""
    measures = list(measures)
    names = {m: trec_name(m) for m in measures}
    seen: Dict[str, List[Any]] = {}
    for m, n in names.items():
        seen.setdefault(n, []).append(m)
    for group in seen.values():
        if len(group) > 1:
            for m in group:
                names[m] = canonical_name(m)
    return names


_CUTS = r"(?:_cut[._](?P<cuts>\d+(?:,\d+)*))?"
_PARSE = [
    (re.compile(r"PRES(?P<est>_est)?[._](?P<cuts>\d+(?:,\d+)*)"), "PRES"),
    *((re.compile(re.escape(base) + _CUTS), name) for name, base in _OURS_BASE.items()),
    (re.compile(r"(?P<variant>old_)?bpref_top10pRnonrel(?P<paper>_paper)?"), "Bpref10"),
]


def parse_trec_name(text: str) -> Optional[List[Any]]:
    """The measures a trec-style name of ours stands for (``PRES_1000``, ``Q-measure_cut.5,10``,
    ``bpref_top10pRnonrel`` ...), or None when ``text`` is not one. R_norm names are not read
    back: R_norm needs its collection size (write ``R_norm(collection_size=N)``)."""
    import ir_measures

    for pattern, name in _PARSE:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        measure = ir_measures.measures.registry[name]
        groups = found.groupdict()
        if name == "Bpref10":
            if groups["variant"] and groups["paper"]:
                return None
            variant = "old" if groups["variant"] else "paper" if groups["paper"] else "trec"
            return [measure if variant == "trec" else measure(variant=variant)]
        if name == "PRES" and groups["est"]:
            measure = measure(estimate=True)
        if not groups.get("cuts"):
            return [measure]
        return [measure @ int(k) for k in groups["cuts"].split(",")]
    return None


def format_value(measure: Any, value: float, places: int = 4) -> str:
    """A value as trec_eval prints it: ``%6.4f`` (``places`` decimals), counts as integers."""
    if getattr(measure, "NAME", None) in INTEGER_MEASURES:
        return str(int(round(value)))
    return f"{value:6.{places}f}"


def format_line(name: str, qid: str, value_text: str) -> str:
    """One output line, ``%-22s\\t%s\\t<value>`` as trec_eval prints it."""
    return f"{name:<22}\t{qid}\t{value_text}"
