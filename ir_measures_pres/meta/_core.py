"""The one evaluation core shared by every meta-evaluation experiment.

:class:`Core` ranks each run **once** against the full qrels (:func:`~ir_measures_pres._ranking.rank_run`,
trec_eval order) and remembers, for every ranked document, which qrels line judges it. Evaluating
the runs against the full qrels or against a reduced copy (an f-qrels, :mod:`.sampling`) then only
swaps the labels: one numpy gather per run, no re-sorting, no dictionary look-up.

Measures are scored in three ways, all returning one value per (measure, run, qrels query):

* **this package's measures** (PRES, R_norm, Q/O/P/P+-measure, Bpref10) through the catalogue,
  ``catalogue.BY_NAME[m.NAME].compute(m, ranked)``, exactly as ``ir_measures`` calls them;
* **common standard measures** through vectorised numpy kernels with trec_eval semantics
  (:data:`FAST_MEASURES`: AP / AP@k = ``map`` / ``map_cut_k``, P@k = ``P_k``, R@k = ``recall_k``,
  nDCG / nDCG@k = ``ndcg`` / ``ndcg_cut_k`` with gains = labels, RR = ``recip_rank``, Rprec,
  Success@k, Bpref), checked equal to pytrec_eval per query in ``tests/test_meta_core.py``;
* **anything else** through ``ir_measures.evaluator(...).iter_calc`` (correct, slower): the
  ranked list is handed over with strictly decreasing synthetic scores, so the backend sees
  exactly our ranking.

Queries of the qrels that a run lacks get the measure's ``DEFAULT`` (as ir_measures does), and
run means are over all qrels queries.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .._arrays import ids_as_str, offsets_from_counts
from .._qrels import ABSENT, Qrels
from .._ranking import RankedRun, rank_run
from ..catalogue import entry_of, parse_measures
from ._progress import Progress

MeasureSpec = Union[str, Any, Sequence[Union[str, Any]]]
PathLike = Union[str, "os.PathLike[str]"]


# --------------------------------------------------------------------------------------------
# measures
# --------------------------------------------------------------------------------------------


# Measure lists are read by the package's one catalogue (``parse_measures``, imported above): a
# name means the same here as on the command line and in PyTerrier.


def _plugin_entry(measure: Any) -> Any:
    """The catalogue entry of one of this package's measures, else None."""
    return entry_of(measure)


def measure_parts(measure: Any) -> Tuple[str, Optional[int]]:
    """(label without the ``@`` parameter, value of the ``@`` parameter or None)."""
    label = str(measure)
    at = getattr(measure, "AT_PARAM", "cutoff")
    cutoff = measure.params.get(at)
    if cutoff is not None and label.endswith(f"@{cutoff}"):
        return label[: -len(f"@{cutoff}")], cutoff
    return label, None


# --------------------------------------------------------------------------------------------
# standard measures: vectorised kernels with trec_eval semantics
# --------------------------------------------------------------------------------------------


def _hits(ranked: RankedRun, rel: int, cutoff: Optional[int]) -> Tuple[np.ndarray, np.ndarray]:
    """(ranked-query index, 1-based rank) of every document with label >= ``rel`` within the
    top ``cutoff``, in ranked order (grouped by query, ranks ascending)."""
    pos = np.flatnonzero(ranked.labels >= rel)
    q = np.searchsorted(ranked.offsets, pos, side="right") - 1
    rank = pos - ranked.offsets[q] + 1
    if cutoff is not None:
        keep = rank <= cutoff
        q, rank = q[keep], rank[keep]
    return q, rank


