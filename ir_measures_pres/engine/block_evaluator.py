"""Runs larger than memory from Python: :class:`BlockEvaluator` (measures prepared once for the
qrels, a run scored one block of whole queries at a time: from a notebook, or mapped over
partitions by an engine such as Dask) and :func:`iter_calc_blocks`.

It is the main command's streaming engine (:mod:`.streaming`: :func:`~.streaming.block_metrics`,
:class:`~.streaming.RunTable`, :func:`~.streaming.stream_run`) with a Python face: the same
ranking, the same measures, the same means to the last digit. DataFrame chunks are regrouped
into whole queries here (a query seen again after another is an
:class:`~ir_measures_pres.data.runblocks.UngroupedRun`); an evaluator travels to another process
as its recipe (the measures' names and the qrels file) and is prepared once per process.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import numpy as np

from ..data.inputs import Columns, InputError
from ..data.runblocks import RunBlocks, UngroupedRun
from .streaming import block_metrics, stream_run

__all__ = ["BlockEvaluator", "iter_calc_blocks"]


class BlockEvaluator:
    """Measures prepared once for the qrels; scores a run one block of whole queries at a time.

    ``measures``: measure objects or strings (as the command takes them: ``"AP nDCG@10"``,
    ``"PRES@100"``, ``"map"``); ``qrels``: a path (read by the strict reader) or any qrels
    ir_measures accepts; ``provider``: as the command's ``--provider``.

    * :meth:`calc_block` -- the per-query ``Metric``s of one block (a pure function of the
      prepared qrels and the block: what an engine such as Dask maps over partitions);
    * :meth:`frame_block` -- the same as a DataFrame (``query_id``, ``measure``, ``value``);
    * :meth:`iter_calc` -- a run file (read in blocks) or an iterable of DataFrame chunks
      (regrouped into whole queries) as a sequence of per-block ``Metric`` lists, in bounded memory;
    * :meth:`aggregate` -- the means of per-query values as the command prints them (trec_eval
      ``-c``: over every qrels query, a query the run lacks counting the measure's DEFAULT, 0);
      :meth:`means` -- a run file's means (an ungrouped run read whole, as the command does).

    A block must hold whole queries: a query's lines split over two blocks would be scored twice,
    each time with part of its list. :meth:`iter_calc` sees to that for a file or chunks whose
    lines are grouped by query, and raises :class:`~ir_measures_pres.data.runblocks.UngroupedRun`
    (an :class:`~ir_measures_pres.InputError`) when they are not (sort the run by query first).
    """

    def __init__(self, measures: Any, qrels: Any, provider: Optional[str] = None) -> None:
        from ..data.readers import read_qrels
        from ..measures.catalogue import parse_measures
        from .evaluation import Evaluation

        if isinstance(measures, (str, os.PathLike)) or not isinstance(measures, Iterable):
            measures = [measures]
        measures = list(measures)
        if all(isinstance(m, str) for m in measures):
            measures = list(parse_measures(measures))
        #: what another process needs to prepare the same evaluator (a qrels file), see __reduce__
        self._recipe: Optional[Tuple[Any, ...]] = None
        if isinstance(qrels, (str, os.PathLike)):
            self._recipe = (tuple(str(m) for m in measures), os.path.abspath(qrels), provider)
            qrels = read_qrels(qrels, doc_ids="bytes")
        else:  # a dict, a DataFrame, Qrel tuples: checked columns, as the readers give
            qrels = _qrels_columns(qrels)
        self.measures = measures
        self.evaluation = Evaluation(measures, qrels, provider, processes=1)
        self.evaluation.warm()  # made now, not by two threads at once

    def __reduce__(self) -> Any:
        """An evaluator travels to another process (a Dask worker) as its recipe: the measures'
        names and the qrels file; each process prepares it once (pytrec_eval's evaluators do not
        travel) and reuses it for every task."""
        if self._recipe is None:
            raise TypeError(
                "a BlockEvaluator made from in-memory qrels cannot be sent to another process: make it "
                "from a qrels file, which each process then reads once"
            )
        return (_prepared, self._recipe)

    @property
    def qrels_ids(self) -> List[str]:
        """The qrels' query ids (the queries every mean is over)."""
        return list(self.evaluation.qrels_ids)

    def calc_block(self, block: Any) -> List[Any]:
        """Per-query ``Metric``s of one block of a run (:class:`Columns` or a DataFrame with
        ``query_id``, ``doc_id``, ``score``), each of its queries whole: the block's queries
        that the qrels have, no DEFAULT for the others."""
        from ir_measures import Metric

        rows = block_metrics(self.evaluation, _as_block(block))
        return [Metric(q, m, v) for m, qids, values in rows for q, v in zip(qids, values)]

    def frame_block(self, block: Any) -> Any:
        """:meth:`calc_block` as a DataFrame: ``query_id``, ``measure`` (its name, as the command
        prints it), ``value``."""
        import pandas as pd

        rows = block_metrics(self.evaluation, _as_block(block))
        return pd.DataFrame(
            {
                "query_id": pd.Series([q for _, qids, _ in rows for q in qids], dtype=object),
                "measure": pd.Series([str(m) for m, qids, _ in rows for _ in qids], dtype=object),
                "value": np.array([v for _, _, values in rows for v in values], dtype=np.float64),
            }
        )

    def iter_calc(self, run: Any, block_lines: Optional[int] = None) -> Iterator[List[Any]]:
        """The run's per-query ``Metric``s, one list per block. ``run``: a TREC run file (path,
        gzipped or not) read in blocks of at least ``block_lines`` lines, or an iterable of
        DataFrame chunks (``pd.read_csv(..., chunksize=...)``, a parquet reader's batches ...)
        whose rows are grouped by query; a chunk's last query is held until the next chunk
        shows it has ended."""
        from ..data import runblocks

        if isinstance(run, (str, os.PathLike)):
            blocks: Iterable[Any] = RunBlocks(run, "bytes", block_lines or runblocks.BLOCK_LINES)
        else:
            blocks = _whole_queries(run)
        for block in blocks:
            yield self.calc_block(block)

    def means(self, run: Any, block_lines: Optional[int] = None) -> Dict[Any, float]:
        """The means of a run file as the command prints them (block by block; an ungrouped run
        is read whole, with a warning, as the command does)."""
        table, _ = stream_run(self.evaluation, run, block_lines=block_lines)
        return self.aggregate(table.metrics())

    def aggregate(self, metrics: Iterable[Any]) -> Dict[Any, float]:
        """Means of per-query ``Metric``s (all the blocks' of one run) as the command computes
        them: per measure, the values in the order given, then the DEFAULT of every qrels query
        without one (trec_eval ``-c``); the measure's own aggregator."""
        aggs = {m: m.aggregator() for m in dict.fromkeys(self.measures)}
        seen: Dict[Any, set] = {m: set() for m in aggs}
        by_name = {str(m): m for m in aggs}
        for metric in metrics:
            m = metric.measure if metric.measure in aggs else by_name[str(metric.measure)]
            aggs[m].add(metric.value)
            seen[m].add(metric.query_id)
        qrels_ids = set(self.evaluation.qrels_ids)
        for m, agg in aggs.items():
            for _ in range(len(qrels_ids - seen[m])):
                agg.add(m.DEFAULT)
        return {m: agg.result() for m, agg in aggs.items()}


#: the evaluators this process prepared from a recipe (:meth:`BlockEvaluator.__reduce__`)
_PREPARED: Dict[Tuple[Any, ...], BlockEvaluator] = {}
_PREPARING = threading.Lock()


def _prepared(measures: Tuple[str, ...], qrels: str, provider: Optional[str]) -> BlockEvaluator:
    key = (measures, qrels, provider)
    with _PREPARING:  # two threads of one worker: one prepares, the other waits for it
        if key not in _PREPARED:
            _PREPARED[key] = BlockEvaluator(list(measures), qrels, provider)
        return _PREPARED[key]


def _qrels_columns(qrels: Any) -> Columns:
    """In-memory qrels (any that ir_measures accepts) as the checked :class:`Columns` the engine
    takes, through the package's validation boundary (:mod:`~ir_measures_pres.data.inputs`)."""
    from ..data.inputs import as_columns, predict_kind

    kind = predict_kind(qrels, "qrels")
    if kind == "dict":
        from ir_measures import Qrel

        if not all(isinstance(docs, dict) for docs in qrels.values()):
            raise InputError("qrels: expected a dict of dicts {query: {document: relevance}}")
        qrels = [Qrel(q, d, r) for q, docs in qrels.items() for d, r in docs.items()]
        kind = "tuples"
    return as_columns(qrels, kind, "relevance", "qrels")


def iter_calc_blocks(
    measures: Any, qrels: Any, run: Any, block_lines: Optional[int] = None
) -> Iterator[List[Any]]:
    """Per-query ``Metric``s of a run larger than memory, one list per block of whole queries
    (:meth:`BlockEvaluator.iter_calc`)."""
    return BlockEvaluator(measures, qrels).iter_calc(run, block_lines)


def _as_block(block: Any) -> Columns:
    from ..data.inputs import as_columns

    if isinstance(block, Columns):
        return block
    return as_columns(block, "frame", "score", "run")


def _whole_queries(chunks: Iterable[Any]) -> Iterator[Any]:
    """DataFrame chunks regrouped so that each holds whole queries: a chunk's last query is held
    back and put in front of the next chunk. A query seen again after another is an
    :class:`UngroupedRun`."""
    import pandas as pd

    held: Any = None
    done: set = set()
    rows = 0
    for chunk in chunks:
        if held is not None:
            chunk = pd.concat([held, chunk], ignore_index=True)
        if not len(chunk):
            held = chunk
            continue
        qids = chunk["query_id"].to_numpy()
        change = np.flatnonzero(qids[1:] != qids[:-1]) + 1
        heads = np.concatenate(([0], change))
        order = qids[heads].tolist()
        here: set = set()
        for k, q in enumerate(order):  # a loop over the chunk's queries, not its rows
            if q in done or q in here:
                raise UngroupedRun("<chunks>", str(q), rows + int(heads[k]) + 1)
            here.add(q)
        last = int(heads[-1])
        if last:
            done.update(order[:-1])
            yield chunk.iloc[:last]
        rows += last
        held = chunk.iloc[last:]
    if held is not None and len(held):
        yield held
