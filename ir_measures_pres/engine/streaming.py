"""Runs larger than memory: a run evaluated block by block of whole queries.

One evaluation engine for every size. A run is a sequence of blocks (a block: the lines of some
consecutive queries, each query whole; :class:`~ir_measures_pres.data.runblocks.RunBlocks`
reads a file so); each block is ranked by the package's one rule and scored by the same
measures as a whole run (:func:`block_metrics`: pytrec_eval fed the block's queries, the
package's kernels, other providers with the block's qrels), and its per-query values go into a
:class:`RunTable`, one row per qrels query. The whole-file path is the same thing with one block.

* **Bounded memory.** What is held is the qrels, their evaluators, a block or two (the next one is
  read while the current one is scored) and the table (a float per qrels query and measure): the
  same whatever the size of the run.
* **The same bytes.** Each query's values do not depend on the other queries, and the table hands
  them to the output in the order the whole-run path yields them (per measure: the run's queries
  in the order they appear, then the DEFAULT of the qrels queries it lacks, sorted), so every mean
  is the same to the last digit and every output format is byte-identical.
* **Ungrouped runs.** A run whose query's lines come in two places cannot be cut into blocks of
  whole queries; the reader notices the first line that breaks the grouping, and the run is read
  whole and scored as one block (:func:`stream_run` warns once, through the package's warning
  path). A run read from standard input is copied to a temporary file as it is read, for that.
* **Forked workers** (``jobs`` > 1): a large run file is read *and* scored by forked processes
  in ranges of whole queries (:mod:`~ir_measures_pres.data.topic_ranges`; the values come back,
  in file order); a smaller or piped run is read here and its blocks are scored by them. They
  inherit the prepared qrels and evaluators; at most ``2 * jobs`` ranges or blocks are on the way.

The same engine from Python (:class:`~.block_evaluator.BlockEvaluator`, ``iter_calc_blocks``) is
in :mod:`.block_evaluator`.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import threading
import warnings
from dataclasses import dataclass
from functools import partial
from queue import Queue
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..data.arrays import sum_in_order
from ..data.inputs import Columns, object_array
from ..data.runblocks import RunBlocks, UngroupedRun
from ..runtime.pool import can_fork, forked_map, in_worker
from ..runtime.stops import stop_point

__all__ = [
    "BlockRows",
    "RunInfo",
    "RunTable",
    "block_metrics",
    "stream_run",
]

#: per measure: (query ids, values) of one block, in the order the engine yields them
BlockRows = List[Tuple[Any, List[str], List[float]]]


def block_metrics(evaluation: Any, block: Columns, ranked: Any = None) -> BlockRows:
    """The per-query values of one block of a run (a pure function of the prepared
    :class:`~.evaluation.Evaluation` and the block): per measure, the block's qrels queries that
    the run answers and their values, in the order the whole-run path yields them. The DEFAULTs
    of the qrels queries the block lacks are not here: the caller adds those once (the run's
    end, :meth:`RunTable.metrics`). ``ranked``: the block already ranked (:meth:`Evaluation.rank`)."""
    if ranked is None:
        ranked = evaluation.rank(block)
    rows: BlockRows = []
    if evaluation.others is not None:
        # by the measure object's id: a Measure hashes its repr, which costs more than the rest
        by_measure: Dict[int, Tuple[Any, List[str], List[float]]] = {}
        for metric in evaluation.others.iter_block(block, ranked):
            row = by_measure.get(id(metric.measure))
            if row is None:
                row = by_measure[id(metric.measure)] = (metric.measure, [], [])
            row[1].append(metric.query_id)
            row[2].append(metric.value)
        rows.extend(by_measure.values())
    if evaluation.ours is not None:
        measures = list(dict.fromkeys(evaluation.ours.measures))
        qids, columns = evaluation.ours._answered(ranked if ranked is not None else block, measures)
        rows.extend((m, qids, values) for m, values in zip(measures, columns))
    if evaluation.bounded:  # --bounds: lo, hi, exact of the block's answered queries (.bounds)
        from .bounds_table import bounds_rows

        rows.extend(bounds_rows(evaluation.bounded, ranked))
    return rows


class RunTable:
    """One run's per-query values, gathered block by block: a float per (measure, qrels query)
    and, per measure, the order the values came in. :meth:`metrics` hands them out as the
    whole-run path yields them."""

    def __init__(self, measures: Sequence[Any], qrels_ids: Sequence[str]) -> None:
        self.measures = list(dict.fromkeys(measures))
        self._row = {m: k for k, m in enumerate(self.measures)}
        self.qrels_ids = list(qrels_ids)
        self._qindex = {q: k for k, q in enumerate(self.qrels_ids)}
        self.values = np.zeros((len(self.measures), len(self.qrels_ids)))
        self.seen = np.zeros((len(self.measures), len(self.qrels_ids)), dtype=bool)
        self._order: List[List[np.ndarray]] = [[] for _ in self.measures]
        self._other: List[List[Tuple[str, float]]] = [[] for _ in self.measures]  # not qrels queries
        #: per measure, the value of every qrels query as the run lacks it (:meth:`fill_lacking`;
        #: until then the measure's DEFAULT)
        self._lacking: Dict[int, np.ndarray] = {}

    def add(self, rows: BlockRows) -> None:
        """Add one block's :func:`block_metrics`."""
        for measure, qids, values in rows:
            k = self._row[measure]
            pos = np.fromiter((self._qindex.get(q, -1) for q in qids), dtype=np.int64, count=len(qids))
            vals = np.asarray(values, dtype=np.float64)
            known = pos >= 0
            if not known.all():
                self._other[k].extend((q, v) for q, v, ok in zip(qids, values, known.tolist()) if not ok)
                pos, vals = pos[known], vals[known]
            self.values[k, pos] = vals
            self.seen[k, pos] = True
            self._order[k].append(pos)

    def fill_lacking(self, lacking: Callable[[Any, List[str]], np.ndarray]) -> None:
        """Give each measure's qrels queries that the run lacks their value: ``lacking(measure,
        query ids)`` (:meth:`~.evaluation.Evaluation.lacking`: what the measure gives an empty
        ranking of each), once the last block is in."""
        for k, m in enumerate(self.measures):
            unseen = np.flatnonzero(~self.seen[k])
            if len(unseen):
                full = np.full(len(self.qrels_ids), float(m.DEFAULT))
                full[unseen] = lacking(m, [self.qrels_ids[q] for q in unseen.tolist()])
                self._lacking[k] = full

    def _lacking_values(self, k: int, positions: np.ndarray) -> np.ndarray:
        """The values of the qrels queries at ``positions`` that the run lacks, for measure ``k``."""
        if k in self._lacking:
            return self._lacking[k][positions]
        return np.full(len(positions), float(self.measures[k].DEFAULT))

    def in_order(self, k: int) -> np.ndarray:
        """The values of measure ``self.measures[k]`` as its aggregator takes them (as
        :meth:`metrics` yields them, the values of the qrels queries the run lacks last; their
        order among themselves does not matter here): what its mean and the interval of its mean
        (``--ci``) are over."""
        order = np.concatenate(self._order[k]) if self._order[k] else np.zeros(0, np.int64)
        return np.concatenate(
            (
                self.values[k, order],
                np.asarray([v for _, v in self._other[k]], dtype=np.float64),
                self._lacking_values(k, np.flatnonzero(~self.seen[k])),
            )
        )

    def ids_in_order(self, k: int) -> List[str]:
        """The query ids of :meth:`in_order`'s values, one for one."""
        order = np.concatenate(self._order[k]) if self._order[k] else np.zeros(0, np.int64)
        ids = self.qrels_ids
        return (
            [ids[q] for q in order.tolist()]
            + [q for q, _ in self._other[k]]
            + [ids[q] for q in np.flatnonzero(~self.seen[k]).tolist()]
        )

    def aggregates(self) -> Dict[Any, float]:
        """Each measure's aggregate, as its aggregator makes it from :meth:`metrics` (the same
        values in the same order), without a ``Metric`` per query: a mean (``MeanAgg``) is
        :func:`~ir_measures_pres.data.arrays.sum_in_order` over the count, the additions
        ``MeanAgg.add`` makes, so it is the same to the last bit; other aggregators are fed one
        value at a time."""
        from ir_measures.measures.base import MeanAgg

        out: Dict[Any, float] = {}
        for k, m in enumerate(self.measures):
            values = self.in_order(k)
            agg = m.aggregator()
            if type(agg) is MeanAgg:
                out[m] = sum_in_order(values) / len(values) if len(values) else agg.result()
            else:
                for v in values.tolist():
                    agg.add(v)
                out[m] = agg.result()
        return out

    def metrics(self) -> Iterator[Any]:
        """Every ``Metric`` of the run, per measure in the whole-run path's order: the answered
        queries in the order they came (the run's), then every qrels query left, by query id (as
        ir_measures' ``Evaluator.iter_calc`` adds its DEFAULTs), with what it scores lacked."""
        from ir_measures import Metric

        by_id = (
            np.argsort(np.asarray(self.qrels_ids, dtype=object)) if self.qrels_ids else np.zeros(0, np.int64)
        )
        for k, m in enumerate(self.measures):
            order = np.concatenate(self._order[k]) if self._order[k] else np.zeros(0, np.int64)
            ids = self.qrels_ids
            for q, v in zip(order.tolist(), self.values[k, order].tolist()):
                yield Metric(ids[q], m, v)
            for q, v in self._other[k]:
                yield Metric(q, m, v)
            left = by_id[~self.seen[k, by_id]]
            for q, v in zip(left.tolist(), self._lacking_values(k, left).tolist()):
                yield Metric(ids[q], m, v)


