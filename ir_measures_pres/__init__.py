"""ir_measures_pres: recall-oriented and graded IR evaluation measures for ir_measures.

After ``import ir_measures_pres`` the measures parse from strings (``PRES@1000``,
``QMeasure(beta=0.5)@10``, ``Bpref10(variant='old')`` ...) and evaluate through
``ir_measures.calc_aggregate`` / ``iter_calc`` / ``evaluator`` next to the standard measures,
which keep their own backends (pytrec_eval).
"""

from ._base import MeasureParameterError
from ._ranking import InputError
from ._registry import MEASURES, register
from .blended_ratio import OMeasure, PMeasure, PPlusMeasure, QMeasure
from .bpref import Bpref10
from .normalized_recall import PRES, R_norm
from .provider import PresProvider

__version__ = "0.1.0"

# aliases as Python names too
Rnorm = R_norm
Q_measure = QMeasure
O_measure = OMeasure
P_measure = PMeasure
P_plus = PPlusMeasure
Bpref_10 = Bpref10

register()

__all__ = [
    "PRES",
    "R_norm",
    "Rnorm",
    "QMeasure",
    "Q_measure",
    "OMeasure",
    "O_measure",
    "PMeasure",
    "P_measure",
    "PPlusMeasure",
    "P_plus",
    "Bpref10",
    "Bpref_10",
    "MEASURES",
    "register",
    "PresProvider",
    "MeasureParameterError",
    "InputError",
    "__version__",
]
