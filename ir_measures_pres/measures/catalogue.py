"""The measure catalogue: every measure name the package accepts, in one place.

Every surface reads measure names through :func:`parse_measures`: the command line
(``ir_measures_pres QRELS RUN MEASURE ...``), the meta-evaluation command line and API
(``-m``, ``Core(..., measures)``), and PyTerrier's strings (``ir_measures.parse_trec_measure``,
wrapped by :mod:`ir_measures_pres.measures.trec_eval.parse_names`). ``--format trec`` prints the names
:func:`trec_name` gives, and those names read back. A token is therefore accepted everywhere or
rejected everywhere, with the same message (:class:`MeasureNameError`).

A token is read as, in this order:

1. **ir_measures syntax**, for every registered measure: ``AP``, ``nDCG@10``, ``AP(rel=2)@100``,
   ``PRES@1000``, ``QMeasure(beta=0.5)@10``, aliases such as ``Rnorm`` or ``Q_measure``;
2. **trec_eval names**, as ``ir_measures.parse_trec_measure`` reads them but matched strictly
   (that function takes ``P_10abc`` for ``P_10``): ``map``, ``P.10``, ``P_10``, ``P_5,10``,
   ``ndcg_cut.10``, ``recall.1000``, ``bpref``, a bare ``P`` (trec_eval's default cutoffs), and
   the nicknames ``official`` / ``all_trec``, whose measures come in the order trec_eval prints
   them (this syntax, and trec_eval's output names of the standard measures, are in
   :mod:`ir_measures_pres.measures.trec_eval.names`);
3. **trec-style names of this package's measures**, the names ``--format trec`` prints
   (:class:`TrecStyle` of each entry): ``PRES_1000``, ``PRES_est_100``, ``Rnorm_N1000``,
   ``Rnorm_N1000_cut_100``, ``Rnorm_bollmann_N1000``, ``Q-measure``, ``Q-measure_cut_10`` (also
   ``_cut.5,10``), ``O-measure``, ``P-measure``, ``P-plus``, ``bpref_top10pRnonrel``,
   ``old_bpref_top10pRnonrel``, ``bpref_top10pRnonrel_paper``; trec_eval 10's own names of its
   judgement-aware measures, as it prints them and as its ``-m`` reads them: ``unj_5``,
   ``unj.5,10``, a bare ``unj`` (its cutoffs 5, 10, 20), ``rbp``, ``rbp_p=0.5``, ``rbp.p=0.5``,
   ``rbp_resid``, ``rbp_resid_p=0.95``, ``yaap``; and the names trec_eval 10.0 prints for its
   measures that ir_measures lacks, which the package registers (:mod:`.trec_eval.measures`):
   ``11pt_avg``, ``Rprec_mult_0.20`` (a bare ``Rprec_mult``: its ten default multiples),
   ``relative_P_10``, ``relative_P.5,10``, a bare ``relative_P`` (its nine cutoffs). Their other
   trec_eval names (``gm_map``, ``Rndcg``, ``utility`` ...) are aliases, read in step 1, where a
   parameter may be negative (``utility(a=1,b=-1)``).

R_norm needs its collection size, so its trec-style names carry it after ``N``
(``Rnorm_N<size>``); a name without it (``Rnorm``, ``Rnorm_cut_100``) is refused with a message
that says how to write it.

**Adding a measure** takes three files: its family module (class, singleton, ``compute_*``
adapter), one :class:`Entry` in :data:`~.table.MEASURES` (with its :class:`TrecStyle`), and its
tests (a row in ``tests/test_properties.py``; ``tests/test_catalogue.py`` checks every entry's
names round-trip). Registration, the provider, every parser and ``--format trec`` follow from
the entry.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ir_measures.measures.base import _NOT_PROVIDED

from ..runtime.pickling import PicklesByParts
from ._syntax import digits_for_letters, syntax_problem
from .entry import Entry, NamedNumber, TrecStyle
from .table import BY_NAME, MEASURES, entry_of
from .trec_eval.names import (
    TREC_EVAL_NAMES,
    TREC_EVAL_ONLY,
    canonical_name,
    defaults_except,
    is_trec_eval_name,
    parse_trec_eval,
    trec_eval_name,
)

# --------------------------------------------------------------------------------------------
# errors and splitting
# --------------------------------------------------------------------------------------------


class MeasureNameError(PicklesByParts, ValueError):
    """Measure names that cannot be read: one line per bad token, with suggestions."""

    PARTS = ("problems",)

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: Tuple[str, ...] = tuple(problems)
        super().__init__("\n".join(self.problems))


class _Problem(Exception):
    """One bad token (collected into a :class:`MeasureNameError`)."""


def split_measures(text: str) -> List[str]:
    """The tokens of ``text``: split on blanks outside brackets, except next to ``@``
    (``"AP@100 QMeasure(beta=0.5, gains={1: 1})"`` gives two, ``"PRES @ 10"`` one)."""
    tokens: List[str] = []
    current: List[str] = []
    depth = 0
    pending_blank = False
    for char in text:
        if char.isspace() and depth == 0:
            pending_blank = bool(current)
            continue
        if pending_blank and char != "@" and current[-1] != "@":
            tokens.append("".join(current))
            current = []
        pending_blank = False
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        current.append(char)
    if current:
        tokens.append("".join(current))
    return tokens


# --------------------------------------------------------------------------------------------
# parsing
# --------------------------------------------------------------------------------------------


def parse_measures(spec: Any) -> List[Any]:
    """The measures ``spec`` names, in its order, without repeats.

    ``spec`` is a string of tokens separated by blanks (outside brackets), a measure object, or
    a sequence of these. Raises :class:`MeasureNameError` naming every bad token (with close
    names as suggestions), or when there is no measure at all; ``TypeError`` for an item that is
    neither a string nor a measure.
    """
    import ir_measures

    items = [spec] if isinstance(spec, (str, ir_measures.Measure)) else list(spec)
    measures: List[Any] = []
    problems: List[str] = []
    for item in items:
        if isinstance(item, str):
            found: List[Any] = []
            for token in split_measures(item):
                try:
                    found.extend(_parse_token(token))
                except _Problem as problem:
                    problems.append(str(problem))
        elif isinstance(item, ir_measures.Measure):
            try:
                found = [_validated(str(item), item)]
            except _Problem as problem:
                problems.append(str(problem))
                found = []
        else:
            raise TypeError(f"a measure must be a string or an ir_measures Measure, got {item!r}")
        for measure in found:
            if measure not in measures:
                measures.append(measure)
    if problems:
        raise MeasureNameError(problems)
    if not measures:
        raise MeasureNameError(["no measure given"])
    return measures


def _parse_token(token: str, suggesting: bool = True) -> List[Any]:
    """The measures one token names (ir_measures syntax, trec_eval name, our trec-style name);
    ``suggesting``: an unknown name's error offers close names that parse."""
    import ir_measures

    invalid: Optional[_Problem] = None
    try:
        measure = _signed(token) if _SIGNED.search(token) else ir_measures.parse_measure(token)
    except (NameError, ValueError, TypeError, AssertionError, SyntaxError) as error:
        found = re.match(r"[A-Za-z_][A-Za-z_0-9]*", token)
        name = found.group() if found else ""
        rest = token[len(name) :]
        if name in ir_measures.measures.registry and (not rest or rest[0] in "(@"):
            invalid = _Problem(
                f"invalid measure {token!r}: {syntax_problem(name, rest, _describe(error), _parses)}"
            )
    else:
        try:
            return [_validated(token, measure)]
        except _Problem as problem:  # e.g. 'P' (no cutoff): maybe a trec_eval name
            invalid = problem
    if token in TREC_EVAL_ONLY:
        raise _Problem(f"unsupported trec_eval measure {token!r}: {TREC_EVAL_ONLY[token]}")
    trec = _parse_trec_eval(token) if invalid is None or token in TREC_EVAL_NAMES else None
    if trec is None:
        trec = _parse_trec_style(token)
    if trec:
        return [_validated(token, m) for m in trec]
    if invalid is not None:
        raise invalid
    hint = suggest(token) if suggesting else []
    fixed = digits_for_letters(token)
    if suggesting and fixed != token and _parses(fixed):
        hint = [fixed] + [h for h in hint if h != fixed][:2]
    raise _Problem(f"unknown measure {token!r}" + (f" (did you mean {' or '.join(hint)}?)" if hint else ""))