@dataclass
class RunInfo:
    """What the output needs of a run besides its values: its query ids (all, in order of first
    appearance) and its tag (trec_eval's runid), as the whole-file :class:`Columns` has them."""

    query_names: List[str]
    tag: Optional[str]

    @property
    def query_codes(self) -> None:  # as a Columns read whole: the names are all there is
        return None


def stream_run(
    evaluation: Any,
    source: Any,
    jobs: int = 1,
    block_lines: Optional[int] = None,
) -> Tuple[RunTable, RunInfo]:
    """Score a run file block by block (module docstring); returns its table and :class:`RunInfo`.
    An ungrouped run is warned of and scored whole, as one block. Input errors (a bad line)
    are raised as the whole-file reader raises them, before anything is returned.
    ``block_lines``: lines per block (default :data:`~ir_measures_pres.data.runblocks.BLOCK_LINES`)."""
    from ..data import runblocks, topic_ranges
    from ..data.readers import read_run

    if jobs > 1 and topic_ranges.pays(source):
        # a large file: read and scored by the workers in ranges of whole queries
        ranged = _in_ranges(evaluation, source, jobs, block_lines or runblocks.BLOCK_LINES)
        if ranged is not None:
            return ranged
    spool: Optional[_Spool] = None
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-":
        if sys.stdin is None:
            from ..data.readers import TrecFormatError

            raise TrecFormatError("<stdin>", None, "a readable file on standard input", "it closed")
        spool = _Spool(sys.stdin.buffer)
        source = io.BufferedReader(spool)
    try:
        blocks = RunBlocks(source, "bytes", block_lines or runblocks.BLOCK_LINES)
        table = RunTable(evaluation.columns, evaluation.qrels_ids)
        try:
            for rows in _scored(evaluation, blocks, jobs):
                table.add(rows)
                stop_point()  # a stop that something dropped ends the run here, not at its end
            table.fill_lacking(evaluation.lacking)
            return table, RunInfo(blocks.query_names, blocks.tag)
        except UngroupedRun as ungrouped:
            warnings.warn(
                f"{ungrouped}: it is read whole instead of query by query (the memory this takes "
                "grows with the run; sort the run by query to read it in blocks)",
                stacklevel=2,
            )
        whole_source: Any = source
        if spool is not None:
            whole_source = spool.rest()
        run = read_run(whole_source, doc_ids="bytes")
        table = RunTable(evaluation.columns, evaluation.qrels_ids)
        table.add(block_metrics_whole(evaluation, run, jobs))
        table.fill_lacking(evaluation.lacking)
        stop_point()
        return table, RunInfo(list(run.query_names or []), run.tag)
    finally:
        if spool is not None:
            spool.close()


