"""Two facts of a measure's meaning that every surface asks instead of deciding: how its per-topic
values become one number (its **summary**), and what a topic the run lacks scores. The third fact,
which way its values order runs, is :mod:`.direction`'s.

**The summary** (:attr:`.entry.Entry.summary` for this package's measures):

* :data:`~.base.MEAN`: the arithmetic mean over the topics where the measure is defined (a NaN,
  a topic where it is undefined: statAP with nothing relevant sampled, Coverage with K ∩ R empty,
  is left out);
* :data:`~.base.GEOMETRIC`: trec_eval's geometric mean, exp(mean(log(max(v, 0.00001)))) (its
  MIN_GEO_MEAN floor, so that one topic at 0 does not make the whole mean 0): ``GMAP``
  (``gm_map``), ``GMBpref`` (``gm_bpref``);
* :data:`~.base.SUM`: the sum, for counts (``NumNonRelJudgedRet``, the TAR counts
  ``NumCandidates``, ``NumFeedback``, ``NumShown``).

ir_measures' own measures keep their aggregators: a sum for ``NumQ``, ``NumRel``, ``NumRet``
(ir_measures' ``SumAgg``), the mean for the others.

**A topic the run lacks** scores what the measure's own kernel gives an empty ranking for that
topic (:func:`lacking_values`): 0 for most, but ``yaap`` = log(1 / (1 + R)) and ``Utility`` =
c·R + d·(N − R) depend on the topic's judgements, a loss (``TarLoss``) is 1, E is 1. It is the
kernel's value, not a table of constants, so the two can never disagree. ir_measures' own
measures get their ``DEFAULT`` (0, what an empty ranking scores for each of them).
"""

from __future__ import annotations

import functools
from typing import Any, Iterable, Optional

import numpy as np
from ir_measures.measures.base import SumAgg

from .base import GEOMETRIC, MEAN, SUM, SUMMARIES, DefinedMean, GeometricMean, gm_log
from .table import entry_of

__all__ = [
    "GEOMETRIC",
    "MEAN",
    "SUM",
    "SUMMARIES",
    "DefinedMean",
    "GeometricMean",
    "aggregator_of",
    "is_geometric",
    "lacking_values",
    "measure_of_name",
    "summarise",
    "summarise_along",
    "summary_of",
    "summary_of_name",
]


def summary_of(measure: Any) -> str:
    """:data:`MEAN`, :data:`GEOMETRIC` or :data:`SUM`: how ``measure``'s per-topic values become
    one number (its catalogue entry's rule; for ir_measures' own measures, their aggregator's)."""
    entry = entry_of(measure)
    if entry is not None:
        return entry.summary
    return SUM if isinstance(measure.aggregator(), SumAgg) else MEAN


def aggregator_of(measure: Any) -> Any:
    """A new aggregator (``add``, ``result``) that makes ``measure``'s one number, by its rule:
    the measure's own (the catalogue writes each entry's summary on its measure class, whose
    ``aggregator`` follows it; ir_measures' measures keep theirs)."""
    return measure.aggregator()


def summarise(measure: Any, values: Iterable[float]) -> float:
    """``measure``'s one number from its per-topic ``values`` (in the order given), by its rule."""
    agg = aggregator_of(measure)
    for v in values:
        agg.add(float(v))
    return float(agg.result())


def summarise_along(measure: Any, values: np.ndarray) -> np.ndarray:
    """``measure``'s one number for each row of ``values`` (topics along the last axis), by its
    rule, vectorised: the mean (NaN, an undefined topic, left out), trec_eval's geometric mean
    exp(mean(log(max(v, 0.00001)))), or the sum."""
    values = np.asarray(values, dtype=np.float64)
    rule = summary_of(measure)
    if rule == GEOMETRIC:
        return np.exp(gm_log(values).mean(axis=-1))
    if rule == SUM:
        return values.sum(axis=-1)
    if np.isnan(values).any():
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.nansum(values, axis=-1) / (~np.isnan(values)).sum(axis=-1)
    return values.mean(axis=-1)


def is_geometric(measure: Any) -> bool:
    """Whether ``measure``'s one number is a geometric mean (not a mean of its per-topic values)."""
    return summary_of(measure) == GEOMETRIC


@functools.lru_cache(maxsize=None)
def measure_of_name(name: str) -> Optional[Any]:
    """The one measure ``name`` stands for as the catalogue reads it (``"map"``, ``"gm_map"``,
    ``"NumNonRelJudgedRet"``: the labels of score tables and PyTerrier's columns); None when it
    names no measure or several."""
    from .catalogue import MeasureNameError, parse_measures

    try:
        measures = parse_measures(name)
    except (MeasureNameError, TypeError, ValueError):
        return None
    return measures[0] if len(measures) == 1 else None


def summary_of_name(name: str) -> Optional[str]:
    """:func:`summary_of` the one measure ``name`` stands for (:func:`measure_of_name`); None when
    it names no measure or several."""
    measure = measure_of_name(name)
    return None if measure is None else summary_of(measure)


def lacking_values(measure: Any, qrels: Any, qpos: np.ndarray, like: Any = None) -> np.ndarray:
    """The value of each qrels query ``qpos`` (indices into ``qrels``, a
    :class:`~ir_measures_pres.data.qrels.Qrels`) for a run that lacks it: ``measure``'s own kernel
    on an empty ranking of that query. ``like``: a :class:`~ir_measures_pres.data.ranking.RankedRun`
    of the run, whose empty lists are added to it, so that what a kernel reads of the whole run
    (a screening run's column 2) is the run's. ir_measures' own measures: their DEFAULT."""
    from ..data.ranking import RankedRun

    qpos = np.asarray(qpos, dtype=np.int64)
    entry = entry_of(measure)
    if entry is None:
        return np.full(len(qpos), float(measure.DEFAULT))
    if not len(qpos):
        return np.zeros(0)
    if like is None:
        empty = RankedRun(
            qrels,
            qpos,
            np.zeros(len(qpos) + 1, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=object),
        )
        return np.asarray(entry.compute(measure, empty), dtype=np.float64)
    values = entry.compute(measure, like.with_empty_lists(qpos))
    return np.asarray(values, dtype=np.float64)[len(like.qpos) :]