#: a parameter value with a sign (``Utility(b=-1)``), which ir_measures' parser refuses
_SIGNED = re.compile(r"=\s*[-+]")


def _signed(token: str) -> Any:
    """``Name(k=v, ...)@c`` read as ir_measures reads it, but each value by
    :func:`ast.literal_eval`, so that a parameter may be negative (``utility(a=1,b=-1)``,
    trec_eval's default weights): ir_measures' parser takes unsigned numbers only. Raises what
    ir_measures' parser raises for a token it cannot read."""
    import ast

    import ir_measures

    node = ast.parse(token, mode="eval").body
    at: Any = None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        at, node = ast.literal_eval(node.right), node.left
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args):
        raise ValueError("must be in format Measure(k1=v1, k2=v2)@c")
    name = node.func.id
    if name not in ir_measures.measures.registry:
        raise NameError(f"measure not found: {name}")
    measure = ir_measures.measures.registry[name]
    params = {str(kw.arg): ast.literal_eval(kw.value) for kw in node.keywords}
    if at is not None:
        params[measure.AT_PARAM] = at
    return measure(**params)


def _parses(token: str) -> bool:
    """Whether ``token`` reads as measures (a suggestion is offered only then)."""
    try:
        _parse_token(token, suggesting=False)
    except _Problem:
        return False
    return True


