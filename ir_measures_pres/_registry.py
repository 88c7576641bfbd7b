"""The single list of the package's measures, and their idempotent registration in ir_measures.

Adding a measure: write its class, singleton and ``compute_*`` adapter in its family module, add
one :class:`Entry` below, add it to the property table of the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

import numpy as np

from ._base import PluginMeasure
from ._qrels import Qrels
from ._ranking import RankedRun
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
