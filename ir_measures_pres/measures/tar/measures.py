"""The TAR measures registered with ir_measures: their classes and singletons (``WSS``,
``NumShown``, ``TarCost``, ...) and the ``compute_*`` kernels the catalogue dispatches to, one
value per ranked query, read from the screening lists (:mod:`.screening`) and the tools'
figures (:mod:`.tools`).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from ir_measures.measures.base import ParamInfo

from ..base import REL_PARAM, MeasureParameterError, PluginMeasure
from .screening import ScreeningLists, are_flags, codes_2017, flags_2018, from_ranked
from .tools import all_shown, recall_2018_kernel, seen_lines, tar2017, tar2018, wss_kernel

#: ``task``, the one parameter of every measure that reads N (the candidate-set size): which
#: candidate set the topic was screened from, as the tools' TASK argument names it. 2 (default):
#: the qrels' candidates (values 0, 1, 2), as the 2017 tool and the 2018 tool's Task 2 (also
#: 2019) count them; 1: the 2018 tool's Task 1 (retrieval from PubMed), N = 5000 minus the
#: topic's documents valued -1 or above 2. A task number rather than a size, because Task 1's N
#: is not a size the user picks but that rule of the tool (5000, less the documents outside the
#: Boolean result), and it is the number ``tar --task`` and the tool take.
TASK_PARAM = ParamInfo(
    dtype=int,
    choices=[1, 2],
    default=2,
    desc="candidate set N: 2 = qrels values 0-2 (2017 tool, 2018 Task 2); 1 = 2018 Task 1, "
    "N = 5000 - documents valued -1 or above 2",
)


# --------------------------------------------------------------------------------------------
# the measures (ir_measures registry)
# --------------------------------------------------------------------------------------------

_OVERVIEW_2017 = (
    "Evangelos Kanoulas, Dan Li, Leif Azzopardi and Rene Spijker. CLEF 2017 Technologically "
    "Assisted Reviews in Empirical Medicine Overview. CLEF 2017 Working Notes."
)
_TOOL = "Tool: github.com/CLEF-TAR/tar, scripts/tar_eval.py (2017), tar_eval_2018.py (2018, 2019)."


class _TarMeasure(PluginMeasure):
    """Shared behaviour: topics whose lines are the screening order (docs/tar.md).

    Every measure that reads N (the candidate-set size, directly or through N' = max(N, shown))
    takes the parameter ``task`` (:data:`TASK_PARAM`): 2 (default) counts N from the qrels as the
    2017 tool and the 2018 tool's Task 2 do, 1 is the 2018 tool's Task 1 (N = 5000 minus the
    documents valued -1 or above 2). The measures that do not read N (``NumShown``,
    ``NumFeedback``, ``TarUtility``) have no ``task``.
    """

    NAME: str


class _NumCandidates(_TarMeasure):
    """
    N, the size of the topic's candidate set:

    .. math::

        N = \\#\\{d : v(d) \\ne -1,\\ v(d) \\le 2\\} \\quad (task = 2), \\qquad
        N = 5000 - \\#\\{d : v(d) = -1 \\vee v(d) > 2\\} \\quad (task = 1)

    over the topic's qrels documents d with value v(d): with ``task=2`` (default) the documents
    whose value is neither -1 nor above 2 (values 3 and 4 mark relevant documents outside the
    Boolean result), as the 2017 tool and the 2018 tool's Task 2 count them; with ``task=1`` the
    2018 tool's Task 1 rule (the top 5000 of PubMed, less those documents).

    Tool line: ``num_docs`` (2017; ALL = sum); the N of every 2018 line (``tar_eval_2018.py 1``
    or ``2``), which prints no N line. Evangelos Kanoulas et al. CLEF 2017 Technologically
    Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NumCandidates"
    NAME = __name__
    PRETTY_NAME = "Candidate-set size (TAR)"
    SHORT_DESC = "Number of candidate documents of the topic (qrels values 0, 1, 2), CLEF TAR num_docs."
    SUPPORTED_PARAMS: Dict[str, ParamInfo] = {"task": TASK_PARAM}


class _NumFeedback(_TarMeasure):
    """
    The number of lines whose 2017 interaction code is exactly ``AF`` (feedback asked for the
    document); ``AFN``, ``AFS``, ``DFN``, ``DFS`` are not counted, as in the tool. Needs column
    2: read the run with ``read_run(path, order="file")``.

    Tool line: ``num_feedback`` (2017; ALL = sum). Evangelos Kanoulas et al. CLEF 2017
    Technologically Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NumFeedback"
    NAME = __name__
    PRETTY_NAME = "Feedback requests (TAR 2017)"
    SHORT_DESC = "Number of screened lines with interaction code AF (CLEF TAR 2017 num_feedback)."
    SUPPORTED_PARAMS: Dict[str, ParamInfo] = {}


class _NumShown(_TarMeasure):
    """
    The number of lines shown to the reviewer:

    .. math::

        n = \\#\\{\\text{lines} : code \\ne \\texttt{NS}\\}, \\qquad
        found = \\#\\{\\text{lines} : code \\ne \\texttt{NS},\\ rel \\le v \\le 2\\}

    ``NumShown`` is n: every line of the topic except those coded exactly ``NS`` ("not shown",
    2017 interaction codes; ``NFN`` counts as shown here, as in the tool), lines valued 3 or 4
    and repeated documents dropped as the tools drop them. ``NumShown(rel=k)`` is found, the
    shown lines whose qrels value v is from k to 2 (ir_measures' ``NumRet(rel=k)`` without the NS
    lines). A run without 2017 codes (a dict, a frame without ``iteration``, or 2018 flags)
    shows every line: then ``NumShown`` equals ir_measures' ``NumRet`` (for qrels without values
    3 and 4). ALL = sum, as ``NumRet``.

    Tool lines: ``num_shown`` (2017, 2018), ``rels_found`` (``rel=1``). Evangelos Kanoulas et
    al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NumShown"
    NAME = __name__
    PRETTY_NAME = "Lines shown (TAR)"
    SHORT_DESC = "Number of screened lines shown: all but those coded NS (CLEF TAR num_shown)."
    SUPPORTED_PARAMS = {
        "rel": ParamInfo(
            dtype=int,
            required=False,
            desc="count only shown lines valued rel..2 (rels_found), or every shown line if not given",
        ),
    }


