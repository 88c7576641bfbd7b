"""Let ``ir_measures.parse_trec_measure`` read every measure name the package accepts.

PyTerrier turns every *string* in ``eval_metrics`` into measures with
``ir_measures.parse_trec_measure``, whose table of trec_eval names is a local dict that plugins
cannot extend, so ``pt.Experiment(..., ["PRES@1000"])`` fails with ``unknown measure``.
:func:`install` wraps that function (both ``ir_measures.parse_trec_measure`` and
``ir_measures.util.parse_trec_measure``, the name the function's own recursion over nicknames
such as ``official`` uses) so that:

1. the original always runs first: every string it accepts (``map``, ``P_10``, ``ndcg_cut.5,10``,
   ``official``, ``all_trec`` ...) gives exactly what it gave before;
2. where the original raises ``ValueError`` for a string, the string is read by the measure
   catalogue (:func:`ir_measures_pres.measures.catalogue.parse_measures`), which accepts what the command
   line accepts: ir_measures syntax for every measure (``nDCG@10``, ``AP(rel=2)``,
   ``PRES@1000``), trec_eval names, and our trec-style output names (``PRES_1000``,
   ``Q-measure``, ``Rnorm_N1000``, ``bpref_top10pRnonrel``). A string the catalogue rejects
   raises its :class:`~ir_measures_pres.measures.catalogue.MeasureNameError` (a ``ValueError``), with the
   message the command line prints.

**Decision** (reversing an earlier one that kept ``nDCG@10`` rejected here): one
verdict for a measure name everywhere. The earlier reason was that PyTerrier imports this
package by itself, so code writing ``'nDCG@10'`` works only where the package is installed;
the issue weighed that below a name that works in our command line and fails in PyTerrier.

:func:`install` is idempotent: the wrapper is marked, and a second call (or a reload of this
package) wraps nothing again. The mark is defined in :mod:`ir_measures_pres.measures.trec_eval.names`,
where the catalogue reads the original function through it
(:func:`~ir_measures_pres.measures.trec_eval.names.original_parse_trec_measure`): this module imports
the catalogue, never the other way round.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from typing import Any

from .names import ORIGINAL_ONLY, original_answer
from .names import WRAPPED_MARK as _MARK  # set on our wrapper; its value is the wrapped function

#: set while the catalogue reads a string for the wrapper: a wrapper that another plugin put
#: around ours may lead the catalogue back here, and must then get the original's answer
_FALLING_BACK: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ir_measures_pres_falling_back", default=False
)


def _wrap(original: Callable[[str], list[Any]]) -> Callable[[str], list[Any]]:
    @functools.wraps(original)
    def parse_trec_measure(measure: str) -> list[Any]:
        try:
            return original_answer(original, measure)
        except ValueError:
            if not isinstance(measure, str) or _FALLING_BACK.get() or ORIGINAL_ONLY.get():
                raise
        from ..catalogue import parse_measures

        falling_back = _FALLING_BACK.set(True)
        try:
            return parse_measures(measure)
        finally:
            _FALLING_BACK.reset(falling_back)

    parse_trec_measure.__doc__ = (
        (original.__doc__ or "").rstrip()
        + "\n\n(Extended by ir_measures_pres: where the original rejects a string, the string is read "
        "by ir_measures_pres' measure catalogue, e.g. 'PRES@1000', 'nDCG@10' or 'Q-measure'.)"
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