def _in_ranges(
    evaluation: Any, source: Any, jobs: int, block_lines: int
) -> Optional[Tuple[RunTable, RunInfo]]:
    """A run file read and scored by ``jobs`` workers in ranges of whole queries
    (:mod:`~ir_measures_pres.data.topic_ranges`); None when it must be read in order instead
    (a bad line, an ungrouped run: the one-core reading reports it as it always has)."""
    from ..data.topic_ranges import RangesFailed, ScoredRanges

    evaluation.warm()  # before the fork: the workers inherit it
    ranges = ScoredRanges(source, partial(block_metrics, evaluation), "bytes", block_lines, jobs)
    table = RunTable(evaluation.columns, evaluation.qrels_ids)
    try:
        for rows in ranges:
            table.add(rows)
            stop_point()
    except RangesFailed:
        return None
    table.fill_lacking(evaluation.lacking)
    return table, RunInfo(ranges.query_names, ranges.tag)


def block_metrics_whole(evaluation: Any, run: Columns, processes: int) -> BlockRows:
    """A whole run as one block (the ungrouped fallback); a large one has its pytrec_eval batches
    forked as the whole-run path forks them."""
    others = evaluation.others
    before = None if others is None else others.processes
    if others is not None:
        others.processes = processes
    try:
        return block_metrics(evaluation, run)
    finally:
        if others is not None:
            others.processes = before