class _LastRel(_TarMeasure):
    """
    The rank of the last relevant document screened (0 when none is):
    ``last_rel`` = k of the last relevant shown line; ``normalised=True`` divides by
    N' = max(N, shown): ``norm_last_rel`` = last_rel / N' (the 2018 tool; it prints it rounded
    to 3 places). Lower is better. Lines coded ``NS`` (2017) are not shown and take no rank.
    ``task=1`` takes Task 1's N (5000 minus the documents valued -1 or above 2) for N'; it
    changes nothing without ``normalised``.

    Tool lines: ``last_rel`` (2017, 2018), ``norm_last_rel`` (2018 Task 2; Task 1 with
    ``task=1``); ALL = mean.
    Evangelos Kanoulas et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2017.
    """

    __name__ = "LastRel"
    NAME = __name__
    PRETTY_NAME = "Last relevant rank (TAR)"
    SHORT_DESC = "Rank of the last relevant document screened (CLEF TAR last_rel, norm_last_rel)."
    SUPPORTED_PARAMS = {
        "rel": REL_PARAM,
        "normalised": ParamInfo(dtype=bool, default=False, desc="divide by N' = max(N, shown)"),
        "task": TASK_PARAM,
    }


class _WSS(_TarMeasure):
    """
    Work saved over sampling at a recall target r (``recall``, default 0.95):

    .. math::

        WSS@r = \\frac{N' - k_r}{N'} - (1 - r)

    where k_r is the rank of the t-th relevant document shown, t = round-half-even(r R)
    (``rule='clef'``, the CLEF tool: R = 30 gives t = 28) or ceil(r R) (``rule='cohen'``), and
    N' = max(N, shown). 0 when fewer than t relevant documents are shown. ``recall=1.0`` is the
    tool's ``wss_100`` (k_r = last_rel), ``recall=0.95`` its ``wss_95``; the tool subtracts 0.05
    whatever recall t relevant documents are (R = 2: t = 2). Can be negative. ``task=1``: N is
    the 2018 tool's Task 1 N (5000 minus the documents valued -1 or above 2).

    Tool lines: ``wss_100``, ``wss_95`` (2017, 2018 Task 2; 2018 Task 1 with ``task=1``);
    ALL = mean.
    Aaron M. Cohen, William R. Hersh, K. Peterson and Po-Yin Yen. Reducing Workload in Systematic
    Review Preparation Using Automated Citation Classification. JAMIA 13(2), 2006.
    """

    __name__ = "WSS"
    NAME = __name__
    PRETTY_NAME = "Work Saved over Sampling"
    SHORT_DESC = "Share of the candidate set not screened when recall r is reached, minus 1 - r."
    SUPPORTED_PARAMS = {
        "recall": ParamInfo(dtype=float, default=0.95, desc="recall target r, 0 < r <= 1"),
        "rel": REL_PARAM,
        "rule": ParamInfo(
            dtype=str,
            choices=["clef", "cohen"],
            default="clef",
            desc="relevant documents needed: 'clef' round-half-even(rR), 'cohen' ceil(rR)",
        ),
        "task": TASK_PARAM,
    }

    def _check_combination(self) -> None:
        r = self.params.get("recall", 0.95)
        if not 0 < r <= 1:
            raise MeasureParameterError(f"WSS: parameter 'recall' must be in (0, 1], got {r!r}")


