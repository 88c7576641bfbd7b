"""trec_eval 10's judgement-aware measures: ``unj``, ``rbp``, ``rbp_resid`` and ``yaap``.

trec_eval 10 (NIST's current release) computes four measures that pytrec_eval's bundled trec_eval 9
lacks. They are given here under trec_eval's own names, with trec_eval's rules, as its source
files define them (``m_unj.c``, ``m_rbp.c``, ``m_rbp_resid.c``, ``m_yaap.c``):

* ``unj@k`` (trec_eval ``unj_k``, ``-m unj.5,10``; bare ``unj``: trec_eval's cutoffs 5, 10, 20):
  the fraction of the top k that is unjudged;
* ``rbp(p=0.9)`` (``rbp``, ``rbp_p=0.5``, ``-m rbp.p=0.5``): Moffat and Zobel's rank-biased
  precision with the qrels' levels as gains, scaled to [0, 1];
* ``rbp_resid(p=0.9)`` (``rbp_resid``, ``rbp_resid_p=0.5``): the most that RBP could still rise
  if the unjudged documents of the list were relevant;
* ``yaap`` (``yaap``): Robertson's smoothed average precision, ``log((1 + s) / (1 + R - s))``.

Over the list of :mod:`..data.ranking` (the package's one ranking rule, trec_eval's as pytrec_eval
runs it: score descending, scores compared in single precision (float32), so that two scores equal
in float32 tie; ties by document id descending), a document is *unjudged* when the qrels do not
mention it or give it a negative value (trec_eval's ``RELVALUE_NONPOOL`` and ``-1``, "in the pool
but not judged", as in sampled qrels). Every kernel takes the judged documents only
(:class:`~..data.ranking.JudgedList`), so the unjudged ones only take ranks. A qrels query that a
run lacks scores the measures' DEFAULT, 0. trec_eval ``-c`` scores such a query on a ranking of
one unjudged document and then resets ``unj`` and the unparameterised ``rbp_resid``: 0 for
``unj``, ``rbp`` and ``rbp_resid``, but ``rbp_resid.p=...`` keeps that ranking's value and
``yaap`` is log(1 / (1 + R)) (docs/trec_eval.md).

The contract is ``../shared/spec/judgements.md`` section 2; docs/judgements.md has the formulas,
the names and a worked example.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.qrels import Qrels
from ...data.ranking import JudgedList, RankedRun
from ..base import REL_PARAM, MeasureParameterError, PluginMeasure
from ..standard.kernels import relevant_precision_sum

__all__ = [
    "UNJ_CUTOFFS",
    "rbp",
    "rbp_kernel",
    "rbp_resid",
    "rbp_resid_kernel",
    "top_level",
    "unj",
    "unj_kernel",
    "yaap",
    "yaap_kernel",
    "yaap_of_sum",
    "compute_rbp",
    "compute_rbp_resid",
    "compute_unj",
    "compute_yaap",
]

#: trec_eval's cutoffs of a bare ``unj`` (m_unj.c's ``long_cutoff_array``)
UNJ_CUTOFFS = (5, 10, 20)

_P = ParamInfo(dtype=float, default=0.9, desc="persistence p in (0, 1] (trec_eval's default 0.9)")

_MZ_CITE = """
    Alistair Moffat and Justin Zobel. Rank-biased precision for measurement of retrieval
    effectiveness. ACM TOIS 27(1), article 2, 2008.
"""


class _Persistent(PluginMeasure):
    """A measure with RBP's persistence ``p``, which must lie in (0, 1]."""

    def _check_one(self, param: str, value: Any, info: ParamInfo) -> None:
        super()._check_one(param, value, info)
        if param == "p" and not 0 < value <= 1:
            raise MeasureParameterError(f"{self.__name__}: parameter 'p' must be in (0, 1], got {value!r}")


