"""Bounds over unjudged documents: how low and how high a score could go if the documents the
run retrieved and nobody judged were judged (docs/uncertainty.md).

For a query and a measure, ``[lo, hi]`` is the range of the measure over every *completion*: every
assignment of a level of the qrels' scale (0 .. their largest value, at least ``rel``; a level
whose gain the measure's ``gains`` leave out is not one of its levels) to the **unjudged
documents the run retrieved** (not in the qrels for the query, or in them with a negative value:
docs/conventions.md), all of them, also those below the measure's cutoff (they change R).
Unretrieved unjudged documents stay non-relevant. What a measure needs known for this is its
:class:`..measures.bounds_spec.BoundSpec`, beside its kernel; the gain its kernel gives each level decides
the level a document made relevant gets: the relevant level of the largest gain, which need not
be the top label (nDCG's gains need not rise with the level).

**Which completions.** Every measure is scored by its one kernel (the native kernels of
:mod:`..measures.standard.kernels` for AP, nDCG, P, R, Rprec, RR, Success; the catalogue's for ours) on
completions laid out as virtual queries in the per-query-offsets arrays: a copy of the query's
judged list with some unjudged documents relabelled, and qrels (:meth:`.Qrels.of_labels`) with
as many lines added. The kinds:

* **extremes** (no dependence on R; a sum over the documents of the gain of their level with
  non-negative weights, or monotone in it: P@k, RR, Success, DCG, CG, NTCIR_RBP): the extremes
  over all completions are the uniform ones at the level of the largest and of the smallest
  gain, and the run as judged (gain 0); hi and lo are the max and the min of these. Exact.
* **completions** (normalised by R or by an ideal ranking, one relevant gain: AP, R@k, Rprec,
  nDCG@k, Q, PRES, R_norm): exact, with hi = max over m of V(the top m unjudged documents
  relevant), lo = min over m of V(the bottom m relevant), m = 0 .. u (m = 0: the value).

  *Proof sketch.* Fix m, the number of unjudged documents made relevant: R = R0 + m is fixed,
  and each of these measures is non-decreasing when a relevant label moves from a document to a
  non-relevant one ranked above it (R fixed: AP's precisions, nDCG's discounts, PRES's and
  R_norm's rank sums, Q's blended ratios, R@k's and Rprec's counts above a rank only gain). So
  among the completions with m relevant unjudged documents, the best puts them on the m
  highest-ranked unjudged documents and the worst on the m lowest; the range over all
  completions is the range of these 2(u + 1) completions. ``tests/test_bounds.py`` checks it
  against every completion, each scored by ir_measures.

  *Fewer completions* (branch and bound, exact; :mod:`.bounds_search`). For AP, R@k, nDCG@k,
  PRES and Q (``monotone``; not Rprec, not R_norm, not PRES_est) the kernel's value V(E, R) is
  non-decreasing in the set E of relevant retrieved documents and non-increasing in R, also for
  E and R of different completions: a *decoupled* completion, scored by the same kernel, bounds
  a whole interval of m. AP, R@k and PRES are moreover N(E) / (c R) (``per_relevant``), R@k and
  PRES with N concave along the top-m completions (``concave``): their intervals are bounded
  from the values at their ends (:mod:`.bounds_search` has the steps of N).
* **outer** (nDCG and Q, beta > 0, whose relevant levels have more than one gain; gains >= 0):
  the numerator and the normaliser are bounded apart, each by the same kernel on decoupled
  completions, every unjudged document at the relevant level of the largest gain: lo = V(run as
  judged, qrels with every unjudged retrieved document at that level), hi = min(1, V(run with
  every unjudged document at that level, qrels as judged)) (1 when the qrels judge no document
  relevant and an unjudged one is within the cutoff). These contain the true range; ``exact`` is
  False.
* **relevance-free** (trec_eval 10's ``unj``): lo = hi = value, exact (the command prints the
  value with its bounds' cells empty).

No bound is clamped to the value: the value is itself a completion (nothing unjudged relevant),
so lo <= value <= hi holds by construction, and the tests check it on the unclamped numbers.

Refused with a message (:class:`BoundsError`): bpref and every judged-only variant
(``judged_only=True``, Bpref10, NTCIR_bpref, NTCIR_rpref: they skip unjudged documents, so
their lists themselves change with the labels), and every measure without a spec.

**RBP's residual** (Moffat and Zobel, TOIS 2008): for ``NTCIR_RBP`` (and, with binary labels,
ir_measures' RBP it equals) :func:`rbp_residual` is hi - lo + p^d, d the depth of the list the
measure sees: the unjudged retrieved documents' weight plus the unseen tail. trec_eval 10's
``rbp_resid`` is the same sum but 0 when every retrieved document is judged (docs/uncertainty.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Optional, Tuple

import numpy as np

from ..data.arrays import sum_in_order
from ..data.qrels import Qrels
from ..data.ranking import RankedRun
from ..measures.bounds_spec import EXTREMES, FREE, JUDGED_ONLY, REFUSED, BoundSpec
from .bounds_catalogue import spec_of, supported
from .bounds_layout import BoundPlan, Kernel, Layout
from .bounds_search import branch_and_bound

__all__ = [
    "BoundsError",
    "MeasureBounds",
    "QueryBounds",
    "bound_plan",
    "calc_bounds",
    "check_boundable",
    "query_bounds",
    "rbp_residual",
]


class BoundsError(ValueError):
    """A measure for which no bounds over unjudged documents are given, and why."""


# --------------------------------------------------------------------------------------------
# which measures, and how (each measure's BoundSpec, beside its kernel: ..measures.bounds_spec)
# --------------------------------------------------------------------------------------------


def needs_bounds(measure: Any) -> bool:
    """Whether ``measure``'s value depends on relevance (else lo = hi = value, and the command
    leaves its bounds' cells empty)."""
    spec = spec_of(measure)
    return spec is None or spec.kind != FREE