def _n_relevant(ranked: RankedRun, rel: int) -> np.ndarray:
    return ranked.qrels.count(lo=rel)[ranked.qpos].astype(np.float64)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(len(num), dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _view(ranked: RankedRun, measure: Any) -> RankedRun:
    judged_only = measure.params.get("judged_only", False)
    return ranked.view(judged_only=True) if judged_only else ranked


def _k_ap(m: Any, ranked: RankedRun) -> np.ndarray:
    """AP (``map``), or AP@k (``map_cut_k``): sum over relevant documents in the top k of the
    precision at their rank, divided by R, the relevant documents of the qrels."""
    rel = m["rel"]
    v = _view(ranked, m)
    q, rank = _hits(v, rel, m.params.get("cutoff"))
    nq = v.num_queries
    count = np.bincount(q, minlength=nq)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    j = np.arange(len(q)) - start[q] + 1  # relevant documents up to and including this one
    total = np.bincount(q, weights=j / rank, minlength=nq)
    return _ratio(total, _n_relevant(v, rel))


def _k_p(m: Any, ranked: RankedRun) -> np.ndarray:
    """P@k (``P_k``): relevant documents in the top k over k (k, not the list length)."""
    v = _view(ranked, m)
    k = m["cutoff"]
    q, _ = _hits(v, m["rel"], k)
    return np.bincount(q, minlength=v.num_queries) / float(k)


def _k_r(m: Any, ranked: RankedRun) -> np.ndarray:
    """R@k (``recall_k``): relevant documents in the top k over R."""
    v = _view(ranked, m)
    q, _ = _hits(v, m["rel"], m["cutoff"])
    return _ratio(np.bincount(q, minlength=v.num_queries).astype(np.float64), _n_relevant(v, m["rel"]))


def _k_success(m: Any, ranked: RankedRun) -> np.ndarray:
    """Success@k (``success_k``): 1 when a relevant document is in the top k."""
    v = _view(ranked, m)
    q, _ = _hits(v, m["rel"], m["cutoff"])
    return (np.bincount(q, minlength=v.num_queries) > 0).astype(np.float64)


def _k_rr(m: Any, ranked: RankedRun) -> np.ndarray:
    """RR (``recip_rank``), or RR@k: 1 / rank of the first relevant document (in the top k)."""
    v = _view(ranked, m)
    q, rank = _hits(v, m["rel"], m.params.get("cutoff"))
    out = np.zeros(v.num_queries, dtype=np.float64)
    queries, first = np.unique(q, return_index=True)
    out[queries] = 1.0 / rank[first]
    return out


def _k_rprec(m: Any, ranked: RankedRun) -> np.ndarray:
    """Rprec: precision at rank R (relevant documents in the top R, over R)."""
    v = _view(ranked, m)
    rel = m["rel"]
    n = _n_relevant(v, rel)
    q, rank = _hits(v, rel, None)
    keep = rank <= n[q]
    return _ratio(np.bincount(q[keep], minlength=v.num_queries).astype(np.float64), n)


def _gain_map(gains: Optional[Dict[int, float]]) -> Callable[[np.ndarray], np.ndarray]:
    """Label -> gain: the label itself (trec_eval), or ``gains.get(label, label)`` as ir_measures
    maps qrels for pytrec_eval. Unjudged documents and gains <= 0 give 0."""

    def apply(labels: np.ndarray) -> np.ndarray:
        g = labels.astype(np.float64)
        g[labels == ABSENT] = 0.0
        if gains:
            uniq = np.unique(labels[labels != ABSENT])
            for level in uniq.tolist():
                if level in gains:
                    g[labels == level] = float(gains[level])
        return np.where(g > 0, g, 0.0)

    return apply


def _ideal_dcg(qrels: Qrels, gains: Optional[Dict[int, float]], cutoff: Optional[int]) -> np.ndarray:
    """Per qrels query, the DCG of the qrels' positive gains sorted descending (top ``cutoff``)."""
    key = ("meta-idcg", None if not gains else tuple(sorted(gains.items())), cutoff)

    def make() -> np.ndarray:
        g = _gain_map(gains)(qrels.labels)
        keep = g > 0
        qidx, g = qrels.qidx[keep], g[keep]
        order = np.lexsort((-g, qidx))
        qidx, g = qidx[order], g[order]
        nq = len(qrels.query_ids)
        count = np.bincount(qidx, minlength=nq)
        start = np.concatenate([[0], np.cumsum(count)[:-1]])
        rank = np.arange(len(g)) - start[qidx] + 1
        if cutoff is not None:
            inside = rank <= cutoff
            qidx, g, rank = qidx[inside], g[inside], rank[inside]
        return np.bincount(qidx, weights=g / np.log2(rank + 1.0), minlength=nq)

    return qrels.cached(key, make)


def _k_ndcg(m: Any, ranked: RankedRun) -> np.ndarray:
    """nDCG (``ndcg``) or nDCG@k (``ndcg_cut_k``): DCG = sum of gain / log2(rank + 1) with the
    label as gain (or ``gains``), over the DCG of the ideal ordering of the qrels."""
    v = _view(ranked, m)
    cutoff = m.params.get("cutoff")
    gains = m.params.get("gains")
    g = _gain_map(gains)(v.labels)
    pos = np.flatnonzero(g > 0)
    q = np.searchsorted(v.offsets, pos, side="right") - 1
    rank = pos - v.offsets[q] + 1
    if cutoff is not None:
        inside = rank <= cutoff
        pos, q, rank = pos[inside], q[inside], rank[inside]
    dcg = np.bincount(q, weights=g[pos] / np.log2(rank + 1.0), minlength=v.num_queries)
    return _ratio(dcg, _ideal_dcg(v.qrels, gains, cutoff)[v.qpos])


def _k_bpref(m: Any, ranked: RankedRun) -> np.ndarray:
    """Bpref (trec_eval ``bpref``): the package's Bpref-10 kernel with offset 0."""
    from ..bpref import bpref_kernel

    rel = m["rel"]
    r = ranked.qrels.count(lo=rel)[ranked.qpos]
    n = ranked.qrels.count(lo=0, hi=rel)[ranked.qpos]
    return bpref_kernel(ranked, r, n, rel, "trec", 0)


def _fast_ok_ndcg(m: Any) -> bool:
    return m["dcg"] == "log2"


#: standard measure NAME -> (kernel, extra applicability check)
FAST_MEASURES: Dict[str, Tuple[Callable[[Any, RankedRun], np.ndarray], Callable[[Any], bool]]] = {
    "AP": (_k_ap, lambda m: True),
    "P": (_k_p, lambda m: True),
    "R": (_k_r, lambda m: True),
    "nDCG": (_k_ndcg, _fast_ok_ndcg),
    "RR": (_k_rr, lambda m: True),
    "Rprec": (_k_rprec, lambda m: True),
    "Success": (_k_success, lambda m: True),
    "Bpref": (_k_bpref, lambda m: True),
}


def _fast_kernel(measure: Any) -> Optional[Callable[[Any, RankedRun], np.ndarray]]:
    import ir_measures

    name = getattr(measure, "NAME", None)
    if name not in FAST_MEASURES:
        return None
    proto = ir_measures.measures.registry.get(name)
    if proto is None or not isinstance(measure, type(proto)):
        return None
    kernel, ok = FAST_MEASURES[name]
    return kernel if ok(measure) else None


# --------------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------------


def _readers() -> Tuple[Callable[[PathLike], Any], Callable[[PathLike], Any]]:
    """(read_qrels, read_run): the package's fast readers, or ir_measures' when absent.

    Runs are read with bytes document ids (no Python object per line): the ranking joins them
    with the qrels' str ids through its hash index, and :meth:`Core._fallback_runs` decodes them.
    """
    try:
        from ..readers import read_qrels, read_run  # type: ignore[attr-defined]

        return read_qrels, partial(read_run, doc_ids="bytes")
    except ImportError:  # pragma: no cover - the package's io module is the normal path
        import ir_measures

        return (
            lambda p: list(ir_measures.read_trec_qrels(str(p))),
            lambda p: list(ir_measures.read_trec_run(str(p))),
        )


def run_name(path: PathLike) -> str:
    """A run's name from its file name: ``input.uwmtCR0.gz`` -> ``input.uwmtCR0``."""
    name = Path(path).name
    return name[:-3] if name.endswith(".gz") else name


def list_run_files(directory: PathLike) -> List[Path]:
    """The run files of a directory: regular, non-hidden files, sorted by name."""
    d = Path(directory)
    files = sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise ValueError(f"no run files in {d}")
    return files


def load_qrels(qrels: Any) -> Qrels:
    """Qrels from a path (TREC format, ``.gz`` allowed) or any qrels object ir_measures accepts."""
    if isinstance(qrels, (str, os.PathLike)):
        qrels = _readers()[0](qrels)
    return Qrels.from_any(qrels)


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
    """Runs ranked once against the full qrels, evaluable against reduced copies of it.

    ``keep`` masks, wherever a method takes one, are boolean arrays over :attr:`line_labels`
    (one entry per qrels line, queries in qrels order): a reduced qrels is the full one with the
    lines where ``keep`` is False removed (those documents become unjudged).
    """

    def __init__(self, qrels: Any, runs: Any, measures: MeasureSpec, progress: bool = True) -> None:
        self.measures = parse_measures(measures)
        self.measure_labels = [str(m) for m in self.measures]
        self.progress = progress
        self.qrels = load_qrels(qrels)
        self.query_ids: List[str] = list(self.qrels.query_ids)
        # one numbering of the qrels lines: query by query, each query's docs in its dict order
        lookup = self.qrels.lookup
        sizes = np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup))
        self.line_offsets = offsets_from_counts(sizes)
        total = int(self.line_offsets[-1])
        self.line_qidx = np.repeat(np.arange(len(lookup)), sizes)
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
        for m, (kind, entry) in zip(self.measures, self._plan):
            if kind == "plugin":
                m.validate_params()
                if entry.check_qrels is not None:
                    entry.check_qrels(m, self.qrels)
        pairs = resolve_runs(runs)
        if len(pairs) < 2:
            raise ValueError(f"a meta-evaluation needs at least 2 runs, got {len(pairs)}")
        read_run = _readers()[1]
        self.run_names: List[str] = []
        self.ranked: List[RankedRun] = []
        self._lines: List[np.ndarray] = []
        # Each run is ranked against a copy of the qrels whose "labels" are line numbers: the
        # ranking is the same (same queries), and its labels say which line judges each document.
        table = np.append(self.line_labels, ABSENT)
        keep_docs = bool(self.fallback_measures)  # document ids are needed only by the fallback
        with Progress(len(pairs), "ranking runs", progress) as bar:
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

    # -- measures ---------------------------------------------------------------------------

    def _dispatch(self) -> List[Tuple[str, Any]]:
        plan = []
        for m in self.measures:
            entry = _plugin_entry(m)
            if entry is not None:
                plan.append(("plugin", entry))
                continue
            kernel = _fast_kernel(m)
            plan.append(("fast", kernel) if kernel is not None else ("fallback", None))
        return plan

    @property
    def fallback_measures(self) -> List[Any]:
        """Measures scored through ir_measures (no vectorised kernel here)."""
        return [m for m, (kind, _) in zip(self.measures, self._plan) if kind == "fallback"]

    # -- qrels versions ---------------------------------------------------------------------

    def reduced_qrels(self, keep: Optional[np.ndarray] = None) -> Qrels:
        """The qrels without the lines where ``keep`` is False (every query is kept)."""
        if keep is None:
            return self.qrels
        keep = np.asarray(keep, dtype=bool)
        counts = np.bincount(self.line_qidx[keep], minlength=len(self.query_ids))
        offsets = offsets_from_counts(counts)
        docs = self._line_docs[keep].tolist()
        labels = self.line_labels[keep]
        lab = labels.tolist()
        lookup = [dict(zip(docs[a:b], lab[a:b])) for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]
        return Qrels(list(self.query_ids), offsets, labels, lookup)

    def ranked_runs(self, keep: Optional[np.ndarray] = None) -> Tuple[Qrels, List[RankedRun]]:
        """Every run's ranking judged by the (reduced) qrels: same order, new labels."""
        if keep is None:
            return self.qrels, self.ranked
        qrels = self.reduced_qrels(keep)
        table = np.append(np.where(keep, self.line_labels, ABSENT), ABSENT)
        runs = [
            RankedRun(qrels, r.qpos, r.offsets, table[lines], None)
            for r, lines in zip(self.ranked, self._lines)
        ]
        return qrels, runs

    # -- scoring ----------------------------------------------------------------------------

    def evaluate(self, keep: Optional[np.ndarray] = None) -> np.ndarray:
        """``values[m, r, q]`` for every measure, run and qrels query against the (reduced) qrels."""
        qrels, runs = self.ranked_runs(keep)
        nm, nr, nq = len(self.measures), len(runs), len(self.query_ids)
        out = np.empty((nm, nr, nq), dtype=np.float64)
        for i, (m, (kind, impl)) in enumerate(zip(self.measures, self._plan)):
            if kind == "fallback":
                continue
            default = float(m.DEFAULT)
            for j, ranked in enumerate(runs):
                values = impl.compute(m, ranked) if kind == "plugin" else impl(m, ranked)
                row = out[i, j]
                row.fill(default)
                row[ranked.qpos] = values
        if self.fallback_measures:
            self._evaluate_fallback(qrels, out)
        return out

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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evaluator = ir_measures.evaluator(measures, qrels_dict)
            for j, run in enumerate(self._fallback_runs()):
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


def evaluate(qrels: Any, runs: Any, measures: MeasureSpec, progress: bool = True) -> Scores:
    """Per-query scores of every run with every measure (runs ranked once, trec_eval order)."""
    return Core(qrels, runs, measures, progress=progress).scores()


def iter_pairs(n: int) -> Iterable[Tuple[int, int]]:
    """Every unordered pair (i, j), i < j, in row order."""
    for i in range(n):
        for j in range(i + 1, n):
            yield i, j
