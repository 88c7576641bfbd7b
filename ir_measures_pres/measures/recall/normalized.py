"""PRES and normalized recall (R_norm): measures and their numpy kernels.

Both compare the ranks of the relevant documents with the best and the worst possible
rankings. Kernels take the judged documents of the list the measure sees
(:class:`~ir_measures_pres.data.ranking.JudgedList`) and return one value per ranked query.
"""

from __future__ import annotations

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.qrels import Qrels
from ...data.ranking import JudgedList, RankedRun
from ..base import JUDGED_ONLY_PARAM, REL_PARAM, MeasureParameterError, PluginMeasure


class _PRES(PluginMeasure):
    """
    PRES, the Patent Retrieval Evaluation Score: normalized recall whose worst case puts all
    relevant documents just after the N_max documents a user is willing to check.

    With n relevant documents (qrels label >= rel), the k of them found in the top N_max at
    ranks r_1 < ... < r_k, and the m = n - k missing ones placed at ranks N_max + k + 1 ... N_max + n:

    .. math::

        PRES = 1 - \\frac{\\sum_{i=1}^{n} r_i / n - (n + 1)/2}{N_{max}}
             = 1 - \\frac{\\sum_{j=1}^{k} (r_j - j) + m N_{max}}{n N_{max}}

    ``@k`` sets N_max (default 1000, as the authors' PRESeval script). PRES lies in [0, 1]; with
    n > N_max a perfect run scores N_max / n, and ``estimate=True`` gives PRES_est =
    PRES / min(1, N_max / n). Queries without relevant documents score 0.

    Walid Magdy and Gareth J. F. Jones. PRES: A Score Metric for Evaluating Recall-Oriented
    Information Retrieval Applications. SIGIR 2010.

    .. cite.dblp:: conf/sigir/MagdyJ10
    """

    __name__ = "PRES"
    NAME = __name__
    PRETTY_NAME = "Patent Retrieval Evaluation Score"
    SHORT_DESC = "Recall-oriented score: normalized recall with a worst case just beyond N_max."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(
            dtype=int,
            required=False,
            default=1000,
            desc="N_max, the number of documents the user checks (default 1000)",
        ),
        "rel": REL_PARAM,
        "judged_only": JUDGED_ONLY_PARAM,
        "estimate": ParamInfo(
            dtype=bool, default=False, desc="rescale by min(1, N_max / n) (PRES_est, the paper's section 6.4)"
        ),
    }


PRES = _PRES()


def pres_kernel(
    judged: JudgedList, n_relevant: np.ndarray, rel: int, n_max: int, estimate: bool
) -> np.ndarray:
    """PRES per ranked query; ``judged`` holds the judged documents of the top ``n_max``
    (condensed first if asked) and ``n_relevant`` n per ranked query (from the qrels)."""
    is_rel = judged.label >= rel
    k = judged.sum(is_rel.astype(np.float64))
    rank_sum = judged.sum(np.where(is_rel, judged.rank, 0).astype(np.float64))
    n = n_relevant.astype(np.float64)
    m = n - k
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 1.0 - (rank_sum - k * (k + 1) / 2 + m * n_max) / (n * n_max)
        if estimate:
            value = value / np.minimum(1.0, n_max / n)
    return np.where(n > 0, value, 0.0)