def _validated(token: str, measure: Any) -> Any:
    try:
        measure.validate_params()
    except (ValueError, TypeError, AssertionError) as error:
        raise _Problem(f"invalid measure {token!r}: {_explain(measure, error)}") from None
    problem = _out_of_range(measure)
    if problem is not None:
        raise _Problem(f"invalid measure {token!r}: {problem}")
    return measure


def _out_of_range(measure: Any) -> Optional[str]:
    """What is wrong with a parameter value that ir_measures' own check lets through but its
    backends cannot take (``P@0`` aborts pytrec_eval with a C assertion, ``AP(rel=0)`` raises
    inside it, ``IPrec@1.5`` prints a number for a recall level that does not exist), or None.
    Our own measures check their parameters themselves (:mod:`.base`)."""
    if entry_of(measure) is not None:
        return None
    from .base import MAX_COUNT

    at = getattr(measure, "AT_PARAM", "cutoff")
    for name, value in getattr(measure, "params", {}).items():
        if isinstance(value, bool):
            continue
        if name in ("cutoff", "rel") and isinstance(value, int) and not 1 <= value <= MAX_COUNT:
            return f"parameter {name!r} must be an integer from 1 to {MAX_COUNT}, got {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"parameter {name!r} must be finite, got {value!r}"
        if name == at == "recall" and isinstance(value, float) and not 0.0 <= value <= 1.0:
            return f"parameter 'recall' must be from 0 to 1, got {value!r}"
        if isinstance(value, dict) and any(
            isinstance(v, float) and not math.isfinite(v) for v in value.values()
        ):
            return f"parameter {name!r} must hold finite numbers, got {value!r}"
    return None


def _explain(measure: Any, error: BaseException) -> str:
    """The error's text; for ir_measures' bare assertion on a missing required parameter
    (``invalid param cutoff=<object ...>``), which one is missing and an example."""
    params = getattr(measure, "params", {})
    missing = [k for k, p in measure.SUPPORTED_PARAMS.items() if p.required and k not in params]
    if isinstance(error, AssertionError) and missing:
        text = f"{', '.join(missing)} required"
        at = getattr(measure, "AT_PARAM", "cutoff")
        if at in missing:
            example = 0.5 if measure.SUPPORTED_PARAMS[at].dtype is float else 10
            text += f", e.g. {measure}@{example}"
        return text
    return _describe(error)


def _describe(error: BaseException) -> str:
    text = str(error)
    return text if text else type(error).__name__


# --------------------------------------------------------------------------------------------
# trec_eval names (:mod:`.trec_eval`)
# --------------------------------------------------------------------------------------------


def _parse_trec_eval(token: str) -> Optional[List[Any]]:
    """The measures of a trec_eval name or nickname, or None when ``token`` is not one."""
    if not is_trec_eval_name(token):
        return None
    try:
        return parse_trec_eval(token, trec_name)
    except (ValueError, TypeError, KeyError) as error:  # no provider of ir_measures computes it
        ours = _parse_trec_style(token) or _every_value(token)  # 'Rprec_mult_0.20', '11pt_avg'
        if ours:
            return ours
        raise _Problem(f"unsupported trec_eval measure {token!r}: {_describe(error)}") from None


# --------------------------------------------------------------------------------------------
# trec-style names of our measures
# --------------------------------------------------------------------------------------------