class _RecallPct(_TarMeasure):
    """
    Recall after screening p % of the candidate set (``pct``), with the position rule of a
    CLEF tool:

    * ``positions='2018'`` (tar_eval_2018 ``recall@p%``): the cumulative gain at line
      round-half-even(N p / 100); when the run is shorter, at the largest such position it
      reaches; 0 while the position is 0 (N < 50);
    * ``positions='2017'`` (tar_eval ``NCG@p``, p a multiple of 10): with t = N // 10 (t = 1
      when N < 10, where the tool crashes), the gain at the last line i that is a multiple of t
      with int(10 i / N) <= p / 10 - 1, else 0. So ``NCG@10`` is recall at 0 % when 10 divides
      N, and ``NCG@100`` is recall before the last decile, not final recall.

    value = cg / R (lines coded NS count as positions but not as gain). ALL in the tool is micro
    (sum cg / sum R); through ir_measures it is the mean of the per-topic values. ``task=1``
    takes the positions as fractions of Task 1's N (5000 minus the documents valued -1 or above
    2); the 2018 tool prints no ``recall@p%`` line for Task 1 (its ``recall@k`` lines are
    ir_measures' ``R@k``).

    Tool lines: ``NCG@10`` ... ``NCG@100`` (2017), ``recall@1.0%`` ... ``recall@100.0%`` (2018).
    Evangelos Kanoulas et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2017.
    """

    __name__ = "RecallPct"
    NAME = __name__
    PRETTY_NAME = "Recall at p % screened (TAR)"
    SHORT_DESC = "Recall after screening p % of the candidate set (CLEF TAR NCG@p / recall@p%)."
    SUPPORTED_PARAMS = {
        "pct": ParamInfo(dtype=int, default=10, desc="p, the percentage of the candidate set screened"),
        "positions": ParamInfo(
            dtype=str, choices=["2018", "2017"], default="2018", desc="position rule of the 2018 or 2017 tool"
        ),
        "rel": REL_PARAM,
        "task": TASK_PARAM,
    }

    def _check_combination(self) -> None:
        p = self.params.get("pct", 10)
        if self.params.get("positions", "2018") == "2017":
            if p not in range(10, 101, 10):
                raise MeasureParameterError(
                    f"RecallPct: positions='2017' takes pct 10, 20, ..., 100, got {p!r}"
                )
        elif not 1 <= p <= 100:
            raise MeasureParameterError(f"RecallPct: parameter 'pct' must be from 1 to 100, got {p!r}")


class _NormArea(_TarMeasure):
    """
    Normalised area under the cumulative-gain curve of the screening, the documents never shown
    counted at the final gain:

    .. math::

        A = \\sum_{shown} (cg_{before} + rel/2) + (N - n)\\,found, \\quad
        norm\\_area = A / (R N' - R^2 / 2)

    with n lines shown, N' = max(N, n). The tool rounds it to 3 places per topic before its mean.
    ``task=1``: N is the 2018 tool's Task 1 N (5000 minus the documents valued -1 or above 2).

    Tool line: ``norm_area`` (2017, 2018 Task 2; 2018 Task 1 with ``task=1``). Evangelos Kanoulas
    et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine Overview. CLEF 2017.
    """

    __name__ = "NormArea"
    NAME = __name__
    PRETTY_NAME = "Normalised cumulative-gain area (TAR)"
    SHORT_DESC = "Area under the screening's gain curve over the ideal area (CLEF TAR norm_area)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "task": TASK_PARAM}


