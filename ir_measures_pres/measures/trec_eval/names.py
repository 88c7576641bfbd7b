"""trec_eval's measure names, read as ir_measures reads them and written as trec_eval prints them.

This is the part of the measure catalogue (:mod:`ir_measures_pres.measures.catalogue`) that
concerns ir_measures' standard measures; the trec-style names of this package's own measures come
from the catalogue's table (its ``TrecStyle`` entries) and stay there.

* Reading: :data:`TREC_EVAL_NAMES` is trec_eval's table of names; :func:`is_trec_eval_name`
  matches a whole name strictly (``map``, ``P.10``, ``P_10``, ``P_5,10``, ``ndcg_cut.10``,
  ``recall.1000``, a bare ``P``, and the nicknames ``official`` / ``all_trec``), where
  ``ir_measures.parse_trec_measure`` takes ``P_10abc`` for ``P_10``; :func:`parse_trec_eval`
  reads such a name with ir_measures' own function (:func:`original_parse_trec_measure`), a
  nickname's measures in the order trec_eval prints them.
* Writing: :func:`trec_eval_name` is trec_eval's name of a standard measure (``AP`` -> ``map``,
  ``P@10`` -> ``P_10``, ``nDCG@10`` -> ``ndcg_cut_10`` ...), else :func:`canonical_name`.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

# --------------------------------------------------------------------------------------------
# reading trec_eval names
# --------------------------------------------------------------------------------------------

#: trec_eval's measure names: the keys of ``ir_measures.parse_trec_measure``'s table (a local
#: dict, so copied here), for strict matching and suggestions
TREC_EVAL_NAMES: Tuple[str, ...] = (
    "ndcg",
    "P",
    "map_cut",
    "Rndcg",
    "num_nonrel_judged_ret",
    "set_map",
    "11pt_avg",
    "relative_P",
    "gm_map",
    "binG",
    "set_P",
    "infAP",
    "bpref",
    "num_rel_ret",
    "ndcg_rel",
    "recip_rank",
    "recall",
    "set_recall",
    "utility",
    "set_relative_P",
    "num_ret",
    "num_rel",
    "ndcg_cut",
    "Rprec",
    "Rprec_mult",
    "relstring",
    "gm_bpref",
    "num_q",
    "map",
    "G",
    "success",
    "set_F",
    "iprec_at_recall",
)
#: trec_eval names outside ir_measures' table, and why no provider computes them
TREC_EVAL_ONLY: Dict[str, str] = {
    "runid": "trec_eval prints the run's tag there, which is not a measure (the tag is not kept)",
}
#: a whole trec_eval name: base, then optionally ``.p`` / ``_p`` / ``.p1,p2`` (numbers)
_TREC_EVAL_TOKEN = re.compile(
    "(?:" + "|".join(map(re.escape, TREC_EVAL_NAMES)) + r")(?:[._]\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?)*)?"
)
#: the order in which trec_eval prints its measures (out.test.a), for nicknames such as 'official'
_TREC_EVAL_ORDER = (
    "num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P recall infAP "
    "gm_bpref Rprec_mult utility 11pt_avg binG G ndcg ndcg_rel Rndcg ndcg_cut map_cut relative_P success "
    "set_P set_relative_P set_recall set_map set_F num_nonrel_judged_ret"
).split()


#: attribute set on the PyTerrier wrapper of :mod:`.parse_names`; its value is the wrapped
#: function. Here, below both that module and the catalogue, so that the catalogue finds the
#: original without importing the module that imports it
WRAPPED_MARK = "__ir_measures_pres_wrapped__"


#: set while ir_measures' own ``parse_trec_measure`` runs for our PyTerrier wrapper
#: (:mod:`.parse_names`): it expands a nickname (``official``) by calling the module's function,
#: the wrapper, for each member; the members then get the original's answer, so that a string
#: ir_measures accepts gives what it gave before. The catalogue calls the original without it:
#: there a nickname's members read as every name does, ``gm_map`` as the registered ``GMAP``
ORIGINAL_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ir_measures_pres_original_only", default=False
)


def original_answer(original: Callable[[str], List[Any]], measure: Any) -> List[Any]:
    """``original(measure)`` (ir_measures' ``parse_trec_measure``) with :data:`ORIGINAL_ONLY` set."""
    token = ORIGINAL_ONLY.set(True)
    try:
        return original(measure)
    finally:
        ORIGINAL_ONLY.reset(token)


def original_parse_trec_measure() -> Callable[[str], List[Any]]:
    """ir_measures' own ``parse_trec_measure``, without our PyTerrier wrapper around it."""
    import ir_measures.util

    function = ir_measures.util.parse_trec_measure
    return getattr(function, WRAPPED_MARK, function)


def _nicknames() -> Any:
    import pytrec_eval

    return getattr(pytrec_eval, "supported_nicknames", {})


def is_trec_eval_name(token: str) -> bool:
    """Whether the whole of ``token`` is a trec_eval name (with its numbers) or nickname."""
    return token in _nicknames() or _TREC_EVAL_TOKEN.fullmatch(token) is not None


def parse_trec_eval(token: str, name_of: Optional[Callable[[Any], str]] = None) -> List[Any]:
    """The measures of the trec_eval name or nickname ``token`` (see :func:`is_trec_eval_name`),
    a nickname's in the order trec_eval prints them (by the names ``name_of`` gives them,
    default :func:`trec_eval_name`; the catalogue passes its own, which also names the trec_eval
    measures the package registers, ``gm_map`` ...).

    ir_measures' own function reads it, and its errors pass through: ``ValueError``,
    ``TypeError`` or ``KeyError`` for a name no provider computes (``gm_map``).
    """
    # parse_trec_measure prints the nickname members it skips: keep stdout for results
    with contextlib.redirect_stdout(sys.stderr):
        measures = original_parse_trec_measure()(token)
    if token in _nicknames():
        return sorted(measures, key=lambda m: _trec_eval_rank(m, name_of or trec_eval_name))
    return list(measures)


def _trec_eval_rank(measure: Any, name_of: Callable[[Any], str]) -> Tuple[int, float]:
    """Where trec_eval prints ``measure`` (named by ``name_of``): its base name's place in
    trec_eval's order, then its number."""
    name = name_of(measure)
    found = re.fullmatch(r"(.*?)(?:_(\d+(?:\.\d+)?))?", name)
    base, number = (found.group(1), found.group(2)) if found else (name, None)
    rank = _TREC_EVAL_ORDER.index(base) if base in _TREC_EVAL_ORDER else len(_TREC_EVAL_ORDER)
    return rank, float(number) if number else -1.0


# --------------------------------------------------------------------------------------------
# writing trec_eval names (--format trec)
# --------------------------------------------------------------------------------------------

# standard measure NAME -> (trec name without parameter, trec name with its @-parameter)
_STANDARD_TREC_NAMES = {
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


def defaults_except(measure: Any, *allowed: Optional[str]) -> bool:
    """True when every parameter of ``measure`` other than ``allowed`` is left at its default."""
    from ir_measures.measures.base import _NOT_PROVIDED

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


def trec_eval_name(measure: Any) -> str:
    """trec_eval's own name for a standard measure that has one (``AP`` -> ``map``, ``P@10`` ->
    ``P_10``, ``nDCG@10`` -> ``ndcg_cut_10`` ...), else the canonical form (``AP(rel=2)``): a
    parameter trec_eval would set by a flag (``-l``, ``-J``) stays visible, so nothing is
    mislabelled."""
    name = getattr(measure, "NAME", None)
    params = getattr(measure, "params", {})
    at = getattr(measure, "AT_PARAM", "cutoff")
    cut = params.get(at)
    if name in _STANDARD_TREC_NAMES and defaults_except(measure, at):
        plain, with_cut = _STANDARD_TREC_NAMES[name]
        pattern = plain if cut is None else with_cut
        if pattern is not None:
            return pattern.format(cut)
    elif name == "NumRet":
        if "rel" not in params:
            return "num_ret"
        if params["rel"] == 1:
            return "num_rel_ret"
    elif name == "SetP" and defaults_except(measure, "relative"):
        return "set_relative_P" if params.get("relative") else "set_P"
    elif name == "SetF" and defaults_except(measure):
        return "set_F"
    elif name == "IPrec" and cut is not None and defaults_except(measure, at):
        return f"iprec_at_recall_{cut:.2f}"
    return canonical_name(measure)


__all__ = [
    "TREC_EVAL_NAMES",
    "TREC_EVAL_ONLY",
    "WRAPPED_MARK",
    "ORIGINAL_ONLY",
    "original_answer",
    "original_parse_trec_measure",
    "is_trec_eval_name",
    "parse_trec_eval",
    "defaults_except",
    "canonical_name",
    "trec_eval_name",
]