def _kernel(measure: Any) -> Optional[Kernel]:
    from ..measures.catalogue import entry_of
    from ..measures.standard.kernels import kernel_for

    entry = entry_of(measure)
    if entry is not None:
        return entry.compute  # type: ignore[no-any-return]
    return kernel_for(measure)


def refusal(measure: Any) -> Optional[str]:
    """Why ``measure`` has no bounds (a sentence naming it), or None when it has."""
    spec = spec_of(measure)
    head = f"{measure}: no bounds over unjudged documents"
    if spec is not None and spec.kind == REFUSED:
        return f"{head}: {spec.reason}"
    if getattr(measure, "params", {}).get("judged_only") is True:
        return f"{head}: {JUDGED_ONLY}"
    if spec is None or _kernel(measure) is None:
        return f"{head} for this measure (they are given for {supported()})"
    problem = spec.check(measure) if spec.check is not None else None
    return None if problem is None else f"{head} {problem}"


def check_boundable(measures: Iterable[Any]) -> None:
    """Raise :class:`BoundsError` naming every measure of ``measures`` that has no bounds."""
    problems = [p for p in map(refusal, measures) if p is not None]
    if problems:
        raise BoundsError("\n".join(problems))


def scale(measure: Any, qrels: Qrels) -> np.ndarray:
    """The levels an unjudged document may be judged: 0 .. the qrels' largest value (at least
    ``rel`` and 1): the scale the assessors used."""
    rel = int(measure.params.get("rel", 1) or 1)
    labels = qrels.labels
    return np.arange(max(int(labels.max()) if len(labels) else 1, rel, 1) + 1)