class _Unj(PluginMeasure):
    """
    Unjudged at k (trec_eval 10 ``unj_k``): the fraction of the top k documents that are
    unjudged (not in the qrels, or with a negative qrels value),

    .. math::

        unj@k = \\frac{|\\{i \\le \\min(k, n) : d_i \\text{ unjudged}\\}|}{k}

    with n the length of the list: a list shorter than k counts its missing ranks as judged, the
    denominator stays k (trec_eval's rule). A "red flag" measure: a high value at small k says the
    run is poorly covered by the judgements (lower is better). trec_eval's ``-m unj`` without
    cutoffs prints k = 5, 10, 20; so does a bare ``unj`` here.

    Ian Soboroff. trec_eval 10, ``m_unj.c``. NIST, 2023 (https://github.com/usnistgov/trec_eval).
    """

    __name__ = "unj"
    NAME = __name__
    PRETTY_NAME = "Unjudged at k"
    SHORT_DESC = "Fraction of the top k documents that are unjudged (trec_eval 10's unj, Soboroff)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=True, desc="rank k (trec_eval's cutoffs: 5, 10, 20)"),
    }

    def _example(self, param: str) -> str:
        return "unj@10"


class _Rbp(_Persistent):
    __doc__ = (
        """
    Rank-biased precision as trec_eval 10 computes it (``rbp``, ``rbp_p=0.5``):

    .. math::

        RBP = (1 - p) \\sum_{i=1}^{n} g(d_i)\\, p^{i-1}, \\qquad
        g(d) = \\frac{\\ell(d)}{\\max(L, 1)}

    over the whole list (no cutoff), with ℓ(d) the qrels level of a judged document (0 for an
    unjudged one) and L the topic's highest judged level: trec_eval's gains are the levels
    0 .. L, scaled by (g - min) / (max - min) when one lies outside [0, 1] (m_rbp.c), and since
    level 0 is always among them, min = 0 and max = L. Binary qrels are therefore Moffat and
    Zobel's RBP; graded qrels give the top level gain 1 (per topic: a topic whose qrels stop at
    level 1 keeps gain 1 for level 1). Not ir_measures' ``RBP`` (another provider, with
    ``rel`` and a cutoff) nor NTCIREVAL's ``NTCIR_RBP`` (gains over the largest gain of the
    qrels file). trec_eval 10.0-rc3's m_rbp.c leaves min and max uninitialised: its printed
    ``rbp`` can follow whatever the register held (docs/judgements.md shows a case: when ``yaap``
    is computed in the same call, max = max(L, s) with yaap's s); the rule above is the one
    the code states.
    """
        + _MZ_CITE
    )

    __name__ = "rbp"
    NAME = __name__
    PRETTY_NAME = "Rank-biased precision (trec_eval 10)"
    SHORT_DESC = "Rank-biased precision with gains scaled to [0, 1], trec_eval 10's rbp (Moffat & Zobel)."
    SUPPORTED_PARAMS = {"p": _P}


class _RbpResid(_Persistent):
    __doc__ = (
        """
    The residual of rank-biased precision as trec_eval 10 computes it (``rbp_resid``): the most
    RBP could rise if every unjudged document of the list had gain 1,

    .. math::

        rbp\\_resid = p^n + (1 - p) \\sum_{i \\le n:\\ d_i \\text{ unjudged}} p^{i-1}
                   = 1 - (1 - p) \\sum_{i \\le n:\\ d_i \\text{ judged}} p^{i-1}

    when at least one of the n retrieved documents is unjudged, and **0 when every one is
    judged** (m_rbp_resid.c). Moffat and Zobel's residual keeps the p^n of the ranks beyond the
    list in both cases (the unseen tail): trec_eval drops it when nothing retrieved is unjudged.
    The second form (the geometric series over all n ranks minus the judged ones) visits the
    judged documents only. Lower is better: less of the run's RBP rests on documents nobody
    judged.
    """
        + _MZ_CITE
    )

    __name__ = "rbp_resid"
    NAME = __name__
    PRETTY_NAME = "Residual of rank-biased precision (trec_eval 10)"
    SHORT_DESC = "What RBP could gain from unjudged documents, trec_eval 10's rbp_resid (Moffat & Zobel)."
    SUPPORTED_PARAMS = {"p": _P}


