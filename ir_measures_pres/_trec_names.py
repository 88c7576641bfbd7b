"""Let ``ir_measures.parse_trec_measure`` accept this package's measures.

PyTerrier turns every *string* in ``eval_metrics`` into measures with
``ir_measures.parse_trec_measure``, whose table of trec_eval names is a local dict that plugins
cannot extend, so ``pt.Experiment(..., ["PRES@1000"])`` fails with ``unknown measure``.
:func:`install` wraps that function (both ``ir_measures.parse_trec_measure`` and
``ir_measures.util.parse_trec_measure``, the name the function's own recursion over nicknames
such as ``official`` uses) so that:

1. the original always runs first: every name it knows (``map``, ``P_10``, ``ndcg_cut.5,10``,
   ``official``, ``all_trec`` ...) gives exactly what it gave before, and every error it raises
   for a string that does not name one of our measures is raised unchanged (same object, same
   message);
2. only where the original raises ``ValueError`` for a string whose measure name is one of ours
   (``PRES``, ``R_norm``/``Rnorm``, ``QMeasure``/``Q_measure``, ``OMeasure``, ``PMeasure``,
   ``PPlusMeasure``, ``Bpref10`` ...), the string is read with ir_measures' own syntax
   (``ir_measures.parse_measure``: ``PRES@1000``, ``QMeasure(beta=0.5)@100``) and returned as a
   one-element list, like a trec_eval name without parameters. A string naming one of our
   measures with bad syntax or parameters raises a ``ValueError`` that says what is wrong.

**Decision: standard ir_measures syntax for other measures (``nDCG@10``, ``AP(rel=2)``) is not
accepted here**; it keeps raising as before. PyTerrier imports this package by itself through
its ``pyterrier.modules`` entry point, so accepting ``'nDCG@10'`` would make code that never
mentions this package work only on machines where it happens to be installed, a hidden
dependency. A string naming one of our measures already says that it needs this package. Pass
measure objects (``from pyterrier.measures import nDCG`` then ``nDCG@10``) for the others.

:func:`install` is idempotent: the wrapper is marked, and a second call (or a reload of this
package) wraps nothing again.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

#: attribute set on our wrapper; its value is the wrapped function
_MARK = "__ir_measures_pres_wrapped__"

#: the measure name a string starts with (the Name of ``Name(...)@k``; like ``parse_measure``,
#: no leading blank)
_LEADING_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _our_names() -> frozenset[str]:
    """The names our measures are registered under in ``ir_measures.measures.registry``."""
    from ._registry import MEASURES

    return frozenset(name for e in MEASURES for name in (e.measure.__name__, *e.aliases))


def _is_ours(measure: Any) -> bool:
    from ._registry import BY_NAME

    entry = BY_NAME.get(getattr(measure, "NAME", None))  # type: ignore[arg-type]
    return entry is not None and isinstance(measure, type(entry.measure))


def parse_ours(text: str) -> Any | None:
    """The measure ``text`` names if it is one of this package's, else ``None``.

    ``text`` uses ir_measures syntax (``PRES@1000``, ``QMeasure(beta=0.5)@100``). Raises
    ``ValueError`` when the name is ours but the rest of the string is not a valid measure
    (bad syntax, unknown parameter, bad value, missing required parameter).
    """
    import ir_measures

    found = _LEADING_NAME.match(text)
    if found is None or found.group() not in _our_names():
        return None
    name = found.group()
    try:
        measure = ir_measures.parse_measure(text)
    except (ValueError, NameError, TypeError, AssertionError) as error:
        raise ValueError(f"cannot read {text!r} as the measure {name}: {error}") from error
    if not _is_ours(measure):  # the registry maps one of our names to something else
        return None
    try:
        measure.validate_params()
    except (ValueError, TypeError, AssertionError) as error:
        raise ValueError(f"invalid measure {text!r}: {error}") from error
    return measure


def _wrap(original: Callable[[str], list[Any]]) -> Callable[[str], list[Any]]:
    @functools.wraps(original)
    def parse_trec_measure(measure: str) -> list[Any]:
        try:
            return original(measure)
        except ValueError:
            if not isinstance(measure, str):
                raise
            ours = parse_ours(measure)
            if ours is None:
                raise  # the original error, unchanged
            return [ours]

    parse_trec_measure.__doc__ = (
        (original.__doc__ or "").rstrip()
        + "\n\n(Extended by ir_measures_pres: where the original rejects a string naming one of "
        "its measures, e.g. 'PRES@1000', that measure is returned.)"
    ).lstrip()
    setattr(parse_trec_measure, _MARK, original)
    return parse_trec_measure


def is_installed() -> bool:
    """Whether both ``parse_trec_measure`` names of ir_measures currently carry our wrapper."""
    import ir_measures
    import ir_measures.util

    return all(
        hasattr(getattr(owner, "parse_trec_measure", None), _MARK)
        for owner in (ir_measures, ir_measures.util)
    )


def install() -> None:
    """Wrap ``ir_measures.parse_trec_measure`` and ``ir_measures.util.parse_trec_measure`` once.

    Safe to call again, and safe while ``ir_measures`` is still being imported (its ``util``
    module, which defines the function, is imported first). A name that already carries our
    wrapper is left alone; the two names share one wrapper when they hold the same function.
    """
    import sys

    import ir_measures.util  # noqa: F401  (defines the function; imported first by ir_measures)

    wrappers: dict[int, Callable[[str], list[Any]]] = {}
    for module_name in ("ir_measures.util", "ir_measures"):
        owner = sys.modules.get(module_name)
        current = getattr(owner, "parse_trec_measure", None)
        if owner is None or current is None or hasattr(current, _MARK):
            continue
        if id(current) not in wrappers:
            wrappers[id(current)] = _wrap(current)
        setattr(owner, "parse_trec_measure", wrappers[id(current)])  # noqa: B010
