"""The meta-evaluation's statistics: re-exported from :mod:`ir_measures_pres.stats.significance`
and :mod:`ir_measures_pres.stats.meta_tests`, where each test lives once (shared with
``compare``; no test is implemented twice)."""

from __future__ import annotations

from ..stats.meta_tests import bootstrap_counts, bootstrap_test
from ..stats.significance import (
    ZERO_METHOD,
    kendall_tau,
    require,
    t_statistic,
    tidy,
    wilcoxon,
)

__all__ = [
    "ZERO_METHOD",
    "bootstrap_counts",
    "bootstrap_test",
    "kendall_tau",
    "require",
    "t_statistic",
    "tidy",
    "wilcoxon",
]