class _RNorm(PluginMeasure):
    """
    R_norm, normalized recall: the area between the actual and the worst recall curves over the
    area between the best and the worst, over a ranking of the whole collection of N documents.

    With n relevant documents at ranks r_i (pessimistic mode: the m relevant documents not
    retrieved go to the very end, ranks N - m + 1 ... N):

    .. math::

        R_{norm} = 1 - \\frac{\\sum_i r_i - \\sum_{i=1}^{n} i}{n (N - n)}
                 = 1 - \\frac{\\sum_{j=1}^{k} (r_j - j) + m (N - n)}{n (N - n)}

    ``mode='bollmann'`` is the pairwise form for weak orders and graded relevance (= 1 - ndpm):
    over the pairs the user orders (grade(d) > grade(d')), S+ pairs the system orders the same way,
    S- the other way, ties half credit: R_norm = (1 + (S+ - S-) / S+_max) / 2, with the unretrieved
    documents one tied block below the run and unjudged documents of grade 0.

    ``collection_size`` (N) is required. ``@k`` evaluates the top k only. n = 0 scores 0; n = N
    scores 1. DEFAULT (query missing from the run) is 0 (pessimistic) or 0.5 (bollmann).

    J. J. Rocchio. Performance indices for document retrieval systems. 1964.
    C. J. van Rijsbergen. Information Retrieval, 2nd ed., 1979.
    P. Bollmann. The normalized recall and related measures. SIGIR 1983.
    """

    __name__ = "R_norm"
    NAME = __name__
    PRETTY_NAME = "Normalized Recall"
    SHORT_DESC = "Area between the actual and worst recall curves over the area between best and worst."
    SUPPORTED_PARAMS = {
        "collection_size": ParamInfo(
            dtype=int, required=True, desc="N, the number of documents in the collection"
        ),
        "cutoff": ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only"),
        "rel": REL_PARAM,
        "judged_only": JUDGED_ONLY_PARAM,
        "mode": ParamInfo(
            dtype=str,
            choices=["pessimistic", "bollmann"],
            default="pessimistic",
            desc="'pessimistic' (classical) or 'bollmann' (pairwise, graded)",
        ),
    }

    @property  # type: ignore[override]
    def DEFAULT(self) -> float:  # type: ignore[override]  # noqa: N802 - ir_measures' name
        return 0.5 if self["mode"] == "bollmann" else 0.0

    def _example(self, param: str) -> str:
        return "R_norm(collection_size=1000000)@1000"


R_norm = _RNorm()


def check_collection_size(
    judged: JudgedList, n_relevant: np.ndarray, collection_size: int, rel: int, qrels: Qrels, measure: str
) -> None:
    """N must hold the retrieved documents and the relevant ones that were not retrieved."""
    found = judged.sum((judged.label >= rel).astype(np.float64)).astype(np.int64)
    needed = judged.lengths + (n_relevant - found)
    if len(needed) and needed.max() > collection_size:
        i = int(np.argmax(needed))
        qid = qrels.query_ids[judged.qpos[i]]
        raise MeasureParameterError(
            f"{measure}: collection_size={collection_size} is too small for this run: query {qid!r} "
            f"has {int(judged.lengths[i])} retrieved documents and {int(n_relevant[i] - found[i])} "
            f"relevant ones not retrieved, so N must be at least {int(needed[i])}"
        )


def rnorm_pessimistic_kernel(
    judged: JudgedList, n_relevant: np.ndarray, rel: int, collection_size: int
) -> np.ndarray:
    """Classical R_norm, unretrieved relevant documents ranked last."""
    is_rel = judged.label >= rel
    k = judged.sum(is_rel.astype(np.float64))
    rank_sum = judged.sum(np.where(is_rel, judged.rank, 0).astype(np.float64))
    n = n_relevant.astype(np.float64)
    big_n = float(collection_size)
    m = n - k
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 1.0 - (rank_sum - k * (k + 1) / 2 + m * (big_n - n)) / (n * (big_n - n))
    value = np.where(n >= big_n, 1.0, value)
    return np.where(n > 0, value, 0.0)


