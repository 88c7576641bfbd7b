"""The ir_measures provider of the package's measures.

It claims only the measures of :mod:`ir_measures_pres.measures.catalogue`; the standard ones (AP, nDCG,
P@k ...) stay with their own providers through ir_measures' fallback pipeline. This module imports
only ``ir_measures.providers.base`` and ``ir_measures.util`` and never touches
``ir_measures.DefaultPipeline``, so it is safe to load from an ``ir_measures.provider`` entry point
while ir_measures itself is still importing.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Dict, Iterable, Iterator, List, Tuple

import numpy as np
from ir_measures.providers.base import Any as AnyValue
from ir_measures.providers.base import Evaluator, Provider
from ir_measures.util import Metric

from ..data.qrels import Qrels
from ..data.ranking import RankedRun, rank_run
from ..measures.catalogue import BY_NAME, MEASURES
from ..measures.diversity.scoring import qrels_intents
from ..measures.table import check_qrels


def in_fixed_order(measures: Iterable[Any]) -> List[Any]:
    """The measures as a list: a sequence keeps its order, a set (ir_measures' fallback pipeline
    hands each provider one) is sorted by name, so that results never follow the hash seed."""
    if isinstance(measures, (set, frozenset)):
        return sorted(measures, key=str)
    return list(measures)


class PresEvaluator(Evaluator):
    """Scores runs against qrels prepared once; holds no state between runs.

    Measures are scored and yielded in the order given, a set sorted by name
    (:func:`in_fixed_order`).
    """

    def __init__(self, measures: Iterable[Any], qrels: Qrels) -> None:
        super().__init__(in_fixed_order(measures), qrels.query_ids)
        self.qrels = qrels

    def _ranked(self, run: Any) -> RankedRun:
        return run if isinstance(run, RankedRun) and run.qrels is self.qrels else rank_run(run, self.qrels)

    def _answered(self, run: Any, measures: List[Any]) -> Tuple[List[str], List[List[float]]]:
        """(query ids, one list of values per measure) for the queries the run answers (a block
        of a run: the caller adds the queries the whole run lacks)."""
        ranked = self._ranked(run)
        answered = ranked.lengths > 0
        qids = [self.qrels.query_ids[i] for i in ranked.qpos[answered].tolist()]
        return qids, [BY_NAME[m.NAME].compute(m, ranked)[answered].tolist() for m in measures]

    def _every_query(
        self, run: Any, measures: List[Any]
    ) -> Tuple[List[str], List[List[float]], List[str], List[List[float]]]:
        """(answered query ids, their values per measure, lacked query ids, theirs): the queries
        the run answers in its order, then every other qrels query by id (as ir_measures'
        ``Evaluator.iter_calc`` adds its DEFAULTs), each scored as an empty ranking of it by the
        measure's own kernel (``yaap`` log(1/(1+R)), ``Utility`` c·R + ..., 0 for most), in one
        pass: the run's ranking with an empty list added for each qrels query it lacks."""
        grown = self._ranked(run).with_every_query()
        answered = grown.lengths > 0
        ids = self.qrels.query_ids
        qids = [ids[i] for i in grown.qpos[answered].tolist()]
        left = np.flatnonzero(~answered)
        left = left[np.argsort(np.asarray([ids[i] for i in grown.qpos[left].tolist()], dtype=object))]
        lacking = [ids[i] for i in grown.qpos[left].tolist()]
        columns, rest = [], []
        for m in measures:
            values = np.asarray(BY_NAME[m.NAME].compute(m, grown))
            columns.append(values[answered].tolist())
            rest.append(values[left].tolist())
        return qids, columns, lacking, rest

    def _iter_calc(self, run: Any) -> Iterator[Metric]:
        # every qrels query: those the run answers, then those it lacks (ir_measures' iter_calc
        # would add the DEFAULT, which is not what an empty ranking scores for every measure)
        measures: List[Any] = list(self.measures)
        qids, columns, lacking, lacking_columns = self._every_query(run, measures)
        for row, qid in enumerate(qids):
            for measure, values in zip(measures, columns):
                yield Metric(query_id=qid, measure=measure, value=values[row])
        for measure, values in zip(measures, lacking_columns):
            for qid, value in zip(lacking, values):
                yield Metric(query_id=qid, measure=measure, value=value)

    def calc_aggregate(self, run: Any) -> Dict[Any, Any]:
        """The same numbers as ir_measures' ``Evaluator.calc_aggregate`` over :meth:`iter_calc`
        (each measure's aggregator, its catalogue entry's summary, fed the answered queries in
        run order, then the queries the run lacks), without making a ``Metric`` per query and
        measure, which would cost more than the measures themselves (bench/README.md)."""
        measures: List[Any] = list(dict.fromkeys(self.measures))  # a measure listed twice is one
        _, columns, _, lacking_columns = self._every_query(run, measures)
        result = {}
        for measure, values, rest in zip(measures, columns, lacking_columns):
            agg = measure.aggregator()
            deque(map(agg.add, values), maxlen=0)  # the calls of the loop, run from C
            deque(map(agg.add, rest), maxlen=0)
            result[measure] = agg.result()
        return result


class PresProvider(Provider):
    """
    Recall-oriented and graded measures: PRES, R_norm, Q-measure, O-measure, P-measure, P+ and
    Bpref-10, computed with vectorised numpy kernels in trec_eval's ranking order.
    """

    NAME = "ir_measures_pres"
    SUPPORTED_MEASURES = [
        type(e.measure)(**{p: AnyValue() for p in e.measure.SUPPORTED_PARAMS}) for e in MEASURES
    ]

    def _evaluator(self, measures: Iterable[Any], qrels: Any) -> PresEvaluator:
        measures = in_fixed_order(measures)
        # by NAME, as Provider.supports() matches: a measure of a reloaded module is still ours
        foreign = [m for m in measures if getattr(m, "NAME", None) not in BY_NAME]
        if foreign:
            ours = ", ".join(str(e.measure.NAME) for e in MEASURES)
            raise ValueError(
                f"provider {self.NAME} does not support {', '.join(map(str, foreign))}; it provides "
                f"only {ours} (leave the provider unset to get the others from their own backends)"
            )
        for m in measures:
            m.validate_params()
        qrels, intents = qrels_intents(measures, qrels)
        prepared = Qrels.from_any(qrels)
        if intents is not None:
            prepared.intents = intents
        check_qrels(measures, prepared)
        return PresEvaluator(measures, prepared)