class _TarLoss(_TarMeasure):
    """
    Cormack and Grossman's losses for a review that stops after n shown lines:

    .. math::

        loss_r = (1 - found/R)^2, \\quad
        loss_e = (b / N')^2 (n / (R + b))^2, \\quad loss_{er} = loss_r + loss_e

    ``part`` picks ``'er'`` (default), ``'e'`` or ``'r'``; b = 100 (``b``); N' = max(N, n).
    With ``threshold=True`` (2018 tool) only the lines up to the first flagged one count as shown
    (needs the flags of column 2). Lower is better. ``task=1`` takes Task 1's N (5000 minus the
    documents valued -1 or above 2) for N' (only loss_e reads it); the 2018 tool prints no loss
    line for Task 1.

    Tool lines: ``loss_e``, ``loss_r``, ``loss_er`` (2017, 2018); ALL = mean.
    Gordon V. Cormack and Maura R. Grossman. Engineering Quality and Reliability in
    Technology-Assisted Review. SIGIR 2016.
    """

    __name__ = "TarLoss"
    NAME = __name__
    PRETTY_NAME = "Recall/effort loss (TAR)"
    SHORT_DESC = "Cormack & Grossman's loss: squared missed recall plus scaled squared effort."
    SUPPORTED_PARAMS = {
        "part": ParamInfo(
            dtype=str, choices=["er", "e", "r"], default="er", desc="loss_er, loss_e or loss_r"
        ),
        "b": ParamInfo(dtype=float, default=100.0, desc="the effort constant b (100 in the tools)"),
        "rel": REL_PARAM,
        "threshold": ParamInfo(
            dtype=bool, default=False, desc="shown = lines up to the first flagged one (2018; needs flags)"
        ),
        "task": TASK_PARAM,
    }


class _TarCost(_TarMeasure):
    """
    The 2017 tool's cost of a screening with interaction codes (column 2):

    .. math::

        TC = \\sum_{shown} (C_a + C_f [AF]), \\quad
        TCU = TC + C_p N_u M_r / R, \\quad
        TCW = TC + \\sum_{i=1}^{M_r - 1} C_p N_u / 2^i

    with the codes mapped as the tool maps them (AFN, DFN, DFS -> AF; NFS -> NF; NFN -> NS;
    AFS and Q0 are plain shown documents), N_u = N - shown, M_r = R - relevant shown.
    ``penalty`` picks ``'none'`` (TC), ``'uniform'`` (TCU) or ``'weighted'`` (TCW; one missed
    document costs nothing, as in the code, not the paper). C_a = 1, C_f = 2, C_p = 2 by default.
    Needs column 2 (``read_run(path, order="file")``). Lower is better. ``task=1`` takes the
    2018 tool's Task 1 N (5000 minus the documents valued -1 or above 2) for N_u, a combination
    no tool printed (the 2017 tool has no tasks).

    Tool lines: ``total_cost``, ``total_cost_uniform``, ``total_cost_weighted`` (2017).
    Evangelos Kanoulas et al. CLEF 2017 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2017.
    """

    __name__ = "TarCost"
    NAME = __name__
    PRETTY_NAME = "Screening cost (TAR 2017)"
    SHORT_DESC = "CLEF TAR 2017 cost: assessments, feedback and a penalty for missed relevant documents."
    SUPPORTED_PARAMS = {
        "penalty": ParamInfo(
            dtype=str,
            choices=["none", "uniform", "weighted"],
            default="none",
            desc="penalty for missed documents",
        ),
        "ca": ParamInfo(dtype=float, default=1.0, desc="cost of assessing a shown document"),
        "cf": ParamInfo(dtype=float, default=2.0, desc="extra cost of a feedback request (AF)"),
        "cp": ParamInfo(dtype=float, default=2.0, desc="penalty cost per document not shown"),
        "rel": REL_PARAM,
        "task": TASK_PARAM,
    }


class _Threshold(_TarMeasure):
    """
    Where a 2018/2019 run stops (column 2 flags, 1 = threshold):

    * ``flag='last'``: T, the line of the *last* flagged line (N when none, even for a shorter
      run): the tool's ``threshold``; ``normalised=True`` gives T / N' (``norm_threshold``);
    * ``flag='first'``: the lines up to and including the *first* flagged one (all lines when
      none): the lines the tool counts as seen (Task 1's ``recall_threshold``).

    Needs column 2 (``read_run(path, order="file")``). ``task=1`` takes the Task 1 N (5000 minus
    the documents valued -1 or above 2) for T without a flag and for N'.

    Tool lines: ``threshold``, ``norm_threshold`` (2018 Task 2; Task 1 with ``task=1``),
    ``recall_threshold`` (Task 1; ``flag='first'``).
    Evangelos Kanoulas, Dan Li, Leif Azzopardi and Rene Spijker. CLEF 2018 Technologically
    Assisted Reviews in Empirical Medicine Overview. CLEF 2018.
    """

    __name__ = "Threshold"
    NAME = __name__
    PRETTY_NAME = "Stopping threshold (TAR 2018)"
    SHORT_DESC = "Line where a TAR run stops screening (CLEF TAR 2018 threshold flags)."
    SUPPORTED_PARAMS = {
        "flag": ParamInfo(
            dtype=str, choices=["last", "first"], default="last", desc="last or first flagged line"
        ),
        "normalised": ParamInfo(dtype=bool, default=False, desc="divide by N' = max(N, lines)"),
        "task": TASK_PARAM,
    }


