"""``compare`` and its results, kept at their old path: they live in
:mod:`ir_measures_pres.stats.comparison`."""

from .stats.comparison import COLUMNS, TESTS, Comparison, check_parameters, compare, compare_scores

__all__ = ["COLUMNS", "TESTS", "Comparison", "check_parameters", "compare", "compare_scores"]
