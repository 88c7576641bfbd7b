"""trec_eval 10.0's measure table: order, names, parameters, nicknames, averages, descriptions.

trec_eval computes and prints the measures in the order of its table (``measures.c``), whatever
the order of the ``-m`` options; :data:`MEASURES` is that table. Each entry says

* how ``-m NAME.PARAMS`` reads its parameters (:data:`NONE`, :data:`LONG_CUTOFFS` such as
  ``P.5,10`` (integers, sorted, printed ``P_5``), :data:`DOUBLE_CUTOFFS` such as
  ``iprec_at_recall..1,.2`` (sorted, printed ``%3.2f``), :data:`DOUBLE_PARAMS` such as
  ``utility.2,-1,0,0`` (in the given order, the measure named ``utility_2,-1,0,0``),
  :data:`PAIRS` such as ``ndcg.1=3,2=9`` (``level=gain``)), and its defaults;
* how the summary line is made (:data:`MEAN`, :data:`SUM` of per-query counts, :data:`GEOMETRIC`
  mean with trec_eval's floor, the run id, the query count) and whether it is an integer;
* its description in our words (``-h -m NAME``) and its citation.

Each entry also says which ``-R`` format it reads (``qrels``; ``prefs``, for ``-R prefs`` and
``-R qrels_prefs``; ``qrels_jg``); asking for a measure the format cannot give is trec_eval's
"Can't calculate measure".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ...data.perl import DECIMAL
from ...runtime.pickling import MESSAGE, PicklesByParts
from ..base import gm_log
from . import kernels as k
from .lists import ToolLists

NONE, LONG_CUTOFFS, DOUBLE_CUTOFFS, DOUBLE_PARAMS, PAIRS = "none", "long", "double", "params", "pairs"
MEAN, SUM, GEOMETRIC, RUNID, NUM_Q, STRING = "mean", "sum", "gm", "runid", "num_q", "string"

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_BUCKLEY = (
    "Chris Buckley and Ellen Voorhees. Retrieval System Evaluation. In TREC: Experiment and "
    "Evaluation in Information Retrieval, MIT Press, 2005."
)
_JK = (
    "Kalervo Järvelin and Jaana Kekäläinen. Cumulated gain-based evaluation of IR techniques. "
    "ACM TOIS 20(4), 2002."
)
_GAINS = "Gains are the levels unless given as LEVEL=GAIN parameters (0 and negative gains allowed)."
_MZ = (
    "Alistair Moffat and Justin Zobel. Rank-biased precision for measurement of retrieval "
    "effectiveness. ACM TOIS 27(1), 2008."
)


class MeasureSpecError(PicklesByParts, ValueError):
    """A ``-m`` argument trec_eval would refuse, with trec_eval's exit status: 1 for an unknown
    measure or a malformed argument (its ``mark_measure``), 2 for parameter values it cannot
    initialise the measure with (``Cannot initialize measure``)."""

    PARTS: Tuple[str, ...] = (MESSAGE, "status")

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class FormatMismatch(MeasureSpecError):
    """A measure the ``-R`` format cannot give (trec_eval: "Can't calculate measure", exit 4)."""

    PARTS = (MESSAGE,)

    def __init__(self, message: str) -> None:
        super().__init__(message, 4)


@dataclass(frozen=True)
class ToolMeasure:
    name: str
    form: str
    default: Any
    compute: Callable[..., Any]
    summary: str = MEAN
    integer: bool = False
    about: str = ""
    #: the -R format the measure reads: "qrels", "qrels_jg", or "any" (runid, num_q)
    rel_format: str = "qrels"


@dataclass(frozen=True)
class Selected:
    """A measure to compute with its parameters: ``values`` (numbers, or ``(name, value)`` pairs)
    and ``given`` (the parameter text of the command line, or None for the defaults)."""

    measure: ToolMeasure
    values: Any
    given: Optional[str]

    def value_names(self) -> List[str]:
        m = self.measure
        if m.form == LONG_CUTOFFS:
            return [f"{m.name}_{int(c)}" for c in self.values]
        if m.form == DOUBLE_CUTOFFS:
            return [f"{m.name}_{float(c):3.2f}" for c in self.values]
        if self.given is not None and m.form in (DOUBLE_PARAMS, PAIRS):
            return [f"{m.name}_{self.given}"]
        return [m.name]


def _gains(pairs: Sequence[Tuple[str, float]]) -> Dict[int, float]:
    """LEVEL=GAIN pairs as gain_init.c reads them: a LEVEL that is not an integer (its
    ``valid_int``: a sign, then digits only) is ignored; a level given twice keeps its first gain."""
    out: Dict[int, float] = {}
    for name, value in pairs:
        if re.fullmatch(r"[+-]?[0-9]+", name):
            out.setdefault(int(name), value)
    return out


def _p(pairs: Sequence[Tuple[str, float]]) -> float:
    """rbp's persistence as m_rbp.c reads it: the last pair named ``p`` (default 0.9), any value
    (``p=0`` or ``p=1.5`` give the formula's values); pairs of other names are ignored."""
    p = 0.9
    for name, value in pairs:
        if name == "p":
            p = value
    return p


def _plain(f: Callable[[Any], Any]) -> Callable[..., Any]:
    return lambda lists, values, num_docs: f(lists)


def _with(f: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    return lambda lists, values, num_docs: f(lists, values)


#: each measure's description in our words (``-h -m NAME``), with its citation
ABOUT: Dict[str, str] = {
    "runid": ("The run's tag: column 6 of the results file's last line."),
    "num_q": ("Number of topics averaged over (with -c, every topic of the relevance file)."),
    "num_ret": ("Documents retrieved for the topic (after -M and -J); the summary is the sum."),
    "num_rel": (
        "Relevant documents of the topic in the relevance file (level >= -l); the summary is the sum."
    ),
    "num_rel_ret": ("Relevant documents retrieved; the summary is the sum."),
    "map": (
        "Average precision: the precision at each relevant document retrieved, summed and "
        "divided by the topic's relevant documents. " + _BUCKLEY
    ),
    "gm_map": (
        "Geometric mean over topics of average precision (values below 0.00001 count as "
        "0.00001); printed in the summary only."
    ),
    "Rprec": ("Precision after R documents, R the topic's relevant documents. " + _BUCKLEY),
    "bpref": (
        "Binary preference: per judged relevant document retrieved, the share of the first R "
        "judged nonrelevant documents ranked below it; unjudged documents are skipped. Chris "
        "Buckley and Ellen Voorhees. Retrieval evaluation with incomplete information. SIGIR "
        "2004."
    ),
    "recip_rank": ("Reciprocal of the rank of the first relevant document retrieved."),
    "iprec_at_recall": (
        "Interpolated precision (the best precision at this recall or beyond) at recall "
        "levels; a level p is the lround(p R)-th relevant document (trec_eval 10's rounding)."
    ),
    "P": (
        "Precision at k: relevant documents in the top k over k (a shorter list is padded "
        "with nonrelevant ones)."
    ),
    "relstring": (
        "The levels of the first N (default 10) documents as characters: 0-9, '>' above 9, "
        "'-' not in the relevance file, '.' listed there but unjudged; per topic only."
    ),
    "recall": ("Recall at k: relevant documents in the top k over the topic's relevant documents."),
    "infAP": (
        "Inferred average precision, for judgements sampled from a pool (value -1 in the "
        "relevance file: pooled, not judged). Emine Yilmaz and Javed A. Aslam. Estimating "
        "average precision with incomplete and imperfect judgments. CIKM 2006."
    ),
    "gm_bpref": ("Geometric mean over topics of bpref (floor 0.00001); summary only."),
    "Rprec_mult": ("Precision at multiples m of R: at rank (long)(m R + 0.9)."),
    "utility": (
        "Set utility p1 a + p2 b + p3 c + p4 d: a relevant retrieved, b nonrelevant "
        "retrieved, c relevant not retrieved, d the rest of the collection (-N). Default "
        "1,-1,0,0."
    ),
    "11pt_avg": (
        "Mean interpolated precision over the given recall levels (default the 11 levels 0, 0.1, ..., 1)."
    ),
    "binG": (
        "Binary G: per relevant document retrieved, 1 / log2(2 + nonrelevant documents above "
        "it), over R (Buckley's experimental measure)."
    ),
    "G": (
        "Normalised gain G: each document's gain over log2(2 + ideal cost so far - gain so "
        "far), summed and normalised by the ideal total gain (Buckley's experimental "
        "measure). " + _GAINS
    ),
    "ndcg": (
        "Normalised discounted cumulative gain over the whole list, discount log2(rank + 1). "
        + _GAINS
        + " "
        + _JK
    ),
    "ndcg_rel": (
        "nDCG averaged over the documents of positive gain (each one not retrieved counts "
        "nDCG at the list's end). " + _GAINS
    ),
    "Rndcg": (
        "nDCG averaged at the ranks where the ideal ranking's gain changes (and at the list's"
        " end when it is longer). " + _GAINS
    ),
    "ndcg_cut": ("nDCG at k, gains the relevance levels. " + _JK),
    "map_cut": (
        "Average precision over the top k: precisions at the relevant documents of the top k, over R."
    ),
    "relative_P": ("Precision at k relative to the best possible: relevant in the top k over min(k, R)."),
    "success": ("1 when a relevant document is in the top k (Stephen Tomlinson's measure)."),
    "set_P": ("Precision of the retrieved set: relevant retrieved over retrieved."),
    "set_relative_P": (
        "Set precision over the best possible for the set's size: relevant retrieved over min(retrieved, R)."
    ),
    "set_recall": ("Recall of the retrieved set: relevant retrieved over R."),
    "set_map": ("Set precision times set recall."),
    "set_F": (
        "F of the retrieved set, (x + 1) P R / (x P + R), x (default 1) weighting recall. "
        "After van Rijsbergen's E measure (Information Retrieval, 1979)."
    ),
    "num_nonrel_judged_ret": ("Judged nonrelevant documents retrieved; the summary is the sum."),
    "prefs_num_prefs_poss": (
        "Preferences A > B the judgements express (-R prefs or qrels_prefs), whether A and B are "
        "retrieved or not; the summary is the sum."
    ),
    "prefs_num_prefs_ful": (
        "Preferences fulfilled: A ranked above B, or A retrieved and B not; the summary is the sum."
    ),
    "prefs_num_prefs_ful_ret": ("Preferences fulfilled with A and B both retrieved; the summary is the sum."),
    "prefs_simp": (
        "Preferences fulfilled over preferences expressed (a pair neither retrieved counts as "
        "failed; conflicting judgement groups each count)."
    ),
    "prefs_pair": (
        "Per document pair, the share of its preferences (over the judgement groups) that the "
        "ranking fulfils, averaged over the pairs."
    ),
    "prefs_avgjg": ("prefs_simp within each judgement group (user), averaged over the groups."),
    "prefs_avgjg_Rnonrel": (
        "prefs_avgjg with each group's nonrelevant documents (level 0) cut or padded to as many "
        "as its relevant ones, so that long lists of nonrelevant judgements do not dominate."
    ),
    "prefs_simp_ret": ("prefs_simp over the preferences whose two documents are retrieved."),
    "prefs_pair_ret": ("prefs_pair over the pairs whose two documents are retrieved."),
    "prefs_avgjg_ret": ("prefs_avgjg over the preferences whose two documents are retrieved."),
    "prefs_avgjg_Rnonrel_ret": (
        "prefs_avgjg_Rnonrel over the retrieved documents (nonrelevant retrieved set to the "
        "relevant retrieved)."
    ),
    "prefs_simp_imp": ("prefs_simp ignoring the preferences whose two documents are both missing."),
    "prefs_pair_imp": ("prefs_pair ignoring the pairs whose two documents are both missing."),
    "prefs_avgjg_imp": ("prefs_avgjg ignoring the preferences whose two documents are both missing."),
    "map_avgjg": (
        "Average precision per judgement group (-R qrels_jg: column 2 names the user whose "
        "judgements the line holds), averaged over the topic's groups."
    ),
    "P_avgjg": ("Precision at k per judgement group, averaged over the topic's groups (-R qrels_jg)."),
    "Rprec_mult_avgjg": (
        "Precision at multiples of R per judgement group (R that group's relevant documents), "
        "averaged over the topic's groups (-R qrels_jg)."
    ),
    "yaap": (
        "Robertson's smoothed average precision log((1 + s) / (1 + R - s)), s the sum of "
        "precisions at the relevant documents retrieved. Stephen Robertson. On smoothing "
        "average precision. ECIR 2012."
    ),
    "rbp": (
        "Rank-biased precision with persistence p (default 0.9, -m rbp.p=0.5), the levels "
        "scaled to [0, 1] as gains. " + _MZ
    ),
    "rbp_resid": (
        "The most rank-biased precision could still gain if the unjudged documents retrieved "
        "were relevant (0 when every one is judged). " + _MZ
    ),
    "unj": ("Fraction of the top k that is unjudged (Ian Soboroff's measure of trec_eval 10)."),
}


def _row(
    name: str,
    form: str,
    default: Any,
    compute: Callable[..., Any],
    summary: str = MEAN,
    rel_format: str = "qrels",
) -> ToolMeasure:
    if summary in (RUNID, NUM_Q):
        rel_format = "any"
    return ToolMeasure(
        name, form, default, compute, summary, summary in (SUM, NUM_Q), ABOUT[name], rel_format
    )


def _pref(name: str) -> Callable[..., Any]:
    """A preference measure: its values were computed with the lists (:mod:`.prefs`)."""
    return lambda lists, values, num_docs: lists.values[name]


def _gain_measure(f: Callable[[ToolLists, Dict[int, float]], Any]) -> Callable[..., Any]:
    return lambda lists, values, num_docs: f(lists, _gains(values))


def _rbp_measure(f: Callable[[ToolLists, float], Any]) -> Callable[..., Any]:
    return lambda lists, values, num_docs: f(lists, _p(values))


_NOTHING = _plain(lambda lists: None)
_RPREC_MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
_TABLE: List[ToolMeasure] = [
    _row("runid", NONE, (), _NOTHING, RUNID),
    _row("num_q", NONE, (), _NOTHING, NUM_Q),
    _row("num_ret", NONE, (), _plain(k.num_ret), SUM),
    _row("num_rel", NONE, (), _plain(k.num_rel), SUM),
    _row("num_rel_ret", NONE, (), _plain(k.num_rel_ret), SUM),
    _row("map", NONE, (), _plain(k.average_precision)),
    _row("gm_map", NONE, (), _plain(lambda lists: gm_log(k.average_precision(lists))), GEOMETRIC),
    _row("Rprec", NONE, (), _plain(k.r_prec)),
    _row("bpref", NONE, (), _plain(k.bpref)),
    _row("recip_rank", NONE, (), _plain(k.recip_rank)),
    _row("iprec_at_recall", DOUBLE_CUTOFFS, _RECALL_LEVELS, _with(k.iprec_at_recall)),
    _row("P", LONG_CUTOFFS, _CUTS, _with(k.precision)),
    _row("relstring", DOUBLE_PARAMS, (10.0,), _with(lambda lists, v: k.relstring(lists, int(v[0]))), STRING),
    _row("recall", LONG_CUTOFFS, _CUTS, _with(k.recall)),
    _row("infAP", NONE, (), _plain(k.inf_ap)),
    _row("gm_bpref", NONE, (), _plain(lambda lists: gm_log(k.bpref(lists))), GEOMETRIC),
    _row("Rprec_mult", DOUBLE_CUTOFFS, _RPREC_MULTS, _with(k.rprec_mult)),
    _row("utility", DOUBLE_PARAMS, (1.0, -1.0, 0.0, 0.0), lambda lists, v, n: k.utility(lists, v, n)),
    _row("11pt_avg", DOUBLE_PARAMS, _RECALL_LEVELS, _with(k.eleven_pt_avg)),
    _row("binG", NONE, (), _plain(k.bin_g)),
    _row("G", PAIRS, (), _gain_measure(k.g_measure)),
    _row("ndcg", PAIRS, (), _gain_measure(k.ndcg)),
    _row("ndcg_rel", PAIRS, (), _gain_measure(k.ndcg_rel)),
    _row("Rndcg", PAIRS, (), _gain_measure(k.rndcg)),
    _row("ndcg_cut", LONG_CUTOFFS, _CUTS, _with(k.ndcg_cut)),
    _row("map_cut", LONG_CUTOFFS, _CUTS, _with(k.map_cut)),
    _row("relative_P", LONG_CUTOFFS, _CUTS, _with(k.relative_precision)),
    _row("success", LONG_CUTOFFS, (1, 5, 10), _with(k.success)),
    _row("set_P", NONE, (), _plain(k.set_p)),
    _row("set_relative_P", NONE, (), _plain(k.set_relative_p)),
    _row("set_recall", NONE, (), _plain(k.set_recall)),
    _row("set_map", NONE, (), _plain(k.set_map)),
    _row("set_F", DOUBLE_PARAMS, (1.0,), _with(k.set_f)),
    _row("num_nonrel_judged_ret", NONE, (), _plain(k.num_nonrel_judged_ret), SUM),
    _row("prefs_num_prefs_poss", NONE, (), _pref("prefs_num_prefs_poss"), SUM, rel_format="prefs"),
    _row("prefs_num_prefs_ful", NONE, (), _pref("prefs_num_prefs_ful"), SUM, rel_format="prefs"),
    _row("prefs_num_prefs_ful_ret", NONE, (), _pref("prefs_num_prefs_ful_ret"), SUM, rel_format="prefs"),
    _row("prefs_simp", NONE, (), _pref("prefs_simp"), MEAN, rel_format="prefs"),
    _row("prefs_pair", NONE, (), _pref("prefs_pair"), MEAN, rel_format="prefs"),
    _row("prefs_avgjg", NONE, (), _pref("prefs_avgjg"), MEAN, rel_format="prefs"),
    _row("prefs_avgjg_Rnonrel", NONE, (), _pref("prefs_avgjg_Rnonrel"), MEAN, rel_format="prefs"),
    _row("prefs_simp_ret", NONE, (), _pref("prefs_simp_ret"), MEAN, rel_format="prefs"),
    _row("prefs_pair_ret", NONE, (), _pref("prefs_pair_ret"), MEAN, rel_format="prefs"),
    _row("prefs_avgjg_ret", NONE, (), _pref("prefs_avgjg_ret"), MEAN, rel_format="prefs"),
    _row("prefs_avgjg_Rnonrel_ret", NONE, (), _pref("prefs_avgjg_Rnonrel_ret"), MEAN, rel_format="prefs"),
    _row("prefs_simp_imp", NONE, (), _pref("prefs_simp_imp"), MEAN, rel_format="prefs"),
    _row("prefs_pair_imp", NONE, (), _pref("prefs_pair_imp"), MEAN, rel_format="prefs"),
    _row("prefs_avgjg_imp", NONE, (), _pref("prefs_avgjg_imp"), MEAN, rel_format="prefs"),
    _row("map_avgjg", NONE, (), _plain(k.map_avgjg), rel_format="qrels_jg"),
    _row("P_avgjg", LONG_CUTOFFS, _CUTS, _with(k.p_avgjg), rel_format="qrels_jg"),
    _row("Rprec_mult_avgjg", DOUBLE_CUTOFFS, _RPREC_MULTS, _with(k.rprec_mult_avgjg), rel_format="qrels_jg"),
    _row("yaap", NONE, (), _plain(k.yaap)),
    _row("rbp", PAIRS, (), _rbp_measure(k.rbp)),
    _row("rbp_resid", PAIRS, (), _rbp_measure(k.rbp_resid)),
    _row("unj", LONG_CUTOFFS, (5, 10, 20), _with(k.unj)),
]

#: the table in trec_eval's order
MEASURES: Dict[str, ToolMeasure] = {m.name: m for m in _TABLE}

NICKNAMES: Dict[str, Tuple[str, ...]] = {
    "official": tuple(
        "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P".split()
    ),
    "set": tuple(
        "runid num_q num_ret num_rel num_rel_ret utility set_P set_recall set_relative_P set_map "
        "set_F".split()
    ),
    "all_trec": tuple(m.name for m in _TABLE if m.name != "yaap" and m.rel_format in ("qrels", "any")),
    "all_prefs": ("runid", "num_q") + tuple(m.name for m in _TABLE if m.rel_format == "prefs"),
    "prefs": ("runid", "num_q") + tuple(m.name for m in _TABLE if m.rel_format == "prefs")[:6],
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}

#: the longest prefix of a string that C's strtod reads (else 0): a hexadecimal number, a decimal
#: one (the package's one DECIMAL pattern), an infinity or a NaN; and strtol's base-10 prefix
_HEX = r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
_STRTOD = re.compile(rf"\s*({_HEX}|{DECIMAL}|[+-]?(?:inf(?:inity)?|nan))", re.IGNORECASE)
_STRTOL = re.compile(r"\s*([+-]?\d+)")
_LONG_MAX = 2**63 - 1


def c_atof(text: str) -> float:
    """C's ``atof``: the number at the start of ``text`` (``"0.5x"`` is 0.5), 0 when there is none."""
    m = _STRTOD.match(text)
    if not m:
        return 0.0
    number = m.group(1)
    body = number.lstrip("+-")
    if body[:2].lower() == "0x":
        value = float.fromhex(body if "p" in body.lower() else body + "p0")
        return -value if number.startswith("-") else value
    return float(number)


def c_atol(text: str) -> int:
    """C's ``strtol(text, NULL, 10)``: the integer at the start of ``text`` (``"1e2"`` is 1, ``"2.5"``
    is 2), 0 when there is none, clamped to the range of a C long."""
    m = _STRTOL.match(text)
    if not m:
        return 0
    return max(-_LONG_MAX - 1, min(_LONG_MAX, int(m.group(1))))


def _pairs_well_formed(text: str) -> bool:
    """meas_init.c's get_param_pairs check: NAME=VALUE pairs separated by commas, an '=' in each."""
    last = ","
    for ch in text:
        if ch == ",":
            if last == ",":
                return False
            last = ","
        elif ch == "=":
            if last == "=":
                return False
            last = "="
    return last == "="


def parse_params(measure: ToolMeasure, text: str, arg: str) -> Any:
    """The parameters ``text`` (what follows the first '.') of ``-m arg``, as trec_eval 10 reads
    them (meas_init.c): cutoffs with ``strtol`` (``P.1e2`` is ``P_1``), sorted, refused when one
    is not positive or two are equal; fractions and coefficients with ``atof``; LEVEL=GAIN pairs
    checked for their form only. A measure without parameters ignores them (None)."""
    if measure.form == NONE:
        return None
    tokens = text.split(",")
    if measure.form == PAIRS:
        if not _pairs_well_formed(text):
            raise MeasureSpecError(f"illegal measure '{arg}': malformed pair parameters in {text!r}", 2)
        return tuple((name, c_atof(value)) for name, _, value in (t.partition("=") for t in tokens))
    if measure.form == DOUBLE_PARAMS:
        return tuple(c_atof(t) for t in tokens)
    cuts: List[Any]
    if measure.form == LONG_CUTOFFS:
        cuts = sorted(c_atol(t) for t in tokens)
        if cuts[0] <= 0:
            raise MeasureSpecError(
                f"illegal measure '{arg}': a cutoff is not positive (read as {cuts[0]})", 2
            )
    else:
        cuts = sorted(c_atof(t) for t in tokens)
    if len(set(cuts)) != len(cuts):
        raise MeasureSpecError(f"illegal measure '{arg}': duplicate cutoffs", 2)
    return tuple(cuts)


def select(arguments: Sequence[str], rel_format: str = "qrels") -> List[Selected]:
    """The measures of ``-m`` arguments in trec_eval's order; the first parameters given for a
    measure are its parameters (trec_eval keeps the first); no argument: ``official``. A measure
    that the ``rel_format`` file cannot give is a :class:`FormatMismatch`."""
    marked: Dict[str, None] = {}
    given: Dict[str, str] = {}
    for arg in arguments or ["official"]:
        name, dot, params = arg.partition(".")
        if dot and not params:
            raise MeasureSpecError(f"illegal measure '{arg}': improper measure in parameter '{name}'")
        if dot:  # the first parameters given for a name are its parameters (a nickname's: none)
            given.setdefault(name, params)
        if name in NICKNAMES:
            marked.update(dict.fromkeys(NICKNAMES[name]))
            continue
        if name not in MEASURES:
            raise MeasureSpecError(f"illegal measure '{arg}'")
        marked[name] = None
    family = "prefs" if rel_format == "qrels_prefs" else rel_format
    wrong = [n for n in marked if MEASURES[n].rel_format not in ("any", family)]
    if wrong:
        raise FormatMismatch(
            f"Can't calculate measure '{wrong[0]}' from -R {rel_format} relevance information"
            + (f" ({len(wrong) - 1} more)" if len(wrong) > 1 else "")
        )
    out = []
    for m in _TABLE:
        if m.name in marked:
            text = given.get(m.name) if m.form != NONE else None
            values = m.default if text is None else parse_params(m, text, f"{m.name}.{text}")
            out.append(Selected(m, values, text))
    return out