class _RecallAtThreshold(_TarMeasure):
    """
    Recall at the stopping threshold of a 2018/2019 run: cg(T) / R with T the last flagged line
    (``flag='last'``; the tool's ``recall_threshold``; cg of all lines when T = N) or the lines
    up to the first flagged one (``flag='first'``: the tool's ``r`` of Task 2 and
    ``recall_at_threshold`` of Task 1). With two flags the two differ. Needs column 2.
    ``flag='last'`` reads N as the tool does (a last flag on line N counts as no flag: cg of all
    lines); ``task=1`` takes Task 1's N there (5000 minus the documents valued -1 or above 2).

    Tool lines: ``recall_threshold``, ``r`` (2018 Task 2), ``recall_at_threshold`` (Task 1).
    Evangelos Kanoulas et al. CLEF 2018 Technologically Assisted Reviews in Empirical Medicine
    Overview. CLEF 2018.
    """

    __name__ = "RecallAtThreshold"
    NAME = __name__
    PRETTY_NAME = "Recall at the threshold (TAR 2018)"
    SHORT_DESC = "Recall of the lines up to a TAR run's stopping flag (CLEF TAR 2018)."
    SUPPORTED_PARAMS = {
        "flag": ParamInfo(
            dtype=str, choices=["last", "first"], default="last", desc="last or first flagged line"
        ),
        "rel": REL_PARAM,
        "task": TASK_PARAM,
    }


class _TarUtility(_TarMeasure):
    """
    The 2018 tool's ``total_cost``, a utility over the seen lines (up to the first flag):

    .. math::

        cost = \\sum_{seen} (1 - 20 [rel]) + \\sum_{unseen} 20 [rel] + 20 (R - found_{seen})

    so a relevant document after the threshold costs 40 and one never retrieved 20. Lower is
    better. Needs column 2 (flags).

    Tool line: ``total_cost`` (2018, 2019). Evangelos Kanoulas et al. CLEF 2018 Technologically
    Assisted Reviews in Empirical Medicine Overview. CLEF 2018.
    """

    __name__ = "TarUtility"
    NAME = __name__
    PRETTY_NAME = "Utility cost (TAR 2018)"
    SHORT_DESC = "CLEF TAR 2018 cost: 1 per document seen, -19 per relevant seen, 20 per relevant missed."
    SUPPORTED_PARAMS = {"rel": REL_PARAM}


NumCandidates = _NumCandidates()
Threshold = _Threshold()
RecallAtThreshold = _RecallAtThreshold()
TarUtility = _TarUtility()
NumFeedback = _NumFeedback()
NumShown = _NumShown()
LastRel = _LastRel()
WSS = _WSS()
RecallPct = _RecallPct()
NormArea = _NormArea()
TarLoss = _TarLoss()
TarCost = _TarCost()


# --------------------------------------------------------------------------------------------
# adapters (catalogue dispatch): one value per ranked query
# --------------------------------------------------------------------------------------------


def _codes_or_all_shown(lists: ScreeningLists, what: str) -> Optional[Dict[str, np.ndarray]]:
    """The 2017 codes when the run brought them in column 2, else None (every line shown: a
    ranking, or a 2018 run whose column 2 holds threshold flags)."""
    if lists.column2 is None or are_flags(lists.column2):
        return None
    return codes_2017(lists, what)


def _lists(measure: PluginMeasure, ranked: Any) -> ScreeningLists:
    """The screening lists ``measure`` reads: its ``rel`` (1 when it has none) and its ``task``
    (the candidate set N, :data:`TASK_PARAM`; 2 for the measures that do not read N)."""
    return from_ranked(ranked, rel=measure.params.get("rel", 1), task=measure.params.get("task", 2))


