"""The single list of the package's measures, and their idempotent registration in ir_measures.

Adding a measure: write its class, singleton and ``compute_*`` adapter in its family module, add
one :class:`Entry` below, add it to the property table of the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

import numpy as np

from ._base import PluginMeasure
from ._ranking import Qrels, RankedRun
from .blended_ratio import (
    OMeasure,
    PMeasure,
    PPlusMeasure,
    QMeasure,
    check_gains_cover,
    compute_o,
    compute_p,
    compute_pplus,
    compute_q,
)
from .bpref import Bpref10, compute_bpref10
from .normalized_recall import PRES, R_norm, compute_pres, compute_rnorm


@dataclass(frozen=True)
class Entry:
    """A measure singleton, its aliases and the function that scores a ranked run with it."""

    measure: PluginMeasure
    aliases: Tuple[str, ...]
    compute: Callable[[PluginMeasure, RankedRun], np.ndarray]
    #: checks a measure against the qrels before any run is scored (e.g. gains cover every level)
    check_qrels: Optional[Callable[[PluginMeasure, Qrels], None]] = None


MEASURES: Tuple[Entry, ...] = (
    Entry(PRES, (), compute_pres),
    Entry(R_norm, ("Rnorm",), compute_rnorm),
    Entry(QMeasure, ("Q_measure",), compute_q, check_gains_cover),
    Entry(OMeasure, ("O_measure",), compute_o, check_gains_cover),
    Entry(PMeasure, ("P_measure",), compute_p, check_gains_cover),
    Entry(PPlusMeasure, ("P_plus",), compute_pplus, check_gains_cover),
    Entry(Bpref10, ("Bpref_10",), compute_bpref10),
)

#: measure NAME -> entry; the provider dispatches through this table.
BY_NAME: Dict[str, Entry] = {e.measure.NAME: e for e in MEASURES}


def register() -> None:
    """Register the measures, their aliases and the provider in ir_measures; safe to call again.

    Three steps, all guarded so that a second import, a reload or an entry point firing as well
    changes nothing: the names go into ``ir_measures.measures.registry``, the provider into
    ``ir_measures.providers.registry``, and the provider is appended once to
    ``ir_measures.DefaultPipeline.providers`` (without that, ``calc_aggregate`` and PyTerrier
    report "Unsupported measures").
    """
    import sys

    from ir_measures import measures as im_measures
    from ir_measures import providers as im_providers

    from . import _trec_names
    from .provider import PresProvider

    for entry in MEASURES:
        for name in (entry.measure.__name__, *entry.aliases):
            existing = im_measures.registry.get(name)
            if existing is None:
                im_measures.registry[name] = entry.measure
            elif existing.NAME != entry.measure.NAME:
                raise RuntimeError(
                    f"ir_measures_pres cannot register {name!r}: ir_measures already has a "
                    f"different measure under that name ({existing!r})"
                )
    provider = im_providers.registry.get(PresProvider.NAME)
    if provider is None:
        provider = im_providers.register(PresProvider())
    _trec_names.install()  # PyTerrier's string path: parse_trec_measure reads our names too
    # While ir_measures is still importing (a plugin-discovering ir_measures loads us from its
    # ``ir_measures.provider`` entry point), DefaultPipeline does not exist yet: it will be built
    # from the registry, which already holds the provider.
    pipeline = getattr(sys.modules.get("ir_measures"), "DefaultPipeline", None)
    if pipeline is None:
        return
    if not any(getattr(p, "NAME", None) == PresProvider.NAME for p in pipeline.providers):
        pipeline.providers.append(provider)
