"""The standard measures (AP, nDCG@k, P@k ...) of the command line: ir_measures' own providers
(pytrec_eval first), fed from the readers' columns with the qrels prepared once.

The standard measures stay with their backend; this module only decides how a run reaches it.

* **Qrels once.** The qrels are split into groups of :data:`GROUP_QUERIES` queries and one
  evaluator is made per group, once per :class:`StandardMeasures`; every run of a call (the
  command's many runs) is scored by the same evaluators.
* **Runs in batches, already ranked.** For the measures the default pipeline gives to pytrec_eval,
  a run is handed over one group of queries at a time (a small ``{query: {doc: score}}`` dict
  at a time instead of one for the whole run), and in the order the package's ranking rule has
  already put it (:mod:`..data.ranking`, the rule pytrec_eval applies): each document's score is
  ``-rank``, so pytrec_eval sorts nothing that ties; judged documents keep their ids, and an
  unjudged document is named ``" <rank>"``, which no qrels document of the query can be (the
  check is made once), so no string is made per unjudged line. trec_eval's measures depend on
  the ranked list, the judgements of its documents and their number, never on the text of an
  unjudged id, so every value is the value of the original run
  (``tests/test_backend.py`` compares them on every Robust 2003 run and on tie-heavy runs).
* **Large runs side by side.** pytrec_eval holds the GIL; a run of at least
  :data:`PARALLEL_MIN_LINES` lines has its groups scored by :attr:`StandardMeasures.processes`
  forked processes (:mod:`..runtime.pool`), which inherit the evaluators and the ranked run; their
  metrics come back and are put in the serial order below.
* Measures of other providers (``RR@10`` of msmarco, ``--provider``), runs with ids that are not
  UTF-8 and runs deeper than float32 can count (2**24 per query) take the whole-run path
  (:func:`..data.inputs.backend_run`), as before.

Results are yielded in the order the whole-run path yields them (per measure: the run's queries
in the order they first appear in the file, then the DEFAULT of the queries it lacks), so every
mean is the same to the last bit.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..data.arrays import ids_as_str, segment_of
from ..data.inputs import Columns, backend_qrels, backend_run, needs_latin1
from ..data.qrels import ABSENT
from ..data.ranking import RankedRun
from ..runtime.pool import forked_map, split

__all__ = ["GROUP_QUERIES", "PARALLEL_MIN_LINES", "StandardMeasures", "default_provider_of"]

#: qrels queries per evaluator (and so per batch of a run handed to pytrec_eval)
GROUP_QUERIES = 128

#: pytrec_eval keeps scores as C float: ``-rank`` is exact up to this depth
_MAX_RANK = 2**24

#: a run of at least this many lines has its batches scored by :attr:`StandardMeasures.processes`
#: forked processes (below it, forking costs more than it saves)
PARALLEL_MIN_LINES = 1_000_000


def default_provider_of(measure: Any) -> Optional[str]:
    """Name of the provider ir_measures' default pipeline computes ``measure`` with."""
    import ir_measures

    for provider in ir_measures.DefaultPipeline.providers:
        if provider.is_available() and provider.supports(measure):
            return str(provider.NAME)
    return None