def rnorm_bollmann_kernel(
    judged: JudgedList, grade_counts: np.ndarray, levels: np.ndarray, rel: int, collection_size: int
) -> np.ndarray:
    """Bollmann's pairwise R_norm.

    ``levels`` are the relevant grades (ascending, each >= rel) and ``grade_counts[i, j]`` the
    number of qrels documents of ranked query i with grade ``levels[j]``; every other document of
    the collection has grade 0. Pairs of unretrieved documents are tied; otherwise the system
    orders a pair (d, d') by rank, a retrieved document before any unretrieved one. Summing over
    the retrieved documents d, S+ - S- = sum of (worse documents below d) - (better ones below d).
    Only the k retrieved relevant documents need visiting: a retrieved grade-0 document at rank
    r has nothing worse, and the better ones below it are n - (relevant above r).
    """
    nq = judged.num_queries
    sub = judged.subset(judged.label >= rel)
    qidx = sub.qidx
    grade = sub.label
    n_rel = grade_counts.sum(axis=1).astype(np.float64)
    big_n = float(collection_size)
    length = judged.lengths.astype(np.float64)
    k = sub.sum(np.ones(len(grade)))
    c = sub.cumsum(np.ones(len(grade)))  # 1-based index among the retrieved relevant documents
    # grade-0 retrieved documents: each has n - (relevant above it) better documents below it;
    # summed, the relevant-above counts are, per relevant r, the grade-0 documents below r
    zeros_below_rel = sub.sum((length[qidx] - sub.rank) - (k[qidx] - c))
    s_zero = -((length - k) * n_rel - zeros_below_rel)
    # relevant retrieved documents of grade g
    col = np.searchsorted(levels, grade)
    counts = grade_counts.astype(np.float64)
    below_g = np.cumsum(counts, axis=1) - counts  # relevant docs of lower grade, per level
    above_g = counts.sum(axis=1, keepdims=True) - np.cumsum(counts, axis=1)
    worse_total = (big_n - n_rel)[qidx] + below_g[qidx, col]
    better_total = above_g[qidx, col]
    lower_above = np.zeros(len(grade))
    higher_above = np.zeros(len(grade))
    for level in levels.tolist():
        is_level = (grade == level).astype(np.float64)
        before = sub.cumsum(is_level) - is_level
        lower_above += np.where(level < grade, before, 0.0)
        higher_above += np.where(level > grade, before, 0.0)
    zeros_above = (sub.rank - 1) - (c - 1)
    worse_below = worse_total - (zeros_above + lower_above)
    better_below = better_total - higher_above
    diff = s_zero + sub.sum(worse_below - better_below)
    total = np.concatenate([(big_n - n_rel)[:, None], counts], axis=1)
    s_max = (total.sum(axis=1) ** 2 - (total**2).sum(axis=1)) / 2  # pairs of different grades
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 0.5 * (1.0 + diff / s_max)
    value = np.where(s_max > 0, value, np.where(n_rel >= big_n, 1.0, 0.0))
    return np.where(n_rel > 0, value, 0.0)[:nq]


# --------------------------------------------------------------------------------------------
# from a measure's parameters to its kernel (used through the registry's dispatch table)
# --------------------------------------------------------------------------------------------


def compute_pres(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    n = ranked.qrels_stat(ranked.qrels.count(lo=rel))
    n_max = measure["cutoff"]
    judged = ranked.judged_list(judged_only=measure["judged_only"], cutoff=n_max)
    return pres_kernel(judged, n, rel, n_max, measure["estimate"])


def _grade_counts(ranked: RankedRun, rel: int) -> "tuple[np.ndarray, np.ndarray]":
    qrels = ranked.qrels

    def make() -> "tuple[np.ndarray, np.ndarray]":
        levels = np.unique(qrels.labels[qrels.labels >= rel])
        counts = [qrels.count(lo=int(lv), hi=int(lv) + 1) for lv in levels]
        table = np.stack(counts, axis=1) if counts else np.zeros((len(qrels.query_ids), 0), np.int64)
        return levels, table

    levels, table = qrels.cached(("grade_counts", rel), make)
    return levels, table[ranked.qpos]


def compute_rnorm(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    size = measure["collection_size"]
    cutoff = measure.params.get("cutoff")
    judged = ranked.judged_list(judged_only=measure["judged_only"], cutoff=cutoff)
    n = ranked.qrels_stat(ranked.qrels.count(lo=rel))
    check_collection_size(judged, n, size, rel, ranked.qrels, str(measure))
    if measure["mode"] == "bollmann":
        levels, counts = _grade_counts(ranked, rel)
        return rnorm_bollmann_kernel(judged, counts, levels, rel, size)
    return rnorm_pessimistic_kernel(judged, n, rel, size)
