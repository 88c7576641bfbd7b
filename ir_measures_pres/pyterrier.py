"""PyTerrier hook, loaded by ``import pyterrier`` through the ``pyterrier.modules`` entry point.

PyTerrier imports every module named in that entry-point group at ``import pyterrier`` and
exposes it as ``pt.<entry point name>`` (here ``pt.ir_measures_pres``). Importing this module
registers the package's measures and provider in ir_measures and lets
``ir_measures.parse_trec_measure`` read every name of the measure catalogue
(:mod:`ir_measures_pres.measures.catalogue`), so that both measure objects and strings such as
``"PRES@1000"`` or ``"Q-measure"`` work in ``pt.Experiment`` and ``pt.Evaluate`` with no import
of this package in the user's code, and lets PyTerrier's means ask each measure's summary
(:mod:`._pyterrier_rules`).

PyTerrier's loop does not guard ``entry_point.load()``: an exception here would break
``import pyterrier`` itself. So this module never raises: on any failure it warns
(``RuntimeWarning``) and leaves ``AVAILABLE = False`` and the exception in ``ERROR``.
"""

from __future__ import annotations

import warnings
from typing import Any


def _ir_measures_measure() -> Any:
    """ir_measures' Measure class (or a class nothing is an instance of, when it cannot load)."""
    try:
        from ir_measures import Measure

        return Measure
    except Exception:  # noqa: BLE001 -- must never break ``import pyterrier``
        return type("NoMeasure", (), {})


#: True once the measures, the provider and the string parsing are in place
AVAILABLE: bool = False
#: why the hook failed, when it did
ERROR: BaseException | None = None

try:
    from . import register
    from .measures import catalogue
    from .measures.trec_eval import parse_names as trec_names

    register()  # idempotent; the package import has done it already
    trec_names.install()  # idempotent as well
    # pt.Experiment / pt.Evaluate ask each measure's summary (GMAP's geometric mean, a count's
    # sum) and give every requested name its values (idempotent)
    from ._pyterrier_rules import install as _install_rules

    _install_rules()
    # every measure of the catalogue, under its name and aliases: pt.ir_measures_pres.PRES ...
    globals().update(
        {name: e.measure for e in catalogue.MEASURES for name in (e.measure.__name__, *e.aliases)}
    )
    AVAILABLE = True
except Exception as error:  # noqa: BLE001 -- must never break ``import pyterrier``
    ERROR = error
    warnings.warn(
        f"ir_measures_pres could not register its measures with PyTerrier "
        f"({type(error).__name__}: {error}); PRES, QMeasure ... will not be available in "
        f"pt.Experiment. Import ir_measures_pres directly to see the full error.",
        RuntimeWarning,
        stacklevel=1,
    )

__all__ = ["AVAILABLE", "ERROR"] + [
    name for name, value in list(globals().items()) if isinstance(value, _ir_measures_measure())
]