class StandardMeasures:
    """Measures that ir_measures' providers compute, prepared once for a qrels.

    ``qrels`` are the readers' (or any) :class:`Columns`; ``provider`` is the command's
    ``--provider`` (None: ir_measures' default pipeline); ``processes``, how many forked processes
    may score a large run's batches.
    """

    def __init__(
        self, measures: Sequence[Any], qrels: Columns, provider: Optional[str] = None, processes: int = 1
    ) -> None:
        import ir_measures

        self.qrels = qrels
        self.provider = provider
        batched = provider in (None, "pytrec_eval") and qrels.non_utf8_at is None
        self.batched = [m for m in measures if batched and default_provider_of(m) == "pytrec_eval"]
        self.whole = [m for m in measures if m not in self.batched]
        self._calc = ir_measures if provider is None else ir_measures.providers.registry[provider]
        self._whole_evaluators: Dict[Tuple[Any, ...], Any] = {}
        self._qrels_dicts: Dict[bool, Dict[str, Dict[str, Any]]] = {}
        self._qrels_queries: Optional[Set[str]] = None
        self._groups: List[Tuple[List[str], Any]] = []
        self._group_of: Dict[str, int] = {}
        self._placeholders_safe = True
        #: processes that score a large run's batches side by side (the command's ``--jobs``)
        self.processes = processes
        if self.batched:
            self._prepare_groups()

    # -- qrels, once -----------------------------------------------------------------------------

    def _prepare_groups(self) -> None:
        qrels_dict = backend_qrels(self.qrels)
        qids = list(qrels_dict)
        for a in range(0, len(qids), GROUP_QUERIES):
            group = qids[a : a + GROUP_QUERIES]
            evaluator = self._evaluator(self.batched, {q: qrels_dict[q] for q in group})
            self._group_of.update(dict.fromkeys(group, len(self._groups)))
            self._groups.append((group, evaluator))
        if self.whole:  # kept for the other measures' blocks (RR@10 ...), not made twice
            self._qrels_dicts[False] = qrels_dict
        # an unjudged document is handed over as " <rank>": no qrels id may look like that
        self._placeholders_safe = not _any_starts_with_space(self.qrels.doc_ids)

    def _evaluator(self, measures: List[Any], qrels: Dict[str, Dict[str, int]]) -> Any:
        """ir_measures' evaluator of ``measures``, the judged-only ones apart.

        ir_measures' pytrec_eval provider (0.4.3) runs one pytrec_eval evaluator per (rel,
        judged_only) and puts ``NumRet`` and ``NumQ``, which have no ``judged_only``, into
        whichever comes first; when that is a judged-only one (which comes first follows the hash
        seed), ``num_ret`` counts the judged documents only: a wrong number, in one process out
        of several. Measures with ``judged_only=True`` are therefore given their own evaluator."""
        judged_only = [m for m in measures if m.params.get("judged_only") is True]
        if not judged_only or len(judged_only) == len(measures):
            return self._calc.evaluator(measures, qrels)
        others = [m for m in measures if m.params.get("judged_only") is not True]
        return _Chained([self._calc.evaluator(others, qrels), self._calc.evaluator(judged_only, qrels)])

    # -- runs --------------------------------------------------------------------------------

    def _plan(self, run: Columns, ranked: Optional[RankedRun]) -> Tuple[List[Any], List[Any]]:
        """(measures for the whole-run path, measures fed in batches): the batched ones join the
        whole-run path when the run has no ranking here or cannot be fed in batches."""
        whole, batched = list(self.whole), list(self.batched)
        if batched and (ranked is None or not self._can_batch(run, ranked)):
            return whole + batched, []
        return whole, batched

    def iter_calc(self, run: Columns, ranked: Optional[RankedRun] = None) -> Iterator[Any]:
        """Per-query ``Metric``s of the run (every qrels query; DEFAULT where the run has none).

        ``ranked`` is the run ranked against the same qrels by :func:`..data.ranking.rank_run` (the
        command ranks each run once for its own measures too); without it, or when the run
        cannot be fed in batches, the whole run goes through the dicts of the whole-run path."""
        whole, batched = self._plan(run, ranked)
        if whole:
            yield from self._whole_run(whole, run)
        if batched:
            assert ranked is not None
            yield from self._in_batches(run, ranked)

    def iter_block(self, run: Columns, ranked: Optional[RankedRun] = None) -> Iterator[Any]:
        """The ``Metric``s of one block of a run (some of its queries, each whole; see
        :mod:`.streaming`): the values of the block's queries only, as :meth:`iter_calc` gives
        them, and no DEFAULT for the qrels queries outside the block (the caller adds those once
        the run has ended). The work is proportional to the block, not to the qrels."""
        whole, batched = self._plan(run, ranked)
        if whole:
            yield from self._whole_block(whole, run)
        if batched:
            assert ranked is not None
            yield from self._in_batches(run, ranked, block=True)

    def _whole_block(self, measures: List[Any], run: Columns) -> Iterator[Any]:
        """:meth:`_whole_run` for one block: an evaluator made for the qrels of the block's
        queries only (so neither it nor ir_measures' DEFAULTs walk the whole qrels)."""
        latin1 = needs_latin1(self.qrels, run)
        if latin1 not in self._qrels_dicts:
            self._qrels_dicts[latin1] = backend_qrels(self.qrels, latin1)
        if self._qrels_queries is None:
            names = self.qrels.query_names
            self._qrels_queries = set(names if names is not None else self.qrels.query_ids.tolist())
        qrels_dict = self._qrels_dicts[latin1]
        depth = self._top_depth(measures)
        if depth is not None:
            run = _top_scores(run, depth)
        run_dict, query_back = backend_run(self.qrels, run, latin1, self._qrels_queries)
        judged = {q: qrels_dict[q] for q in run_dict if q in qrels_dict}
        if not judged:
            return
        for metric in self._evaluator(measures, judged).iter_calc(run_dict):
            if query_back:
                metric = metric._replace(query_id=query_back.get(metric.query_id, metric.query_id))
            yield metric

    def _top_depth(self, measures: List[Any]) -> Optional[int]:
        """k when every measure is ir_measures' ``msmarco`` RR@k (RR@10 of the default pipeline):
        that provider sorts each query by score descending (then by id) and reads its first k
        documents only, so it can be handed only the documents scoring at least the query's k-th
        score (:func:`_top_scores`), which hold that top k, ties and all; None otherwise."""
        from ir_measures.providers.base import NOT_PROVIDED

        if self.provider not in (None, "msmarco"):
            return None
        depth = 0
        for m in measures:
            if getattr(m, "NAME", None) != "RR" or default_provider_of(m) != "msmarco":
                return None
            cutoff = m["cutoff"]
            if cutoff is NOT_PROVIDED or not isinstance(cutoff, int) or cutoff < 1:
                return None
            depth = max(depth, cutoff)
        return depth or None

    def _can_batch(self, run: Columns, ranked: RankedRun) -> bool:
        return (
            self._placeholders_safe
            and run.non_utf8_at is None
            and ranked.docs is not None
            and (not len(ranked.labels) or int(ranked.lengths.max()) < _MAX_RANK)
        )

    def _whole_run(self, measures: List[Any], run: Columns) -> Iterator[Any]:
        """The run as one dict, as the stock ir_measures command hands it over (the evaluator
        made once per id encoding: Latin-1 when an id of either file is not UTF-8)."""
        latin1 = needs_latin1(self.qrels, run)
        key = (*measures, latin1)
        if key not in self._whole_evaluators:
            self._whole_evaluators[key] = self._evaluator(measures, backend_qrels(self.qrels, latin1))
        run_dict, query_back = backend_run(self.qrels, run, latin1)
        for metric in self._whole_evaluators[key].iter_calc(run_dict):
            if query_back:  # ids handed over as Latin-1 (not valid UTF-8): the readers' ids again
                metric = metric._replace(query_id=query_back.get(metric.query_id, metric.query_id))
            yield metric

    def _in_batches(self, run: Columns, ranked: RankedRun, block: bool = False) -> Iterator[Any]:
        """The batched measures; ``block``: of one block of a run (the groups its queries touch,
        no DEFAULTs, no forks: :meth:`iter_block`)."""
        from ir_measures import Metric

        qrels_ids = ranked.qrels.query_ids
        ranked_of = {qrels_ids[p]: i for i, p in enumerate(ranked.qpos.tolist())}
        handed = _HandedOver(ranked)
        if block:
            touched = sorted({self._group_of[q] for q in ranked_of if q in self._group_of})
            answered_here: List[Any] = []
            for k in touched:
                group, evaluator = self._groups[k]
                batch = {qid: handed.query(i) for qid in group if (i := ranked_of.get(qid)) is not None}
                batch = {qid: docs for qid, docs in batch.items() if docs}
                if batch:
                    answered_here.extend(m for m in evaluator.iter_calc(batch) if m.query_id in batch)
            first_seen = {q: k for k, q in enumerate(_queries_in_file_order(run))}
            answered_here.sort(key=lambda m: first_seen.get(m.query_id, len(first_seen)))
            yield from answered_here
            return

        def score(groups: List[int]) -> List[Tuple[List[Any], List[Any]]]:
            """Per group: the metrics of its queries the run answers, and the DEFAULTs of the rest."""
            out: List[Tuple[List[Any], List[Any]]] = []
            for k in groups:
                group, evaluator = self._groups[k]
                batch = {qid: handed.query(i) for qid in group if (i := ranked_of.get(qid)) is not None}
                batch = {qid: docs for qid, docs in batch.items() if docs}
                if not batch:  # nothing of this group in the run: the DEFAULTs, as iter_calc gives them
                    out.append(([], [Metric(q, m, m.DEFAULT) for m in self.batched for q in group]))
                    continue
                answered: List[Any] = []
                defaults: List[Any] = []
                for metric in evaluator.iter_calc(batch):
                    (answered if metric.query_id in batch else defaults).append(metric)
                out.append((answered, defaults))
            return out

        groups = list(range(len(self._groups)))
        processes = self.processes if len(ranked.labels) >= PARALLEL_MIN_LINES else 1
        answered: List[Any] = []
        defaults: List[Any] = []
        for per_group in forked_map(score, split(groups, processes), processes):
            for group_answered, group_defaults in per_group:
                answered.extend(group_answered)
                defaults.extend(group_defaults)
        # the whole-run path's order: the run's queries as they first appear, then the DEFAULTs
        first_seen = {q: k for k, q in enumerate(_queries_in_file_order(run))}
        answered.sort(key=lambda m: first_seen.get(m.query_id, len(first_seen)))
        defaults.sort(key=lambda m: (str(m.measure), m.query_id))
        yield from answered
        yield from defaults