_AT_PATTERNS = {
    "cut": r"(?:_cut[._](?P<cuts>\d+(?:,\d+)*))?",
    "value": r"[._](?P<cuts>\d+(?:,\d+)*)",
    "none": "",
}
#: a number parameter as trec_eval writes it (``_p=0.5``) and as its ``-m`` reads it (``.p=0.5``)
_PARAM_PATTERN = r"(?:[._]{}=(?P<param>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))?"


@functools.lru_cache(maxsize=None)
def _style_patterns() -> Tuple[Tuple[re.Pattern[str], Entry, Any, str, bool], ...]:
    """(pattern, entry, value of ``by``, base name, whether the name lacks the required number)
    for every base name of every entry."""
    patterns = []
    for entry in MEASURES:
        style = entry.trec
        if style is None:
            continue
        at = _AT_PATTERNS[style.at]
        if style.cuts:  # the bare base name stands for the default cutoffs
            at = f"(?:{at})?"
        if style.param is not None:
            at = _PARAM_PATTERN.format(re.escape(style.param)) + at
        for value, base in style.bases:
            if style.number is not None:
                number = rf"_{re.escape(style.number.letter)}(?P<number>\d+)"
                patterns.append((re.compile(re.escape(base) + number + at), entry, value, base, False))
            patterns.append((re.compile(re.escape(base) + at), entry, value, base, style.number is not None))
    return tuple(patterns)


def _parse_trec_style(token: str) -> Optional[List[Any]]:
    """The measures a trec-style name of ours stands for, or None when ``token`` is not one."""
    for pattern, entry, value, base, lacks_number in _style_patterns():
        found = pattern.fullmatch(token)
        if found is None:
            continue
        style = entry.trec
        assert style is not None
        params: Dict[str, Any] = {}
        if style.by is not None and value != entry.measure.SUPPORTED_PARAMS[style.by].default:
            params[style.by] = value
        groups = found.groupdict()
        cuts = [int(k) for k in groups["cuts"].split(",")] if groups.get("cuts") else list(style.cuts)
        if lacks_number:
            raise _Problem(_lacks_number(token, base, entry, params, cuts))
        try:
            if style.number is not None:
                params[style.number.param] = int(groups["number"])
            if style.param is not None and groups.get("param") is not None:
                params[style.param] = float(groups["param"])
            measure = entry.measure(**params) if params else entry.measure
            return [measure @ k for k in cuts] if cuts else [measure]
        except ValueError as error:  # e.g. PRES_0: N_max must be >= 1
            raise _Problem(f"invalid measure {token!r}: {_describe(error)}") from None
    return None


def _every_value(token: str) -> Optional[List[Any]]:
    """A bare trec_eval name whose entry has one trec-style name per value of its ``@``
    parameter (``Rprec_mult``: ``Rprec_mult_0.20`` ... ``Rprec_mult_2.00``): every one of them,
    as trec_eval's bare name stands for its default parameters; None for any other token."""
    for entry in MEASURES:
        style = entry.trec
        if style is None or style.by is None or style.by != entry.measure.AT_PARAM:
            continue
        if all(base.startswith(token + "_") for _, base in style.bases):
            return [entry.measure(**{style.by: value}) for value, _ in style.bases]
    return None


def _lacks_number(token: str, base: str, entry: Entry, params: Dict[str, Any], cuts: List[int]) -> str:
    """The message for a trec-style name without the number it needs (``Rnorm_cut_100``)."""
    style = entry.trec
    assert style is not None and style.number is not None
    number = style.number
    written = f"{token[: len(base)]}_{number.letter}{number.example}{token[len(base) :]}"
    measure: Any = entry.measure(**params, **{number.param: number.example})
    if cuts:
        measure = measure @ cuts[0]
    desc = entry.measure.SUPPORTED_PARAMS[number.param].desc
    return (
        f"invalid measure {token!r}: {entry.measure.NAME} needs the {number.param.replace('_', ' ')} "
        f"({number.param}: {desc}); write it into the name after {number.letter}, e.g. {written}, "
        f"or as {canonical_name(measure)}"
    )


# --------------------------------------------------------------------------------------------
# output names (--format trec)
# --------------------------------------------------------------------------------------------