class _Yaap(PluginMeasure):
    """
    Yet another average precision (trec_eval ``yaap``), Robertson's smoothed AP on a log-odds
    scale, which averages over topics better than AP does:

    .. math::

        yaap = \\log \\frac{1 + s}{1 + R - s}, \\qquad
        s = \\sum_{\\text{relevant } d \\text{ in the list}} \\frac{count(r_d)}{r_d}

    with r_d the rank of d, count(r) the relevant documents (level >= ``rel``) in the top r, R
    the relevant documents of the qrels (so s / R is AP), and the natural log. It is monotone in
    AP on one topic; no relevant document retrieved gives log(1 / (1 + R)), a topic without
    relevant documents 0. Values are negative for AP below one half.

    Stephen Robertson. On smoothing average precision. ECIR 2012, LNCS 7224, pp. 158-169.
    """

    __name__ = "yaap"
    NAME = __name__
    PRETTY_NAME = "Yet another average precision"
    SHORT_DESC = "Smoothed average precision log((1 + s) / (1 + R - s)), trec_eval's yaap (Robertson)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM}


unj = _Unj()
rbp = _Rbp()
rbp_resid = _RbpResid()
yaap = _Yaap()


# --------------------------------------------------------------------------------------------
# kernels: the judged documents of the ranked lists in, one value per ranked query out
# --------------------------------------------------------------------------------------------


def unj_kernel(judged_at_k: JudgedList, lengths: np.ndarray, cutoff: int) -> np.ndarray:
    """Unjudged at k: (min(n, k) - judged in the top k) / k per query. ``judged_at_k`` holds the
    judged documents of ranks <= k, ``lengths`` the whole lists' lengths n."""
    judged = np.diff(judged_at_k.offsets)
    return (np.minimum(lengths, cutoff) - judged) / float(cutoff)


def rbp_kernel(judged: JudgedList, top: np.ndarray, p: float) -> np.ndarray:
    """RBP = (1 - p) Σ g p^(rank - 1) over the judged documents, g = level / max(top, 1), with
    ``top`` the highest judged level of each ranked query's qrels (:func:`top_level`)."""
    scale = np.maximum(top, 1).astype(np.float64)
    gain = np.maximum(judged.label, 0) / scale[judged.qidx]
    return (1.0 - p) * judged.sum(gain * np.power(p, judged.rank - 1.0))


def rbp_resid_kernel(judged: JudgedList, p: float) -> np.ndarray:
    """trec_eval's residual: 1 - (1 - p) Σ_judged p^(rank - 1) where some of the list is
    unjudged (= p^n + (1 - p) Σ_unjudged p^(rank - 1)), else 0."""
    any_unjudged = np.diff(judged.offsets) < judged.lengths
    residual = 1.0 - (1.0 - p) * judged.sum(np.power(p, judged.rank - 1.0))
    return np.where(any_unjudged, residual, 0.0)


def yaap_kernel(judged: JudgedList, n_relevant: np.ndarray, rel: int) -> np.ndarray:
    """log((1 + s) / (1 + R - s)), s the sum of the precisions at the relevant documents
    retrieved (AP's numerator), R the relevant documents of the qrels."""
    return yaap_of_sum(relevant_precision_sum(judged, rel), n_relevant)


def yaap_of_sum(s: np.ndarray, n_relevant: np.ndarray) -> np.ndarray:
    """yaap from s, the sum of the precisions at the relevant documents retrieved, and R."""
    return np.log((1.0 + s) / (1.0 + n_relevant - s))


def top_level(qrels: Qrels) -> np.ndarray:
    """Per qrels query, its highest judged level (values < 0 are not judgements; -1 when the
    query has none). Cached on the qrels."""

    def make() -> np.ndarray:
        out = np.full(len(qrels.query_ids), -1, dtype=np.int64)
        judged = qrels.labels >= 0
        np.maximum.at(out, qrels.qidx[judged], qrels.labels[judged])
        return out

    return qrels.cached("top_level", make)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# adapters (the catalogue's compute functions)
# --------------------------------------------------------------------------------------------


def compute_unj(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    cutoff = measure["cutoff"]
    return unj_kernel(ranked.judged_list(cutoff=cutoff), ranked.lengths, cutoff)


def compute_rbp(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    top = ranked.qrels_stat(top_level(ranked.qrels))
    return rbp_kernel(ranked.judged_list(), top, float(measure["p"]))


def compute_rbp_resid(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return rbp_resid_kernel(ranked.judged_list(), float(measure["p"]))


def compute_yaap(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    n_relevant = ranked.qrels_stat(ranked.qrels.count(lo=rel)).astype(np.float64)
    return yaap_kernel(ranked.judged_list(), n_relevant, rel)
