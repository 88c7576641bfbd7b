"""The engine of the main command: every measure of a call, prepared once for the qrels, scoring
one run after another.

The package's measures go to its provider (:mod:`.provider`), the others to pytrec_eval in
batches (:mod:`.backend`) or to the ir_measures provider a user names; each run is ranked once,
by the package's one ranking rule (:func:`~ir_measures_pres.data.ranking.rank_run`), for both.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Sequence

from ..data.qrels import Qrels
from ..data.ranking import rank_run
from ..measures.catalogue import entry_of
from .backend import StandardMeasures
from .gdeval import check_columns
from .provider import PresProvider


class Evaluation:
    """The measures of a call, prepared once for the qrels; :meth:`iter_calc` scores one run.
    ``processes``: how many forked processes may score the standard measures of a large run.

    Our measures go to our provider, the others to ir_measures' providers
    (:class:`.backend.StandardMeasures`: pytrec_eval, fed in batches); each run is ranked once,
    by the package's one ranking rule, for both. Standard measures come first, as in the stock
    CLI (our provider is last in the pipeline).
    """

    def __init__(
        self,
        measures: Sequence[Any],
        qrels: Any,
        provider: Optional[str] = None,
        processes: int = 1,
        bounds: Sequence[Any] = (),
    ) -> None:

        if provider == PresProvider.NAME:
            ours, others = list(measures), []
        elif provider is not None:
            ours, others = [], list(measures)
        else:
            ours = [m for m in measures if entry_of(m) is not None]
            others = [m for m in measures if entry_of(m) is None]
        self.measures = list(measures)
        self.qrels = qrels
        if others:  # gdeval's (ERR@k ...): a topic id or grade it cannot take, named before it runs
            check_columns(others, provider, qrels)
        self.ours = PresProvider().evaluator(ours, qrels) if ours else None
        self.others = StandardMeasures(others, qrels, provider, processes) if others else None
        # the qrels our ranking labels runs against (our evaluator's, or made for the batches)
        self._qrels: Optional[Qrels] = self.ours.qrels if self.ours is not None else None  # type: ignore[attr-defined]
        if self._qrels is None and self.others is not None and self.others.batched:
            self._qrels = Qrels.from_any(qrels)
        #: the measures whose bounds over unjudged documents each run also gets (``--bounds``,
        #: :mod:`.bounds`): three more columns per measure in a run's table (:attr:`columns`)
        self.bounded = list(bounds)
        if self.bounded and self._qrels is None:
            self._qrels = Qrels.from_any(qrels)

    @property
    def columns(self) -> List[Any]:
        """The columns of a run's :class:`.streaming.RunTable`: the measures, then for each
        bounded measure its ``lo``, ``hi`` and ``exact``, and RBP's ``residual``
        (:class:`.bounds.BoundOf`)."""
        from .bounds_table import bound_columns

        return self.measures + bound_columns(self.bounded)

    @property
    def qrels_ids(self) -> List[str]:
        """The qrels' query ids, in qrels order (the rows of a :class:`.streaming.RunTable`)."""
        if "_qrels_ids" not in self.__dict__:
            names = getattr(self.qrels, "query_names", None)
            if names is None:
                names = (self._qrels or Qrels.from_any(self.qrels)).query_ids
            self._qrels_ids = list(names)
        return self._qrels_ids

    def rank(self, run: Any) -> Any:
        """The run ranked against the qrels by the package's one rule (a :class:`RankedRun`
        shared by all the measures), or None when no measure needs it. Safe to call from another
        thread while :meth:`iter_calc` scores the previous run (the command does)."""

        if self._qrels is None:
            return None
        self.warm()
        return rank_run(run, self._qrels)

    def warm(self) -> None:
        """Make what the qrels build on first use (their hash index) now: once, before a thread
        or a forked worker would make its own."""
        if self._qrels is not None:
            self._qrels.doc_index()

    def lacking(self, measure: Any, query_ids: Sequence[str]) -> Any:
        """The value of ``measure`` for each of the qrels queries ``query_ids`` in a run that
        lacks them: what its kernel gives an empty ranking of each (ours,
        :func:`~..measures.summary.lacking_values`), the DEFAULT for the others."""
        import numpy as np

        from ..measures.summary import lacking_values

        if self.ours is None or entry_of(measure) is None:
            return np.full(len(query_ids), float(measure.DEFAULT))
        qrels = self.ours.qrels  # type: ignore[attr-defined]
        qpos = np.fromiter((qrels.index[q] for q in query_ids), dtype=np.int64, count=len(query_ids))
        return lacking_values(measure, qrels, qpos)

    def iter_calc(self, run: Any, ranked: Any = None) -> Iterator[Any]:
        """Per-query ``Metric``s of ``run`` (every qrels query, DEFAULT where the run has none);
        ``ranked``: the run's :meth:`rank`, when it was ranked ahead."""
        if ranked is None:
            ranked = self.rank(run)
        if self.others is not None:
            yield from self.others.iter_calc(run, ranked)
        if self.ours is not None:
            yield from self.ours.iter_calc(ranked if ranked is not None else run)


def check_computable(measures: Sequence[Any], provider: Optional[str] = None) -> None:
    """Raise :class:`~..measures.catalogue.MeasureNameError` (a usage error in the commands, made
    before any input is read) naming every measure no installed provider computes, with the
    provider that would and how to install it. ``provider``: the one every measure must go to
    (``--provider``); None: ours for the package's measures, ir_measures' default pipeline for
    the others, as :class:`Evaluation` sends them."""
    import ir_measures

    from ..measures.catalogue import MeasureNameError
    from .backend import default_provider_of

    if provider is not None:
        chosen = ir_measures.providers.registry[provider]
        if not chosen.is_available():
            hint = chosen.install_instructions() if hasattr(chosen, "install_instructions") else ""
            raise MeasureNameError(
                [f"provider {provider!r} is not available here" + (f": {hint}" if hint else "")]
            )
        unsupported = [str(m) for m in measures if not chosen.supports(m)]
        if unsupported:
            raise MeasureNameError([f"provider {provider!r} does not compute {', '.join(unsupported)}"])
        return
    problems = []
    for measure in measures:
        if entry_of(measure) is not None or default_provider_of(measure) is not None:
            continue
        would = [
            f"{p.NAME} would: {p.install_instructions()}" if hasattr(p, "install_instructions") else p.NAME
            for p in ir_measures.DefaultPipeline.providers
            if not p.is_available() and p.supports(measure)
        ]
        problems.append(
            f"unsupported measure {str(measure)!r}: "
            + (
                f"no installed provider computes it ({'; '.join(would)})"
                if would
                else "no provider of ir_measures computes it as written"
            )
        )
    if problems:
        raise MeasureNameError(problems)


def evaluate(measures: Sequence[Any], qrels: Any, run: Any, provider: Optional[str] = None) -> Iterator[Any]:
    """Per-query ``Metric``s of ``measures`` for one run (see :class:`Evaluation`)."""
    return Evaluation(measures, qrels, provider).iter_calc(run)