def trec_name(measure: Any) -> str:
    """The name ``--format trec`` prints for ``measure``, which :func:`parse_measures` reads back.

    trec_eval's own name for a standard measure that has one (``AP`` -> ``map``, ``P@10`` ->
    ``P_10``, ``nDCG@10`` -> ``ndcg_cut_10`` ...), the trec-style name of an entry's
    :class:`TrecStyle` for ours, else the canonical form (``AP(rel=2)``,
    ``QMeasure(beta=0.5)@10``): a parameter trec_eval would set by a flag (``-l``, ``-J``)
    stays visible, so nothing is mislabelled.
    """
    entry = entry_of(measure)
    if entry is not None and entry.trec is not None:
        return _trec_style_name(measure, entry.trec) or canonical_name(measure)
    return trec_eval_name(measure)


def _trec_style_name(measure: Any, style: TrecStyle) -> Optional[str]:
    at = measure.AT_PARAM
    number = style.number.param if style.number is not None else None
    if not defaults_except(measure, at if style.at != "none" else None, style.by, number, style.param):
        return None
    if style.param is not None and not isinstance(measure.params.get(style.param, 0.0), float):
        return None
    base = dict(style.bases).get(measure[style.by] if style.by is not None else None)
    if base is None:
        return None
    name = base
    if style.number is not None:
        value = measure.params.get(style.number.param)
        if value is None:
            return None
        name += f"_{style.number.letter}{value}"
    if style.param is not None and style.param in measure.params:
        value = measure.params[style.param]
        if value != measure.SUPPORTED_PARAMS[style.param].default:
            name += f"_{style.param}={value!r}"
    if style.at == "value":
        if measure[at] is _NOT_PROVIDED:
            return None
        name += f"_{measure[at]}"
    elif style.at == "cut" and measure.params.get(at) is not None:
        name += f"_cut_{measure.params[at]}"
    return name


def trec_names(measures: Iterable[Any]) -> Dict[Any, str]:
    """:func:`trec_name` of each measure; measures that would share a name keep their canonical
    form instead (``PRES`` and ``PRES@1000`` are both ``PRES_1000``)."""
    names = {m: trec_name(m) for m in measures}
    seen: Dict[str, List[Any]] = {}
    for m, n in names.items():
        seen.setdefault(n, []).append(m)
    for group in seen.values():
        if len(group) > 1:
            for m in group:
                names[m] = canonical_name(m)
    return names


# --------------------------------------------------------------------------------------------
# suggestions
# --------------------------------------------------------------------------------------------


def _candidates() -> List[str]:
    """Every name a suggestion may offer: registered measures, trec_eval names, our trec-style
    base names (PRES with its default N_max)."""
    import ir_measures

    names = list(ir_measures.measures.registry)
    names += [n for n in TREC_EVAL_NAMES if n not in names]
    for entry in MEASURES:
        if entry.trec is None:
            continue
        for _, base in entry.trec.bases:
            if entry.trec.at == "value" and not entry.trec.cuts:
                base += f"_{entry.measure[entry.measure.AT_PARAM]}"
            names.append(base)
    return names


def suggest(token: str) -> List[str]:
    """Up to three known names close to an unknown ``token`` (``Bpref-10`` -> ``Bpref10``),
    with the token's ``@...`` / ``(...)`` part kept, each one that parses as it stands."""
    found = re.match(r"[^@(]*", token)
    base = found.group() if found else token
    rest = token[len(base) :]

    def key(s: str) -> str:
        return re.sub(r"[^a-z0-9]", "", s.lower())

    candidates = _candidates()
    same = [c for c in candidates if key(c) == key(base) and c != base]
    by_lower: Dict[str, List[str]] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), []).append(c)
    # a close name, and the same name in other cases (ndcg, a trec_eval name, does not take '@';
    # nDCG does)
    close = [
        v for c in difflib.get_close_matches(base, candidates, n=3, cutoff=0.75) for v in by_lower[c.lower()]
    ]
    out: List[str] = []
    for c in same + close:
        if c not in out and c != base and _parses(c + rest):
            out.append(c)
    return [c + rest for c in out[:3]]


__all__ = [
    "MEASURES",
    "BY_NAME",
    "Entry",
    "TrecStyle",
    "NamedNumber",
    "MeasureNameError",
    "TREC_EVAL_NAMES",
    "entry_of",
    "split_measures",
    "parse_measures",
    "trec_name",
    "trec_names",
    "canonical_name",
    "suggest",
]