class _Chained:
    """Several evaluators of disjoint measures as one: their metrics, one evaluator after the
    other (each measure's queries in the order its evaluator yields them)."""

    def __init__(self, evaluators: List[Any]) -> None:
        self.evaluators = evaluators

    def iter_calc(self, run: Any) -> Iterator[Any]:
        for evaluator in self.evaluators:
            yield from evaluator.iter_calc(run)


class _HandedOver:
    """A ranked run as pytrec_eval gets it, one query's ``{document: score}`` at a time: judged
    documents keep their ids, an unjudged one at rank r is ``" r"``; the score is ``-r``.

    Most of a query's list is placeholders, the same for every query of that length: each query's
    dict starts as a copy of one prepared ``{" 1": -1.0, " 2": -2.0, ...}`` and the judged
    documents then replace their ranks' placeholders (both steps loops in C, not per line in
    Python)."""

    def __init__(self, ranked: RankedRun) -> None:
        self.offsets = ranked.offsets.tolist()
        lengths = ranked.lengths
        depth = int(lengths.max()) if len(lengths) else 0
        self.placeholder = [f" {r}" for r in range(depth + 1)]
        self.score = [float(-r) for r in range(depth + 1)]
        self._prepared: Dict[int, Dict[str, float]] = {}
        docs = ranked.docs
        assert docs is not None
        in_qrels = np.flatnonzero(ranked.labels != ABSENT)
        self.judged_at = np.searchsorted(in_qrels, ranked.offsets).tolist()
        self.judged_rank = (in_qrels + 1 - ranked.offsets[segment_of(in_qrels, ranked.offsets)]).tolist()
        self.judged_id = ids_as_str(docs[in_qrels]).tolist()

    def query(self, i: int) -> Dict[str, float]:
        """Ranked query ``i`` as ``{document: score}`` (empty for an empty list)."""
        n = self.offsets[i + 1] - self.offsets[i]
        prepared = self._prepared.get(n)
        if prepared is None:
            prepared = self._prepared[n] = dict(zip(self.placeholder[1 : n + 1], self.score[1 : n + 1]))
        docs = prepared.copy()
        a, b = self.judged_at[i], self.judged_at[i + 1]
        ranks = self.judged_rank[a:b]
        deque(map(docs.__delitem__, map(self.placeholder.__getitem__, ranks)), maxlen=0)
        docs.update(zip(self.judged_id[a:b], map(self.score.__getitem__, ranks)))
        return docs


