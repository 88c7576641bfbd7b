"""Every mean with its uncertainty over topics: the interval of a run's mean (the
reading is docs/uncertainty.md).

A mean over 50 topics is one draw: another 50 topics from the same population would give another
mean. The interval of :func:`calc_intervals` (and of the main command's ``--ci``, and of each
run's row in ``compare``) says how far, **over the topics the mean is taken over**: every qrels
topic, a topic the run lacks counting the measure's DEFAULT (trec_eval ``-c``, ir_measures'
``calc_aggregate``). The per-topic values are the engine's, in the order the measure's
aggregator takes them, so that the mean is ``calc_aggregate``'s to the last bit; the interval
itself is :func:`~ir_measures_pres.stats.significance.mean_interval` (Student's t, or scipy's
BCa / percentile bootstrap), the function every per-run interval of the package is made by
(``compare``'s too).

It says nothing about judgement incompleteness (documents nobody judged, scored as
non-relevant): that is what the bounds over unjudged documents say
(:mod:`ir_measures_pres.engine.bounds`).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .significance import DEFAULT_RESAMPLES, check_interval, mean_interval

__all__ = ["TOPIC_ORDER", "Interval", "calc_intervals", "interval_of", "mean_values", "table_intervals"]

#: the order of the per-topic values an interval is made on (a bootstrap resamples positions: the
#: same values in another order draw other samples): by query id, as Python orders strings
#: (= UTF-8 byte order), whatever order the engine or the input had them in
TOPIC_ORDER = "query id"


@dataclass(frozen=True)
class Interval:
    """A run's mean of one measure over ``n`` topics and its interval [``low``, ``high``] at
    confidence ``level``, made by ``method`` (``"t"``, ``"bootstrap"`` (BCa) or
    ``"bootstrap-percentile"``). ``low`` and ``high`` are NaN where no interval is defined
    (fewer than 2 topics, an undefined value)."""

    mean: float
    low: float
    high: float
    level: float
    method: str
    n: int

    @property
    def half_width(self) -> float:
        """(high - low) / 2: the ``±`` of a t interval (a bootstrap interval need not be symmetric)."""
        return (self.high - self.low) / 2.0

    def __str__(self) -> str:
        return f"{self.mean:.4f} [{self.low:.4f}, {self.high:.4f}]"


def mean_values(measure: Any, values: Any) -> Optional[np.ndarray]:
    """The values of ``values`` (one run's per-topic values of ``measure``, in the order its
    aggregator takes them) that the measure's mean is over: all of them for ir_measures'
    ``MeanAgg``; for a subclass of it, those it counts (``DefinedMean`` leaves out the NaN of the
    topics where a measure is undefined); None when the measure's summary is not a mean (a
    ``SumAgg``: ``NumRet``, ``NumQ``, ``NumRel`` ...), which has no interval of a mean."""
    from ir_measures.measures.base import MeanAgg

    x = np.asarray(values, dtype=np.float64)
    agg = measure.aggregator()
    if type(agg) is MeanAgg:
        return x
    if not isinstance(agg, MeanAgg):
        return None
    keep = np.zeros(len(x), dtype=bool)
    for i, v in enumerate(x.tolist()):  # a loop over topics: the aggregator says which it counts
        before = agg.count
        agg.add(v)
        keep[i] = agg.count > before
    return x[keep]


def interval_of(
    measure: Any,
    values: Any,
    level: float = 0.95,
    method: str = "t",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Optional[int] = None,
    mean: Optional[float] = None,
    query_ids: Optional[Sequence[str]] = None,
) -> Optional[Interval]:
    """The :class:`Interval` of one run's values of ``measure``, given in the order its
    aggregator takes them; ``mean``: the mean as printed, else the aggregator's result of
    ``values`` in that order. ``query_ids`` (one per value): the interval is made on the values
    sorted by query id (:data:`TOPIC_ORDER`), so that a bootstrap resamples the same sequence
    whatever order an engine yielded the topics in. None when the measure's summary is not a
    mean."""
    x = np.asarray(values, dtype=np.float64)
    if mean is None:
        agg = measure.aggregator()
        for v in x.tolist():
            agg.add(v)
        mean = float(agg.result())
    if query_ids is not None:
        x = x[np.array(sorted(range(len(x)), key=list(query_ids).__getitem__), dtype=np.int64)]
    kept = mean_values(measure, x)
    if kept is None:
        return None
    low, high = mean_interval(kept, level, method, n_resamples, seed)
    return Interval(float(mean), low, high, float(level), method, len(kept))


def calc_intervals(
    measures: Any,
    qrels: Any,
    run: Any,
    level: float = 0.95,
    method: str = "t",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Optional[int] = None,
    provider: Optional[str] = None,
) -> Dict[Any, Interval]:
    """Per measure, one run's mean over the topics and its interval at ``level``:
    ``{measure: Interval(mean, low, high, level, method, n)}``, measures as
    ``ir_measures.calc_aggregate`` keys them.

    ``measures``: measure objects or a measure list as the catalogue reads it (``"AP nDCG@10
    PRES@1000"``, trec_eval names); ``qrels``, ``run``: paths (TREC format, gzipped or not;
    QRELS may be an ir_datasets id) or any objects ir_measures accepts (dicts, DataFrames,
    namedtuples). ``method``: ``"t"`` (Student), ``"bootstrap"`` (BCa) or
    ``"bootstrap-percentile"``, with ``n_resamples`` and ``seed`` (None: fresh entropy, a
    different interval each call; an int reproduces it). Each interval is
    :func:`~ir_measures_pres.stats.significance.mean_interval` (its docstring gives the
    formulas, the scipy calls and the edge cases: one topic gives NaN, values all equal give
    [mean, mean]).

    The mean is over every qrels topic (a topic the run lacks counts the DEFAULT), the
    per-topic values exactly ``ir_measures.iter_calc``'s, so ``mean`` equals
    ``ir_measures.calc_aggregate(measures, qrels, run)[measure]``: two files are scored by the
    main command's engine (block by block), anything else by ``ir_measures.iter_calc``. A
    measure whose summary is not a mean (``NumRet`` ...) is a ValueError. A bootstrap needs
    scipy (the ``meta`` extra).

    On the bundled sample (3 topics: wide intervals; tests/test_intervals.py runs this example):

    >>> from importlib.resources import files
    >>> sample = files("ir_measures_pres") / "data" / "sample"
    >>> intervals = calc_intervals("AP nDCG@10", str(sample / "qrels.test"), str(sample / "results.test"))
    >>> for measure, interval in intervals.items():
    ...     print(measure, interval)
    AP 0.1785 [-0.3397, 0.6968]
    nDCG@10 0.3016 [-0.6876, 1.2908]
    """
    from ..data.extras import require
    from ..measures.catalogue import parse_measures

    check_interval(level, method, n_resamples, seed)
    if method != "t":
        require("scipy")
    parsed = list(parse_measures(measures))
    sums = [str(m) for m in parsed if mean_values(m, np.zeros(0)) is None]
    if sums:
        raise ValueError(
            f"{', '.join(sums)}: the summary over topics is a sum, not a mean: no interval of a "
            "mean (leave it out of calc_intervals)"
        )
    if _is_path(qrels) and _is_path(run):
        per_measure = _values_from_files(parsed, qrels, run, provider)
    else:
        per_measure = _values_from_objects(parsed, qrels, run, provider)
    out: Dict[Any, Interval] = {}
    for m in parsed:
        ids, values = per_measure[m]
        iv = interval_of(m, values, level, method, n_resamples, seed, query_ids=ids)
        assert iv is not None
        out[m] = iv
    few = sorted({iv.n for iv in out.values() if iv.n < 2})
    if few:
        warnings.warn(
            f"an interval over topics needs at least 2 topics, the mean is over {few[0]}: "
            "its interval is NaN",
            stacklevel=2,
        )
    return out


def _is_path(obj: Any) -> bool:
    return isinstance(obj, (str, os.PathLike))


#: one measure's (query ids, values), one for one, in the order its aggregator takes them
PerTopic = Tuple[List[str], np.ndarray]


def _values_from_files(
    measures: List[Any], qrels: Any, run: Any, provider: Optional[str]
) -> Dict[Any, PerTopic]:
    """Per measure, the run file's :data:`PerTopic`: the main command's engine
    (:func:`~ir_measures_pres.engine.streaming.stream_run`: block by block, the next block read
    ahead), the qrels as the command reads them."""
    from ..data.datasets import qrels_columns
    from ..engine.evaluation import Evaluation
    from ..engine.streaming import stream_run

    evaluation = Evaluation(measures, qrels_columns(os.fspath(qrels)), provider)
    table, _ = stream_run(evaluation, run)
    return {m: (table.ids_in_order(k), table.in_order(k)) for k, m in enumerate(table.measures)}


def _values_from_objects(
    measures: Sequence[Any], qrels: Any, run: Any, provider: Optional[str]
) -> Dict[Any, PerTopic]:
    """Per measure, the :data:`PerTopic` ``ir_measures.iter_calc`` yields (the DEFAULT of every
    qrels topic the run lacks included), in the order it yields them: what ``calc_aggregate``
    adds up. A path on one side is read by ir_measures' reader."""
    import ir_measures

    from ..data.inputs import input_file_error
    from ..engine.gdeval import checked_objects

    names = tuple(os.fspath(x) if _is_path(x) else kind for x, kind in ((qrels, "qrels"), (run, "run")))
    try:
        if _is_path(qrels):
            qrels = list(ir_measures.read_trec_qrels(os.fspath(qrels)))
        if _is_path(run):
            run = list(ir_measures.read_trec_run(os.fspath(run)))
    except OSError as error:  # a missing file is an InputError, as the package's readers raise it
        raise input_file_error(error) from None
    # gdeval (ERR@k ...) gets the qrels and the whole run: what it cannot take, named before it runs
    qrels, run = checked_objects(measures, provider, qrels, run, (names[0], names[1]))
    source: Any = ir_measures if provider is None else ir_measures.providers.registry[provider]
    collected: Dict[Any, Tuple[List[str], List[float]]] = {m: ([], []) for m in measures}
    by_id = {id(m): collected[m] for m in measures}
    for metric in source.iter_calc(measures, qrels, run):
        row = by_id.get(id(metric.measure))
        ids, values = collected[metric.measure] if row is None else row
        ids.append(metric.query_id)
        values.append(metric.value)
    return {m: (ids, np.asarray(v, dtype=np.float64)) for m, (ids, v) in collected.items()}


def table_intervals(
    table: Any,
    level: float,
    method: str,
    n_resamples: int,
    seed: Optional[int],
    means: Optional[Dict[Any, float]] = None,
    measures: Optional[Sequence[Any]] = None,
) -> Dict[Any, Optional[Interval]]:
    """The main command's ``--ci``: per measure of a :class:`~ir_measures_pres.engine.streaming.RunTable`
    its :class:`Interval` (None for a measure whose summary is not a mean). ``means``: the
    means as printed (the table's aggregates); ``measures``: those of the table's columns to
    take (default all; ``--bounds`` adds columns that get no interval)."""
    out: Dict[Any, Optional[Interval]] = {}
    wanted = None if measures is None else set(measures)
    for k, m in enumerate(table.measures):
        if wanted is not None and m not in wanted:
            continue
        mean = None if means is None else means.get(m)
        ids = table.ids_in_order(k)
        out[m] = interval_of(m, table.in_order(k), level, method, n_resamples, seed, mean, ids)
    return out