def _figures_2017(measure: PluginMeasure, ranked: Any, need_codes: bool = False, **kw: Any) -> Dict[str, Any]:
    rel = measure.params.get("rel", 1)
    task = measure.params.get("task", 2)
    lists = _lists(measure, ranked)
    codes = codes_2017(lists, str(measure)) if need_codes else _codes_or_all_shown(lists, str(measure))
    key = ("tar2017", rel, task, tuple(sorted(kw.items())), need_codes or lists.column2 is not None)
    return ranked.cached(key, lambda: tar2017(lists, rel=rel, codes=codes, **kw))  # type: ignore[no-any-return]


def _zero_without_relevant(values: np.ndarray, ranked: Any, rel: int) -> np.ndarray:
    n_rel = from_ranked(ranked, rel=rel).n_rel
    return np.where(n_rel > 0, values, 0.0).astype(np.float64)


def compute_num_candidates(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _lists(measure, ranked).n_docs.astype(np.float64)


def compute_num_feedback(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _figures_2017(measure, ranked, need_codes=True)["num_feedback"].astype(np.float64)


def compute_num_shown(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    """``num_shown`` of the 2017 kernel (the codes when the run has them), or its
    ``rels_found`` when ``rel`` is given."""
    f = _figures_2017(measure, ranked)
    return f["num_shown" if measure.params.get("rel") is None else "rels_found"].astype(np.float64)


def compute_last_rel(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2017(measure, ranked)
    last = f["last_rel"].astype(np.float64)
    if measure["normalised"]:
        n_prime = np.maximum(f["num_docs"], f["num_shown"]).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            last = np.where(n_prime > 0, last / n_prime, 0.0)
    return last


def compute_wss(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    rel = measure["rel"]
    lists = _lists(measure, ranked)
    codes = _codes_or_all_shown(lists, str(measure))
    return wss_kernel(
        lists, measure["recall"], rel, measure["rule"], None if codes is None else codes["shown"]
    )


def compute_recall_pct(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    rel = measure["rel"]
    lists = _lists(measure, ranked)
    n_rel = lists.n_rel.astype(np.float64)
    if measure["positions"] == "2017":
        cg = _figures_2017(measure, ranked)["cgat"][:, measure["pct"] // 10 - 1]
    else:
        cg = recall_2018_kernel(lists, np.array([measure["pct"]]), rel)[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n_rel > 0, cg / n_rel, 0.0)


def compute_norm_area(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _zero_without_relevant(_figures_2017(measure, ranked)["norm_area"], ranked, measure["rel"])


def compute_tar_loss(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    rel, b = measure["rel"], measure["b"]
    if measure["threshold"]:
        lists = _lists(measure, ranked)
        seen = seen_lines(lists, flags_2018(lists, str(measure)))
        f = tar2017(lists, rel=rel, b=b, codes=all_shown(seen))
    else:
        f = _figures_2017(measure, ranked, b=b)
    return (
        _zero_without_relevant(f["loss_" + measure["part"]], ranked, rel)
        if measure["part"] != "e"
        else f["loss_e"]
    )


def compute_tar_cost(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2017(measure, ranked, need_codes=True, ca=measure["ca"], cf=measure["cf"], cp=measure["cp"])
    name = {"none": "total_cost", "uniform": "total_cost_uniform", "weighted": "total_cost_weighted"}
    return f[name[measure["penalty"]]].astype(np.float64)


def _figures_2018(measure: PluginMeasure, ranked: Any) -> Dict[str, Any]:
    rel = measure.params.get("rel", 1)
    task = measure.params.get("task", 2)
    lists = _lists(measure, ranked)
    key = ("tar2018", rel, task)
    return ranked.cached(  # type: ignore[no-any-return]
        key, lambda: tar2018(lists, flags_2018(lists, str(measure)), rel=rel)
    )


def compute_threshold(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2018(measure, ranked)
    value = (f["threshold"] if measure["flag"] == "last" else f["num_seen"]).astype(np.float64)
    if measure["normalised"]:
        n_prime = np.maximum(f["num_docs"], f["num_shown"]).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(n_prime > 0, value / n_prime, 0.0)
    return value


def compute_recall_at_threshold(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    f = _figures_2018(measure, ranked)
    value = f["recall_threshold"] if measure["flag"] == "last" else f["r_seen"]
    return np.where(f["num_rels"] > 0, value, 0.0).astype(np.float64)


def compute_tar_utility(measure: PluginMeasure, ranked: Any) -> np.ndarray:
    return _figures_2018(measure, ranked)["total_cost_2018"].astype(np.float64)