def _top_scores(run: Columns, k: int) -> Columns:
    """The lines of ``run`` whose score (float64, as handed to the providers) is at least the
    k-th highest of their query: every document of the query's top k in any order that sorts by
    score descending first, whatever breaks its ties (all documents tied with the k-th are kept).
    A query of at most k lines keeps them all. Vectorised: one sort of the block."""
    if run.query_codes is None or len(run) == 0:
        return run
    codes = np.asarray(run.query_codes, dtype=np.int64)
    values = np.asarray(run.values, dtype=np.float64)
    counts = np.bincount(codes)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    kth = np.full(len(counts), -np.inf)
    deep = counts > k
    grouped = bool((codes[1:] >= codes[:-1]).all())
    if grouped and bool(((values[1:] <= values[:-1]) | (codes[1:] != codes[:-1])).all()):
        kth[deep] = values[starts[deep] + k - 1]  # each query already by score descending (usual)
    else:
        order = np.lexsort((-values, codes))  # by query, score descending
        kth[deep] = values[order[starts[deep] + k - 1]]
    keep = values >= kth[codes]
    if keep.all():
        return run
    return replace(
        run,
        query_ids=np.asarray(run.query_ids)[keep],
        doc_ids=run.doc_ids[keep],
        values=run.values[keep],
        query_codes=codes[keep].astype(np.asarray(run.query_codes).dtype),
    )


def _queries_in_file_order(run: Columns) -> List[str]:
    """The run's query ids in the order they first appear (as the whole-run path's dict has them)."""
    if run.query_codes is not None and run.query_names is not None:
        codes = np.asarray(run.query_codes)
        if not len(codes):
            return []
        heads = np.concatenate(([0], np.flatnonzero(codes[1:] != codes[:-1]) + 1))
        names = run.query_names
        return [names[c] for c in dict.fromkeys(codes[heads].tolist())]
    qids = np.asarray(run.query_ids)
    if not len(qids):
        return []
    heads = np.concatenate(([0], np.flatnonzero(qids[1:] != qids[:-1]) + 1))
    return list(dict.fromkeys(qids[heads].tolist()))


def _any_starts_with_space(ids: np.ndarray) -> bool:
    if ids.dtype.kind == "S":
        return bool(len(ids)) and bool((ids.view(np.uint8).reshape(len(ids), -1)[:, 0] == 32).any())
    return any(str(d).startswith(" ") for d in ids.tolist())