def _scored(evaluation: Any, blocks: Iterable[Columns], jobs: int) -> Iterator[BlockRows]:
    """Each block's :func:`block_metrics`, in order: here with the next block read and ranked in
    a thread, or by ``jobs`` forked workers."""
    if jobs > 1 and can_fork():
        yield from _in_workers(evaluation, blocks, jobs)
        return
    for block, ranked in _read_ahead(evaluation, blocks):
        yield block_metrics(evaluation, block, ranked)


def _read_ahead(evaluation: Any, blocks: Iterable[Columns]) -> Iterator[Tuple[Columns, Any]]:
    """(block, ranked block) pairs; the next block is read and ranked in a second thread (numpy
    and zlib release the GIL) while the caller scores one. Not in a forked worker (its siblings
    have the other CPUs)."""
    if in_worker():
        for block in blocks:
            yield block, evaluation.rank(block)
        return
    evaluation.warm()
    done = object()
    queue: "Queue[Any]" = Queue(maxsize=1)
    stop = threading.Event()

    def produce() -> None:
        reading = iter(blocks)
        try:
            for block in reading:
                item = (block, evaluation.rank(block))
                while not stop.is_set():
                    try:
                        queue.put(item, timeout=0.1)
                        break
                    except Exception:  # noqa: BLE001 - queue.Full: try again unless stopped
                        continue
                if stop.is_set():
                    return
            queue.put((done, None))
        except BaseException as error:  # noqa: BLE001 - handed to the consumer
            queue.put((done, error))
        finally:
            close = getattr(reading, "close", None)
            if close is not None:  # the file and the parse threads, now (the consumer stopped early)
                close()

    thread = threading.Thread(target=produce, name="read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            item, error = queue.get()
            if item is done:
                if error is not None:
                    raise error
                return
            yield item, error
    finally:
        stop.set()
        while thread.is_alive():
            try:
                queue.get(timeout=0.1)
            except Exception:  # noqa: BLE001 - queue.Empty
                pass
        thread.join()


def _in_workers(evaluation: Any, blocks: Iterable[Columns], jobs: int) -> Iterator[BlockRows]:
    """Blocks scored by ``jobs`` forked workers (:func:`~ir_measures_pres.runtime.pool.forked_map`:
    they inherit the prepared evaluators; a block is pickled on its way there, its rows on the way
    back), at most ``2 * jobs`` on the way; a worker's death raises
    :class:`~ir_measures_pres.runtime.pool.WorkerLost`."""
    evaluation.warm()

    def score(packed: Tuple[Any, ...]) -> BlockRows:
        return block_metrics(evaluation, _unpacked(packed))

    yield from forked_map(score, (_packed(block) for block in blocks), jobs, ahead=2 * jobs)


def _packed(block: Columns) -> Tuple[Any, ...]:
    """A block as it travels to a worker: its arrays and its queries' names, not a ``str`` per
    line (the query id column is made again there)."""
    if block.query_codes is None or block.query_names is None:
        return (block,)
    return (block.query_codes, block.query_names, block.doc_ids, block.values, block.non_utf8_at, block.tag)


def _unpacked(packed: Tuple[Any, ...]) -> Columns:
    """The block :func:`_packed` sent."""
    if len(packed) == 1:
        return packed[0]  # type: ignore[no-any-return]
    codes, names, docs, values, non_utf8_at, tag = packed
    return Columns(
        object_array(names)[codes],
        docs,
        values,
        unique_pairs=True,
        query_codes=codes,
        query_names=names,
        kind="run",
        non_utf8_at=non_utf8_at,
        tag=tag,
    )


class _Spool(io.RawIOBase):
    """Standard input read through, every byte also written to a temporary file: a run that turns
    out ungrouped is then read whole from there (standard input cannot be read twice)."""

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self.raw = raw
        self.name = "<stdin>"  # what messages call it, as the readers call standard input
        self.copy = tempfile.TemporaryFile(prefix="ir_measures_pres-stdin-")  # noqa: SIM115

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.raw.read1(len(buffer)) if hasattr(self.raw, "read1") else self.raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.copy.write(data)
        return n

    def rest(self) -> Any:
        """The whole input (what was read and what was not), as a file object at its start."""
        shutil.copyfileobj(self.raw, self.copy)
        self.copy.flush()
        self.copy.seek(0)
        return self.copy

    def close(self) -> None:
        self.copy.close()
        super().close()