def level_gains(measure: Any, spec: BoundSpec, levels: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(gain, relevant) of each level for the kernel of ``measure``: binary measures 1 and True
    at the levels >= rel; graded ones their gain (nan where the measure refuses the level) and
    whether the level is relevant (its gain > 0, or the level >= rel, as ``spec`` says)."""
    rel = int(measure.params.get("rel", 1) or 1)
    if spec.gain is None:
        return (levels >= rel).astype(np.float64), levels >= rel
    gain = np.asarray(spec.gain(measure, levels), dtype=np.float64)
    relevant = (gain > 0) if spec.relevant_by_gain else (levels >= rel) & ~np.isnan(gain)
    return gain, relevant


def bound_plan(measure: Any, qrels: Qrels) -> BoundPlan:
    """How ``measure`` is bounded against ``qrels`` (:class:`BoundsError` when it is not)."""
    problem = refusal(measure)
    if problem is not None:
        raise BoundsError(problem)
    compute = _kernel(measure)
    spec = spec_of(measure)
    assert compute is not None and spec is not None
    cutoff = measure["cutoff"] if spec.full_cutoff else measure.params.get("cutoff")
    if not isinstance(cutoff, int) or isinstance(cutoff, bool):
        cutoff = None
    if spec.kind == FREE:
        return BoundPlan(measure, compute, "free", False, None, cutoff)
    levels = scale(measure, qrels)
    gain, relevant = level_gains(measure, spec, levels)
    defined = ~np.isnan(gain)
    levels, gain, relevant = levels[defined], gain[defined], relevant[defined]
    if spec.kind == EXTREMES or not relevant.any():
        # every completion is the run with each unjudged document at some level; the value is
        # a sum of the levels' gains with non-negative weights (or monotone in them): its
        # extremes are every unjudged document at the level of the largest or the smallest gain
        # (a gain of 0 is the run as judged). No relevant level: nothing can change.
        high = int(levels[np.argmax(gain)]) if spec.kind == EXTREMES and gain.max() != 0 else None
        low = int(levels[np.argmin(gain)]) if spec.kind == EXTREMES and gain.min() != 0 else None
        return BoundPlan(
            measure, compute, "extremes", False, high, cutoff, low_level=low, reads_scale=spec.reads_scale
        )
    if (gain < 0).any():  # the proofs of the completions and outer bounds take gains >= 0
        raise BoundsError(
            f"{measure}: no bounds over unjudged documents when gains give a level a negative gain"
        )
    # completions: an unjudged document made relevant gets the relevant level of the largest
    # gain (the smallest such level); exact when every relevant level has that gain
    top_gain = gain[relevant].max()
    level = int(levels[relevant & (gain == top_gain)][0])
    binary = spec.gain is None or not spec.grades_matter(measure) or bool((gain[relevant] == top_gain).all())
    monotone = spec.monotone_for(measure) and binary
    per_relevant = monotone and spec.per_relevant
    return BoundPlan(
        measure,
        compute,
        "completions" if binary else "outer",
        monotone,
        level,
        cutoff,
        per_relevant,
        per_relevant and spec.concave,
        relevant_levels=tuple(int(v) for v in levels[relevant]),
    )


# --------------------------------------------------------------------------------------------
# per ranked query: value, lo, hi
# --------------------------------------------------------------------------------------------


def _uniform(plan: BoundPlan, ranked: RankedRun, level: int) -> np.ndarray:
    """The kernel's value of the run with every unjudged retrieved document judged ``level``
    (and, for a kernel that reads the qrels' scale, the qrels holding those judgements)."""
    if plan.reads_scale:
        layout = Layout(ranked, plan.cutoff)
        every = np.ones(ranked.num_queries, dtype=bool)
        return layout.score(plan, np.arange(ranked.num_queries), every, layout.u, layout.u, level)
    labels = np.where(ranked.labels < 0, level, ranked.labels)
    judged = RankedRun(ranked.qrels, ranked.qpos, ranked.offsets, labels)
    return np.asarray(plan.compute(plan.measure, judged), dtype=np.float64)


def query_bounds(
    measure: Any, ranked: RankedRun, plan: Optional[BoundPlan] = None
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(value, lo, hi, exact) per ranked query of ``ranked`` (a run ranked against the qrels by
    :func:`~..data.ranking.rank_run`); a query with an empty list gets the measure's DEFAULT.
    Every lo and hi is a completion's value (exact) or a bound on all of them (outer); none is
    clamped to the value: the value is the completion that judges nothing relevant."""
    if plan is None:
        plan = bound_plan(measure, ranked.qrels)
    nq = ranked.num_queries
    value = np.asarray(plan.compute(measure, ranked), dtype=np.float64)
    unjudged = ranked.labels < 0
    u = np.bincount(ranked.qidx[unjudged], minlength=nq)
    if plan.kind == "free":
        lo, hi = value, value
    elif plan.kind == "extremes":
        # the run as judged, and every unjudged document at the level of the largest and of
        # the smallest gain (a divisor below 0 swaps which is which: both are scored)
        seen = [value] + [_uniform(plan, ranked, v) for v in (plan.level, plan.low_level) if v is not None]
        lo, hi = np.minimum.reduce(seen), np.maximum.reduce(seen)
    elif plan.kind == "outer":
        layout = Layout(ranked, plan.cutoff)
        qs = np.arange(nq)
        yes = np.ones(nq, dtype=bool)
        zero = np.zeros(nq, dtype=np.int64)
        lo = layout.score(plan, qs, yes, zero, layout.u)
        hi = layout.score(plan, qs, yes, layout.u, zero)
        # no relevant document judged: any completion with one may score up to 1
        no_relevant = ranked.qrels_stat(_count_levels(ranked.qrels, plan.relevant_levels)) == 0
        hi = np.where(no_relevant, np.where(layout.u_cut > 0, 1.0, hi), np.minimum(1.0, hi))
    else:
        layout = Layout(ranked, plan.cutoff)
        qs = np.arange(nq)
        # m = 0 is the run as judged: the value itself; m = u is scored
        every = layout.score(plan, qs, np.ones(nq, dtype=bool), layout.u, layout.u)
        ends = np.r_[value, every]
        n_relevant = ranked.qrels_stat(ranked.qrels.count(lo=plan.level))
        hi = branch_and_bound(layout, plan, True, ends, n_relevant)
        lo = branch_and_bound(layout, plan, False, ends, n_relevant)
    # a list with nothing unjudged: the value itself (no completion but the run as judged)
    lo = np.where(u > 0, lo, value)
    hi = np.where(u > 0, hi, value)
    exact = np.full(nq, plan.exact) | (u == 0)
    empty = ranked.lengths == 0
    if empty.any():
        default = float(measure.DEFAULT)
        value, lo, hi = (np.where(empty, default, x) for x in (value, lo, hi))
        exact = exact | empty
    return value, lo, hi, exact


def _count_levels(qrels: Qrels, levels: Tuple[int, ...]) -> np.ndarray:
    """Per qrels query, its lines at one of ``levels``."""
    return np.bincount(qrels.qidx[np.isin(qrels.labels, levels)], minlength=len(qrels.query_ids))


def rbp_residual(measure: Any, ranked: RankedRun, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Moffat and Zobel's residual of RBP per ranked query: hi - lo (the weight of the unjudged
    retrieved documents) plus p^d, the weight of the ranks below the list the measure sees
    (d its depth: the list's length, at most the cutoff). An empty list: 1 (everything unseen)."""
    p = float(measure["p"])
    depth = ranked.lengths.astype(np.float64)
    cutoff = measure.params.get("cutoff")
    if cutoff is not None:
        depth = np.minimum(depth, float(cutoff))
    return (hi - lo) + np.power(p, depth)


# --------------------------------------------------------------------------------------------
# from Python
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueryBounds:
    """One query's value of a measure and its bounds over the unjudged documents."""

    query_id: str
    value: float
    lo: float
    hi: float
    exact: bool
    #: RBP only: Moffat and Zobel's residual (hi - lo + p^depth), else None
    residual: Optional[float] = None


@dataclass(frozen=True)
class MeasureBounds:
    """A measure's mean over the qrels queries (DEFAULT for those the run lacks, as every mean
    of the package) with the means of the per-query bounds; ``exact``: every query's bounds are
    exact; ``per_query``: by query id, in qrels order."""

    measure: Any
    value: float
    lo: float
    hi: float
    exact: bool
    per_query: Dict[str, QueryBounds]
    residual: Optional[float] = None


def is_rbp(measure: Any) -> bool:
    return getattr(measure, "NAME", None) == "NTCIR_RBP"


def calc_bounds(measures: Any, qrels: Any, run: Any) -> Dict[Any, MeasureBounds]:
    """Per measure, the bounds over unjudged documents of ``run`` against ``qrels`` (paths, TREC
    format, gzipped or not, read by the package's strict readers as the command reads them; or
    anything ir_measures accepts: dicts, DataFrames, namedtuples): per query ``value``, ``lo``,
    ``hi``, ``exact`` and the means of them over every qrels query (a query the run lacks:
    lo = hi = value = DEFAULT). ``measures``: measure
    objects or strings, as everywhere in the package. A measure whose value does not depend on
    relevance (``unj@k``) gets lo = hi = value, exact (the command prints its cells empty).
    Raises :class:`BoundsError` for a measure without bounds (bpref, judged-only measures,
    measures without a bounds spec), with the message the command prints."""
    from ..data.ranking import rank_run
    from ..measures.catalogue import parse_measures
    from ..measures.table import check_qrels

    measures = parse_measures(measures)
    check_boundable(measures)
    if isinstance(qrels, (str, os.PathLike)):
        from ..data.datasets import qrels_columns

        qrels = qrels_columns(os.fspath(qrels))
    if isinstance(run, (str, os.PathLike)):
        from ..data.readers import read_run

        run = read_run(os.fspath(run))
    prepared = Qrels.from_any(qrels)
    check_qrels(measures, prepared)
    ranked = rank_run(run, prepared)
    ids = prepared.query_ids
    at = {int(p): i for i, p in enumerate(ranked.qpos.tolist())}  # qrels query -> ranked query
    out: Dict[Any, MeasureBounds] = {}
    for m in measures:
        value, lo, hi, exact = query_bounds(m, ranked, bound_plan(m, prepared))
        residual = rbp_residual(m, ranked, lo, hi) if is_rbp(m) else None
        per: Dict[str, QueryBounds] = {}
        default = float(m.DEFAULT)
        for k, qid in enumerate(ids):
            i = at.get(k)
            if i is None:
                res = 1.0 if residual is not None else None
                per[qid] = QueryBounds(qid, default, default, default, True, res)
            else:
                res = None if residual is None else float(residual[i])
                per[qid] = QueryBounds(qid, float(value[i]), float(lo[i]), float(hi[i]), bool(exact[i]), res)
        rows = list(per.values())
        n = max(len(rows), 1)
        out[m] = MeasureBounds(
            m,
            sum_in_order([r.value for r in rows]) / n,
            sum_in_order([r.lo for r in rows]) / n,
            sum_in_order([r.hi for r in rows]) / n,
            all(r.exact for r in rows),
            per,
            None if residual is None else sum_in_order([r.residual or 0.0 for r in rows]) / n,
        )
    return out
