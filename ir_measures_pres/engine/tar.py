"""The ``tar`` command's scoring of runs, as the CLEF TAR tools score them: each run read in file
order (its line order is the screening order), its screening lists built against each qrels,
the tools' figures computed (:mod:`ir_measures_pres.measures.tar.tools`) and laid out as the
tool's rows (per evaluated topic, then ALL) and notices (:class:`Evaluation`, by
:mod:`ir_measures_pres.printers.tar`); many runs scored side by side in forked processes
(:func:`scored_runs`, :func:`evaluate_many`). :mod:`ir_measures_pres.cli.tar` hands the rows to
the printer's :func:`~ir_measures_pres.printers.tar.lines`.
"""

from __future__ import annotations

import warnings
from typing import Any, Iterator, List, Optional, Sequence, Tuple

from ..data.inputs import INPUT_ERRORS, query_set
from ..data.qrels import Qrels
from ..data.readers import read_qrels, read_run
from ..measures.tar.screening import codes_2017, flags_2018, from_file_order
from ..measures.tar.tools import tar2017, tar2018
from ..printers.tar import rows, table_2017, table_2018
from ..runtime.pool import forked_map


class Evaluation:
    """The tool's output for one run: per evaluated topic its lines, then ALL; and the notices."""

    def __init__(self, edition: str, task: int, rel: int) -> None:
        self.edition = edition
        self.task = task
        self.rel = rel

    def run(self, qrels: Any, cols: Any) -> Tuple[List[Tuple[str, str, Any]], List[Tuple[int, str]]]:
        """(rows (topic, name, value), notices (row index before which it goes, text))."""
        lists = from_file_order(qrels, cols, rel=self.rel, task=self.task)
        if self.edition == "2017":
            figures = tar2017(lists, rel=self.rel, codes=codes_2017(lists, "the 2017 TAR measures"))
            table = table_2017(figures, lists)
        else:
            figures = tar2018(lists, flags_2018(lists, "the 2018 TAR measures"), rel=self.rel)
            table = table_2018(figures, lists, self.task)
        return rows(table, lists, getattr(cols, "duplicates", ()))


def evaluate_many(
    qrels_paths: Sequence[Any],
    run_paths: Sequence[Any],
    edition: str = "2018",
    task: int = 2,
    rel: int = 1,
    jobs: int = 1,
) -> List[List[Tuple[List[Tuple[str, str, Any]], List[Tuple[int, str]]]]]:
    """The tool's rows and notices for every (qrels, run) pair, each file read once: per qrels,
    per run, ``(rows, notices)`` as :meth:`Evaluation.run` gives them (print them with
    :func:`~ir_measures_pres.printers.tar.lines`, or a value with
    :func:`~ir_measures_pres.printers.tar.value_2017` /
    :func:`~ir_measures_pres.printers.tar.value_2018`); ``jobs`` processes score the runs
    side by side. Raises what the readers raise on bad input (an
    :class:`~ir_measures_pres.data.inputs.InputError` naming the file and line, an ``OSError``)."""
    evaluation = Evaluation(edition, task, rel)
    qrels = [Qrels.from_any(read_qrels(path, doc_ids="bytes")) for path in qrels_paths]
    per_run = [results for results, _ in scored_runs(evaluation, qrels, run_paths, jobs)]
    return [[results[i] for results in per_run] for i in range(len(qrels))]


def scored_runs(
    evaluation: "Evaluation",
    qrels: Sequence[Any],
    run_paths: Sequence[Any],
    jobs: int,
    keep_going: bool = False,
) -> Iterator[Any]:
    """Per run, in order, its ``(rows, notices)`` against each of ``qrels`` and, against each, the
    qrels topics the run lacks (the tool leaves them out of ALL): each run read once,
    the runs scored by ``jobs`` forked processes (:mod:`ir_measures_pres.runtime.pool`; in this
    process when a run comes from standard input, which forked processes lack). An input error
    (file and line) is raised when its run's turn comes; with ``keep_going`` it is given in the
    place of the run's results, ``(error, None)``, and the next runs follow."""

    def score(path: Any) -> Tuple[Optional[List[Any]], Optional[List[List[str]]], Optional[BaseException]]:
        try:
            with warnings.catch_warnings():
                # the repeated documents are reported as the tool reports them (notices)
                warnings.simplefilter("ignore")
                cols = read_run(path, doc_ids="bytes", order="file")
            topics = query_set(cols)
            missing = [[t for t in q.query_ids if t not in topics] for q in qrels]
            return [evaluation.run(q, cols) for q in qrels], missing, None
        except INPUT_ERRORS as error:  # returned, not raised: the runs after it are still scored
            return None, None, error

    for results, missing, error in forked_map(score, run_paths, 1 if "-" in run_paths else jobs):
        if error is not None:
            if not keep_going:
                raise error
            yield error, None
            continue
        yield results, missing
