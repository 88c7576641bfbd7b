"""Many runs scored into one :class:`Scores` table: what ``compare``, the meta-evaluation experiments
and the statistics read.

:class:`Core` ranks each run **once** against the full qrels (:func:`~ir_measures_pres.data.ranking.rank_run`,
trec_eval order) and remembers, for every ranked document, which qrels line judges it. Evaluating
the runs against the full qrels or against a reduced copy (an f-qrels, :mod:`.sampling`) then only
swaps the labels: one numpy gather per run, no re-sorting, no dictionary look-up.

Measures are scored in three ways, all returning one value per (measure, run, qrels query):

* **this package's measures** (PRES, R_norm, Q/O/P/P+-measure, Bpref10) through the catalogue,
  ``catalogue.BY_NAME[m.NAME].compute(m, ranked)``, exactly as ``ir_measures`` calls them;
* **common standard measures** (AP, P@k, R@k, nDCG, RR, Rprec, Success@k, Bpref) through the
  native kernels of :mod:`ir_measures_pres.measures.standard.kernels`
  (:func:`~ir_measures_pres.measures.standard.kernels.kernel_for`),
  which equal pytrec_eval per query and serve repeated evaluation such as this only;
* **anything else** through ``ir_measures.evaluator(...).iter_calc`` (correct, slower): the
  ranked list is handed over with strictly decreasing synthetic scores, so the backend sees
  exactly our ranking.

Queries of the qrels that a run lacks get the measure's ``DEFAULT`` (as ir_measures does), and
run means are over all qrels queries (the warning's one sentence about them:
:mod:`.lacking`).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..data.arrays import ids_as_str, offsets_from_counts, segment_ids
from ..data.inputs import as_latin1, is_utf8, place
from ..data.qrels import ABSENT, Qrels
from ..data.ranking import RankedRun, rank_run
from ..data.runfiles import list_run_files, run_name
from ..measures.catalogue import MeasureNameError, entry_of, parse_measures
from ..measures.standard.kernels import kernel_for
from ..runtime.progress import progress_bar
from .gdeval import check_judgements, gdeval_measures
from .lacking import lacking_topics

MeasureSpec = Union[str, Any, Sequence[Union[str, Any]]]
PathLike = Union[str, "os.PathLike[str]"]


# --------------------------------------------------------------------------------------------
# measures
# --------------------------------------------------------------------------------------------


# Measure lists are read by the package's one catalogue (``parse_measures``, imported above): a
# name means the same here as on the command line and in PyTerrier.


#: what each meta-evaluation command does with per-topic values, in its own terms: the reason
#: it gives for refusing a measure whose one number is a geometric mean (:func:`check_means`).
#: robustness is not here: it ranks the runs by each measure's own one number
#: (:meth:`Core.summaries`), a geometric mean included
USES_OF_TOPIC_VALUES = {
    "agreement": "agreement ranks the runs by each measure's mean over the topics",
    "discriminative-power": "discriminative-power tests pairs of runs on their per-topic values",
    "sensitivity": "sensitivity compares the runs' means over samples of topics",
}


def check_means(measures: Sequence[Any], command: Optional[str] = None) -> None:
    """Refuse (:class:`~ir_measures_pres.measures.catalogue.MeasureNameError`, a usage error in
    the commands) a measure whose one number over topics is not the mean of its per-query values:
    the geometric means ``GMAP`` and ``GMBpref`` (trec_eval's ``gm_map``, ``gm_bpref``). What
    reads a :class:`Core` (compare's paired tests and intervals, the meta-evaluation, the
    curves) works on per-query values and their means. ``command``: a meta-evaluation command,
    whose sentence says what it does with them (:data:`USES_OF_TOPIC_VALUES`); None: compare's
    tests."""
    from ..measures.summary import is_geometric

    geometric = [str(m) for m in measures if is_geometric(m)]
    if not geometric or (command is not None and command not in USES_OF_TOPIC_VALUES):
        return
    instead = "use AP (for GMAP) or Bpref (for GMBpref) here, and the main command for the geometric mean"
    if command is None:
        why = (
            "a geometric mean over topics is not a mean of per-query values, so tests and "
            "statistics on per-query values do not test it"
        )
    else:
        why = f"{USES_OF_TOPIC_VALUES[command]}, and a geometric mean over topics is not such a mean"
    raise MeasureNameError([f"{', '.join(geometric)}: {why}; {instead}"])


def check_mean_labels(labels: Sequence[str]) -> None:
    """:func:`check_means` for per-topic scores read elsewhere (``compare --scores``): the labels
    that name measures as the catalogue reads them (``gm_map``, ``GMAP``); a label that names
    none is left alone."""
    named: List[Any] = []
    for label in labels:
        try:
            named += parse_measures(label)
        except (MeasureNameError, TypeError):
            continue
    check_means(named)


def _plugin_entry(measure: Any) -> Any:
    """The catalogue entry of one of this package's measures, else None."""
    return entry_of(measure)


# --------------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------------


def _readers() -> Tuple[Callable[[PathLike], Any], Callable[[PathLike], Any]]:
    """(read_qrels, read_run): the package's fast readers, or ir_measures' when absent.

    Runs are read with bytes document ids (no Python object per line): the ranking joins them
    with the qrels' str ids through its hash index, and :meth:`Core._fallback_runs` decodes them.
    """
    try:
        from ..data.readers import read_qrels, read_run  # type: ignore[attr-defined]

        return read_qrels, partial(read_run, doc_ids="bytes")
    except ImportError:  # pragma: no cover - the package's io module is the normal path
        import ir_measures

        return (
            lambda p: list(ir_measures.read_trec_qrels(str(p))),
            lambda p: list(ir_measures.read_trec_run(str(p))),
        )


def load_qrels(qrels: Any) -> Qrels:
    """Qrels from a path (TREC format, ``.gz`` allowed) or any qrels object ir_measures accepts.

    A file's topics are taken in id order (UTF-8 byte order), whatever order its lines have: the
    seeded draws of the experiments and tests index topics, so the same judgements give the same
    numbers in any line order (and the numbers of the readers that numbered a file's topics in
    that order, as the package's earlier readers did). Objects keep their own order."""
    if isinstance(qrels, (str, os.PathLike)):
        qrels = _topics_in_id_order(_readers()[0](qrels))
    return Qrels.from_any(qrels)


def _topics_in_id_order(cols: Any) -> Any:
    """The readers' columns with the query codes renumbered in id order."""
    names = getattr(cols, "query_names", None)
    codes = getattr(cols, "query_codes", None)
    if names is None or codes is None:
        return cols
    order = sorted(range(len(names)), key=lambda i: names[i].encode("utf-8", "surrogateescape"))
    recode = np.empty(len(order), dtype=np.int64)
    recode[order] = np.arange(len(order))
    return replace(cols, query_codes=recode[np.asarray(codes)], query_names=[names[i] for i in order])


def resolve_runs(runs: Any) -> List[Tuple[str, Any]]:
    """(name, run) pairs from a directory, a path, a list of paths or run objects, or a mapping
    name -> path or run object. Paths are not read here."""
    if isinstance(runs, (str, os.PathLike)):
        p = Path(runs)
        paths = list_run_files(p) if p.is_dir() else [p]
        return [(run_name(x), x) for x in paths]
    if isinstance(runs, Mapping):
        return [(str(k), v) for k, v in runs.items()]
    out: List[Tuple[str, Any]] = []
    for i, item in enumerate(runs):
        if isinstance(item, (str, os.PathLike)):
            p = Path(item)
            if p.is_dir():
                out.extend((run_name(x), x) for x in list_run_files(p))
            else:
                out.append((run_name(p), p))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            out.append(item)
        else:
            out.append((f"run{i + 1}", item))
    names = [n for n, _ in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"two runs have the same name: {sorted(dup)}; pass a mapping name -> run")
    return out


# --------------------------------------------------------------------------------------------
# per-query scores
# --------------------------------------------------------------------------------------------


@dataclass
class Scores:
    """Per-query scores: ``values[m, r, q]`` of measure ``measures[m]``, run ``runs[r]``, query
    ``query_ids[q]`` (every qrels query; DEFAULT where the run lacks the query)."""

    runs: List[str]
    measures: List[str]
    query_ids: List[str]
    values: np.ndarray

    def means(self) -> np.ndarray:
        """(measures, runs) mean over all queries."""
        return self.values.mean(axis=2)

    def frame(self) -> Any:
        """Long table: run, measure, query_id, value."""
        import pandas as pd

        m, r, q = self.values.shape
        return pd.DataFrame(
            {
                "run": np.tile(np.repeat(np.array(self.runs, dtype=object), q), m),
                "measure": np.repeat(np.array(self.measures, dtype=object), r * q),
                "query_id": np.tile(np.array(self.query_ids, dtype=object), m * r),
                "value": self.values.reshape(-1),
            }
        )

    @classmethod
    def from_frame(
        cls,
        df: Any,
        run: str = "run",
        measure: str = "measure",
        query_id: str = "query_id",
        value: str = "value",
    ) -> "Scores":
        """From a long table of per-query scores (e.g. ``ir_measures.iter_calc`` output with a
        run column). Every (run, measure) must have every query."""
        pivot = df.pivot_table(
            index=[measure, run], columns=query_id, values=value, aggfunc="first", sort=False
        )
        if pivot.isna().to_numpy().any():
            raise ValueError("per-query scores are missing for some (run, measure, query)")
        measures = list(dict.fromkeys(pivot.index.get_level_values(0)))
        runs = list(dict.fromkeys(pivot.index.get_level_values(1)))
        qids = [str(c) for c in pivot.columns]
        values = np.empty((len(measures), len(runs), len(qids)))
        for i, mname in enumerate(measures):
            values[i] = pivot.loc[mname].loc[runs].to_numpy(dtype=np.float64)
        return cls([str(r) for r in runs], [str(m) for m in measures], qids, values)


class Core:
    """Runs ranked once against the full qrels, evaluable against reduced copies of it. A run
    that lacks qrels topics is warned of (:func:`~.lacking.lacking_topics`) unless ``warn_missing`` is False.

    ``keep`` masks, wherever a method takes one, are boolean arrays over :attr:`line_labels`
    (one entry per qrels line, queries in qrels order): a reduced qrels is the full one with the
    lines where ``keep`` is False removed (those documents become unjudged).
    """

    def __init__(
        self,
        qrels: Any,
        runs: Any,
        measures: MeasureSpec,
        progress: Optional[bool] = None,
        warn_missing: bool = True,
        min_runs: int = 2,
        allow_undefined: bool = False,
        command: Optional[str] = None,
    ) -> None:
        #: whether a measure may be undefined on a topic (NaN: Coverage with K ∩ R empty); the
        #: meta-evaluation needs every value and refuses such a topic, compare leaves it out
        self.allow_undefined = allow_undefined
        self.measures = parse_measures(measures)
        check_means(self.measures, command)
        self.measure_labels = [str(m) for m in self.measures]
        self.progress = progress
        self.qrels = load_qrels(qrels)
        self.query_ids: List[str] = list(self.qrels.query_ids)
        # one numbering of the qrels lines: query by query, each query's docs in its dict order
        lookup = self.qrels.lookup
        sizes = np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup))
        self.line_offsets = offsets_from_counts(sizes)
        total = int(self.line_offsets[-1])
        self.line_qidx = segment_ids(self.line_offsets)
        self.line_labels = np.fromiter(
            chain.from_iterable(d.values() for d in lookup), dtype=np.int64, count=total
        )
        self._line_docs = np.fromiter(
            chain.from_iterable(d.keys() for d in lookup), dtype=object, count=total
        )
        index_qrels = Qrels(
            self.query_ids,
            self.line_offsets,
            np.arange(total, dtype=np.int64),
            [
                dict(zip(d.keys(), range(int(a), int(b))))
                for d, a, b in zip(lookup, self.line_offsets[:-1], self.line_offsets[1:])
            ],
        )
        self._plan = self._dispatch()
        gdeval = gdeval_measures(self.fallback_measures)
        if gdeval:  # a topic id or grade gdeval (ERR@k ...) cannot take, named before it runs
            at = lambda i: place("qrels", self.query_ids[self.line_qidx[i]], self._line_docs[i])  # noqa: E731
            check_judgements(gdeval, self.query_ids, self.line_labels, self.qrels.path or "qrels", at)
        for m, (kind, entry) in zip(self.measures, self._plan):
            if kind == "plugin":
                m.validate_params()
                if entry.check_qrels is not None:
                    entry.check_qrels(m, self.qrels)
        pairs = resolve_runs(runs)
        if len(pairs) < min_runs:
            what = "a meta-evaluation" if min_runs == 2 else "this"
            runs = "run" if min_runs == 1 else "runs"
            raise ValueError(f"{what} needs at least {min_runs} {runs}, got {len(pairs)}")
        read_run = _readers()[1]
        self.run_names: List[str] = []
        self.ranked: List[RankedRun] = []
        self._lines: List[np.ndarray] = []
        # Each run is ranked against a copy of the qrels whose "labels" are line numbers: the
        # ranking is the same (same queries), and its labels say which line judges each document.
        table = np.append(self.line_labels, ABSENT)
        # document ids are needed only by the fallback and the measures that read them (known=FILE)
        keep_docs = bool(self.fallback_measures) or any(
            kind == "plugin" and entry.needs_docs for kind, entry in self._plan
        )
        with progress_bar(len(pairs), "ranking runs", progress) as bar:
            for name, run in pairs:
                if isinstance(run, (str, os.PathLike)):
                    run = read_run(run)
                by_line = rank_run(run, index_qrels)
                lines = by_line.labels
                lines[lines == ABSENT] = total  # unjudged: points past the last line
                self.run_names.append(name)
                self.ranked.append(
                    RankedRun(
                        self.qrels,
                        by_line.qpos,
                        by_line.offsets,
                        table[lines],
                        by_line.docs if keep_docs else None,
                    )
                )
                self._lines.append(lines)
                bar.update()
        self._run_dicts: Optional[List[Dict[str, Dict[str, float]]]] = None
        #: the qrels' per-intent judgements, once asked for (:meth:`qrels_intents`)
        self._intents: Optional[List[Any]] = None
        self._keys: Optional[Tuple[np.ndarray, np.ndarray]] = None
        if warn_missing:  # compare words it itself: its topics rule decides what they get
            for name, missing in self.missing_topics().items():
                if missing:
                    note = lacking_topics(name, missing, len(self.query_ids), measures=self.measures)
                    warnings.warn(note, stacklevel=2)

    def missing_topics(self) -> Dict[str, List[str]]:
        """Per run, the qrels topics it lacks (they score the measure's DEFAULT), in qrels order."""
        out = {}
        for name, ranked in zip(self.run_names, self.ranked):
            present = np.zeros(len(self.query_ids), dtype=bool)
            present[np.asarray(ranked.qpos, dtype=np.int64)] = True
            out[name] = [q for q, ok in zip(self.query_ids, present.tolist()) if not ok]
        return out

    # -- measures ---------------------------------------------------------------------------

    def _dispatch(self) -> List[Tuple[str, Any]]:
        plan = []
        for m in self.measures:
            entry = _plugin_entry(m)
            if entry is not None:
                plan.append(("plugin", entry))
                continue
            kernel = kernel_for(m)
            plan.append(("fast", kernel) if kernel is not None else ("fallback", None))
        return plan

    @property
    def fallback_measures(self) -> List[Any]:
        """Measures scored through ir_measures (no vectorised kernel here)."""
        return [m for m, (kind, _) in zip(self.measures, self._plan) if kind == "fallback"]

    # -- qrels versions ---------------------------------------------------------------------

    def qrels_intents(self) -> Optional[Any]:
        """The per-intent judgements of the qrels' iteration column when a diversity measure
        reads them (no ``dqrels=``; :func:`~..measures.diversity.scoring.qrels_intents_of`), else
        None. A reduced qrels keeps those of its kept documents (:meth:`reduced_qrels`)."""
        from ..measures.diversity.scoring import needs_qrels_intents, qrels_intents_of

        if self._intents is None:
            self._intents = [qrels_intents_of(self.qrels) if needs_qrels_intents(self.measures) else None]
        return self._intents[0]

    def _pair_keys(self, intents: Any) -> Tuple[np.ndarray, np.ndarray]:
        """The (topic, document) keys (:func:`~..data.diversity.pair_keys`) of every per-intent
        judgement line of ``intents`` (:meth:`qrels_intents`) and of every qrels line, made once
        (each f-qrels sample reduces the intents by them)."""
        if self._keys is None:
            from ..data.diversity import line_pair_keys, pair_keys

            topics = np.array(self.query_ids, dtype=object)[self.line_qidx] if len(self.line_qidx) else []
            self._keys = (line_pair_keys(intents), pair_keys(topics, self._line_docs))
        return self._keys

    def sampling_labels(self) -> np.ndarray:
        """Per qrels line, the label that says whether its document is relevant when relevant
        documents are sampled: the line's label, or, when a diversity measure reads the qrels'
        intents, the document's highest level over its intents (relevant to one intent is
        relevant, whichever intent's line the qrels' single label came from)."""
        intents = self.qrels_intents()
        if intents is None:
            return self.line_labels
        mine, lines = self._pair_keys(intents)
        keys, inverse = np.unique(mine, return_inverse=True)
        highest = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(highest, inverse.reshape(-1), intents.level.astype(np.int64))
        at = np.minimum(np.searchsorted(keys, lines), max(len(keys) - 1, 0))
        found = (keys[at] == lines) if len(keys) else np.zeros(len(lines), dtype=bool)
        return np.maximum(self.line_labels, np.where(found, highest[at] if len(keys) else 0, 0))

    def reduced_qrels(self, keep: Optional[np.ndarray] = None) -> Qrels:
        """The qrels without the lines where ``keep`` is False (every query is kept), and without
        those documents' per-intent judgements when a diversity measure reads the qrels' intents
        (:meth:`qrels_intents`): what those measures read is what the reduction left."""
        if keep is None:
            return self.qrels
        keep = np.asarray(keep, dtype=bool)
        counts = np.bincount(self.line_qidx[keep], minlength=len(self.query_ids))
        offsets = offsets_from_counts(counts)
        docs = self._line_docs[keep].tolist()
        labels = self.line_labels[keep]
        lab = labels.tolist()
        lookup = [dict(zip(docs[a:b], lab[a:b])) for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]
        # sampled judgements' strata follow their lines (the lines are in the qrels' label order)
        strata = None if self.qrels.strata is None else self.qrels.strata[keep]
        reduced = Qrels(list(self.query_ids), offsets, labels, lookup, strata)
        intents = self.qrels_intents()
        if intents is not None:
            from ..data.diversity import judged_pairs

            mine, lines = self._pair_keys(intents)
            reduced.intents = judged_pairs(intents, lines[keep], mine)
        return reduced

    def ranked_runs(self, keep: Optional[np.ndarray] = None) -> Tuple[Qrels, List[RankedRun]]:
        """Every run's ranking judged by the (reduced) qrels: same order, new labels."""
        if keep is None:
            return self.qrels, self.ranked
        qrels = self.reduced_qrels(keep)
        table = np.append(np.where(keep, self.line_labels, ABSENT), ABSENT)
        runs = [
            RankedRun(qrels, r.qpos, r.offsets, table[lines], r.docs)
            for r, lines in zip(self.ranked, self._lines)
        ]
        return qrels, runs

    # -- scoring ----------------------------------------------------------------------------

    def evaluate(self, keep: Optional[np.ndarray] = None) -> np.ndarray:
        """``values[m, r, q]`` for every measure, run and qrels query against the (reduced) qrels."""
        qrels, runs = self.ranked_runs(keep)
        nm, nr, nq = len(self.measures), len(runs), len(self.query_ids)
        # ours score a topic the run lacks by their kernel on an empty list of it (made once a run)
        grown = [r.with_every_query() for r in runs]
        out = np.empty((nm, nr, nq), dtype=np.float64)
        for i, (m, (kind, impl)) in enumerate(zip(self.measures, self._plan)):
            if kind == "fallback":
                continue
            default = float(m.DEFAULT)
            for j, ranked in enumerate(grown if kind == "plugin" else runs):
                values = impl.compute(m, ranked) if kind == "plugin" else impl(m, ranked)
                row = out[i, j]
                row.fill(default)
                row[ranked.qpos] = values
        if self.fallback_measures:
            self._evaluate_fallback(qrels, out)
        if not self.allow_undefined and np.isnan(out).any():
            m = int(np.nonzero(np.isnan(out))[0][0])
            topics = [t for t, bad in zip(self.query_ids, np.isnan(out[m]).any(axis=0).tolist()) if bad]
            raise ValueError(
                f"{self.measure_labels[m]} is undefined on {len(topics)} topic(s) ({', '.join(topics[:10])}"
                f"{' ...' if len(topics) > 10 else ''}; e.g. K ∩ R is empty there): this needs a value "
                f"on every topic; compare leaves such topics out"
            )
        return out

    def summaries(self, values: np.ndarray) -> np.ndarray:
        """``out[m, r]``: each measure's one number for each run from ``values[m, r, q]``
        (:meth:`evaluate`), by the measure's own rule (the mean, trec_eval's geometric mean, or the
        sum: :func:`~ir_measures_pres.measures.summary.summarise_along`)."""
        from ..measures.summary import summarise_along

        return np.stack([summarise_along(m, values[i]) for i, m in enumerate(self.measures)])

    def scores(self, keep: Optional[np.ndarray] = None) -> Scores:
        return Scores(
            list(self.run_names), list(self.measure_labels), list(self.query_ids), self.evaluate(keep)
        )

    def _evaluate_fallback(self, qrels: Qrels, out: np.ndarray) -> None:
        import ir_measures

        measures = self.fallback_measures
        rows = {str(m): i for i, m in enumerate(self.measures)}
        qpos = {q: i for i, q in enumerate(self.query_ids)}
        qrels_dict = {q: dict(d) for q, d in zip(qrels.query_ids, qrels.lookup)}
        runs = self._fallback_runs()
        texts = chain(qrels_dict, *qrels_dict.values(), *(doc for run in runs for doc in run.values()))
        if not is_utf8(texts):  # pytrec_eval crashes on such ids: hand them over as Latin-1
            qpos = {as_latin1(q): i for q, i in qpos.items()}
            qrels_dict = _latin1_dict(qrels_dict)
            runs = [_latin1_dict(run) for run in runs]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evaluator = ir_measures.evaluator(measures, qrels_dict)
            for j, run in enumerate(runs):
                for m in measures:
                    out[rows[str(m)], j].fill(float(m.DEFAULT))
                for metric in evaluator.iter_calc(run):
                    q = qpos.get(metric.query_id)
                    if q is not None:
                        out[rows[str(metric.measure)], j, q] = metric.value

    def _fallback_runs(self) -> List[Dict[str, Dict[str, float]]]:
        """Each ranking as a run dict with strictly decreasing scores (its order, no ties)."""
        if self._run_dicts is None:
            dicts = []
            for r in self.ranked:
                d: Dict[str, Dict[str, float]] = {}
                assert r.docs is not None  # kept whenever a fallback measure is asked for
                docs = ids_as_str(r.docs).tolist()  # bytes ids (fast readers) -> str, as qrels keys
                for qp, a, b in zip(r.qpos.tolist(), r.offsets[:-1].tolist(), r.offsets[1:].tolist()):
                    d[self.query_ids[qp]] = dict(zip(docs[a:b], map(float, range(b - a, 0, -1))))
                dicts.append(d)
            self._run_dicts = dicts
        return self._run_dicts


def _latin1_dict(nested: Dict[str, Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """``{query: {doc: value}}`` with every id as :func:`~ir_measures_pres.data.inputs.as_latin1`."""
    return {as_latin1(q): {as_latin1(d): v for d, v in docs.items()} for q, docs in nested.items()}


def evaluate(qrels: Any, runs: Any, measures: MeasureSpec, progress: Optional[bool] = None) -> Scores:
    """Per-query scores of every run with every measure (runs ranked once, trec_eval order)."""
    return Core(qrels, runs, measures, progress=progress).scores()
