"""Intent-aware diversity measures as NTCIREVAL 190111's diversity scripts compute them:
D-measures, D#-measures and I-rec (Sakai and Song, SIGIR 2011) and DIN-measures (Sakai, WWW
2012), on per-intent graded relevance (docs/diversity.md; the contract: spec diversity.md).

For a topic q with intents i, probabilities P(i|q) and per-intent gains g_i(d) (level n gives n,
or 2^n - 1 with ``gains="exp"``), the **global gain** of a document is

.. math::

    GG(d) = \\sum_i P(i|q)\\, g_i(d)

and a D-measure is the single-list measure (Q, nDCG, ERR, ...) computed with GG as the gain
of each retrieved document and the ideal list of every document with GG > 0 by GG descending.
In particular

.. math::

    \\text{D-nDCG@}l = \\frac{\\sum_{r \\le l} GG(r) / \\log(r + 1)}
                          {\\sum_{r \\le l} GG^*(r) / \\log(r + 1)}, \\qquad
    \\text{D-Q@}l = \\frac{1}{\\min(l, R)} \\sum_{r \\le l,\\ GG(r) > 0} \\frac{CG(r) + c(r)}{CG^*(r) + r}

(CG, CG*: cumulative gains of the list and of the ideal list, c(r): documents with GG > 0 in
the top r, R: documents with GG > 0), **I-rec@l** (intent recall, Zhai et al. SIGIR 2003) is the
fraction of the topic's intents that have a relevant document in the top l, and a D#-measure
mixes the two, D#-X@l = gamma I-rec@l + (1 - gamma) D-X@l with gamma = 0.5.

A **DIN-measure** (Sakai WWW 2012) uses, for a navigational intent, only its first relevant
document in the list: a later one adds nothing for that intent (informational intents add
always); the ideal list stays the D-measures' one.

The tool's roundings are kept (spec §2), since they move printed values: each weighted gain
P(i|q) g_i(d) and each GG(d) is written as awk writes a number (an integer, else 6 significant
digits) and read back; the ideal list uses those values; a retrieved document's gain is that
value rounded to 4 decimals (``%.4f``, what ``glabel``/``dinlabel`` write). The list of a topic
is the run's lines for it **in file order** (the first 1000; scores and ranks are ignored), and
every measure is computed on the list cut at l.

Every value comes from the kernels of :mod:`..ntcir.kernels` and :mod:`..ntcir.blended_ratio` (the same
code as ``ir_measures_pres ntcir``): this module only builds their inputs, a
:class:`~.ntcir.kernels.Found` (the retrieved documents with a gain) and an
:class:`~.ntcir.kernels.Ideal` (the ideal list), with real-valued gains and one g_max per topic
(H, the topic's largest ideal gain). No loop over documents or topics runs in Python.

References: T. Sakai and R. Song, Evaluating diversified search results using per-intent graded
relevance, SIGIR 2011; T. Sakai, Evaluation with informational and navigational intents, WWW
2012; C. Zhai, W. Cohen, J. Lafferty, Beyond independent relevance, SIGIR 2003.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List

import numpy as np

from ...data.arrays import offsets_from_counts, running_sums_in_order, segment_ids
from ...data.diversity import DiversityQrels, IntentProbs, check_against
from ...data.ranking import JudgedList
from ...data.topics import RankedLists
from ..ntcir.blended_ratio import blended_from, o_kernel, p_kernel, pplus_kernel, q_kernel
from ..ntcir.kernels import (
    Found,
    Ideal,
    ebr_kernel,
    err_kernel,
    ideal_dcg_terms,
    ideal_err_running,
    ncu_kernel,
    ndcg_from,
    nerr_from,
    rbp_kernel,
    running_in_topics,
)

__all__ = [
    "GAMMA",
    "RUN_DEPTH",
    "DiversityJudgements",
    "DiversityLists",
    "awk_number",
    "printed",
    "judgements",
    "run_lists",
    "found",
    "gcompute",
    "d_ndcg_kernel",
    "d_q_kernel",
    "d_nerr_kernel",
    "d_pplus_kernel",
    "d_ebr_kernel",
    "intent_recall",
    "d_sharp",
    "IntentSegments",
    "intent_segments",
    "intent_found",
    "intent_aware",
]

#: D#'s gamma, fixed in the scripts (``GAMMA=0.5``)
GAMMA = 0.5
#: ``TRECsplitruns TID 1000``: the lines of a topic that are read
RUN_DEPTH = 1000
#: NCU's gamma (``ntcir_eval``'s default) and RBP's persistence (D-NTCIR-eval; eval2: 0.99)
NCU_GAMMA = 0.95
RBP_P = 0.95
#: RBP's persistence in D-NTCIR-eval2 (its ``RBP`` lines and ``D#-RBP@l``)
RBP_P_EVAL2 = 0.99


def awk_number(values: np.ndarray) -> np.ndarray:
    """The value awk's ``print`` writes of each number, read back: an integral value as is,
    any other with 6 significant digits (``%.6g``)."""
    v = np.asarray(values, dtype=np.float64)
    out = v.copy()
    frac = v != np.floor(v)
    if frac.any():
        out[frac] = np.char.mod("%.6g", v[frac]).astype(np.float64)
    return out


def printed(values: np.ndarray, digits: int = 4) -> np.ndarray:
    """``%.<digits>f`` of each value, read back (what a tool printing that format hands on)."""
    v = np.asarray(values, dtype=np.float64)
    if not len(v):
        return v.copy()
    return np.char.mod(f"%.{digits}f", v).astype(np.float64)  # type: ignore[no-any-return]


def _dense(values: np.ndarray) -> np.ndarray:
    """An integer code of each value, in the values' order (equal values, equal codes)."""
    return np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64) + 1


@dataclass
class DiversityJudgements:
    """The judgements of a topic set as the scripts derive them (``DIN-splitqrels``).

    ``topics``: the probability file's topics, sorted (the tid list). Per relevant (L1+) qrels
    line, in file order: topic index, intent (a row of the probability file), document, weighted
    gain w_i(d) = P(i|q) g_i(d) (as written and read back) and whether the intent is
    navigational. Per judged (topic, document) with a relevant line: its key and GG(d). The D
    ideal list (GG > 0, descending), per topic its R, H (the largest GG), n (intents with a
    relevant document, whatever their probability) and the documents with GG = 0. ``probs``:
    the probability file; ``line_gain``: g_i(d) of each line."""

    topics: List[str]
    probs: IntentProbs
    line_topic: np.ndarray
    line_intent: np.ndarray
    line_doc: np.ndarray
    line_gain: np.ndarray
    line_weight: np.ndarray
    line_nav: np.ndarray
    line_key: np.ndarray
    doc_key: np.ndarray
    doc_gg: np.ndarray
    doc_ids: np.ndarray
    ideal: Ideal
    n_rel: np.ndarray
    gmax: np.ndarray
    n_intents: np.ndarray
    #: per topic, the documents whose relevant lines all have P(i|q) = 0 (GG(d) = 0): they stay
    #: in the tool's ideal-list file, with gain 0, and count in its ``jnonrel``
    n_zero_gain: np.ndarray


def _doc_array(docs: List[str], as_bytes: bool) -> np.ndarray:
    if as_bytes:
        return np.array([d.encode("utf-8", "surrogateescape") for d in docs], dtype=bytes)
    return np.array(docs, dtype=object)


def judgements(
    probs: IntentProbs, qrels: DiversityQrels, gains: str = "linear", doc_bytes: bool = True
) -> DiversityJudgements:
    """:class:`DiversityJudgements` of the two files (checked together first). ``gains``:
    ``"linear"`` (level n gives n, the stock script) or ``"exp"`` (2^n - 1, the script's
    commented-out alternative); ``doc_bytes`` False keeps the document ids as ``str`` (for runs
    read with ``str`` ids; :func:`run_lists` matches either way)."""
    if gains not in ("linear", "exp"):
        raise ValueError(f"gains must be 'linear' or 'exp', not {gains!r}")
    check_against(probs, qrels)
    topics = probs.topics()
    t_index = {t: k for k, t in enumerate(topics)}
    row_of = {(t, i): k for k, (t, i) in enumerate(zip(probs.topic, probs.intent))}
    rel = np.flatnonzero(qrels.level > 0)
    # topic and intent of each relevant line: one look-up per distinct value, not per line
    topic_index = np.array([t_index[t] for t in qrels.topic_names], dtype=np.int64)
    line_topic = topic_index[qrels.topic_code[rel]] if len(rel) else np.zeros(0, np.int64)
    width = max(len(qrels.intent_names), 1)
    pair = qrels.topic_code[rel] * width + qrels.intent_code[rel]
    distinct, inverse = np.unique(pair, return_inverse=True)
    rows = np.array(
        [row_of[(qrels.topic_names[p // width], qrels.intent_names[p % width])] for p in distinct.tolist()],
        dtype=np.int64,
    )
    line_intent = rows[inverse.reshape(-1)] if len(rel) else np.zeros(0, np.int64)
    docs = qrels.doc[rel]
    if not doc_bytes:
        from ...data.arrays import ids_as_str

        docs = ids_as_str(docs)
    level = qrels.level[rel].astype(np.float64)
    g = level if gains == "linear" else np.power(2.0, level) - 1
    weight = awk_number(probs.prob[line_intent] * g) if len(rel) else np.zeros(0)
    nav = probs.nav[line_intent] if len(rel) else np.zeros(0, dtype=bool)
    uniq, doc_code = np.unique(docs, return_inverse=True) if len(docs) else (docs, np.zeros(0, np.int64))
    doc_code = doc_code.reshape(-1).astype(np.int64)
    width = max(len(uniq), 1)
    line_key = line_topic * width + doc_code
    # GG(d): the written w_i(d) summed in file order, written again
    keys, inverse = np.unique(line_key, return_inverse=True)
    inverse = inverse.reshape(-1)
    gg = awk_number(np.bincount(inverse, weights=weight, minlength=len(keys)))
    key_topic = keys // width
    # the ideal list: GG > 0 by GG descending, per topic
    positive = gg > 0
    it = key_topic[positive]
    ig = gg[positive]
    order = np.lexsort((-ig, it))
    it, ig = it[order], ig[order]
    counts = np.bincount(it, minlength=len(topics))
    ideal = Ideal(offsets_from_counts(counts), _dense(ig), ig)
    gmax = np.zeros(len(topics))
    has = counts > 0
    if has.any():
        gmax[has] = np.maximum.reduceat(ig, ideal.offsets[:-1][has])
    pairs = np.unique(line_topic * max(len(probs.topic), 1) + line_intent)
    n_intents = np.bincount(pairs // max(len(probs.topic), 1), minlength=len(topics))
    return DiversityJudgements(
        topics,
        probs,
        line_topic,
        line_intent,
        docs,
        g,
        weight,
        nav,
        line_key,
        keys,
        gg,
        uniq,
        ideal,
        counts.astype(np.int64),
        gmax,
        n_intents.astype(np.int64),
        np.bincount(key_topic[~positive], minlength=len(topics)).astype(np.int64),
    )


@dataclass
class DiversityLists(RankedLists):
    """A run's list of every topic of the tid list: its lines for the topic in file order, the
    first :data:`RUN_DEPTH` (``TRECsplitruns``); a topic the run lacks has an empty list.
    ``offsets`` per topic into ``key`` (the (topic, document) key of each entry, -1 for a
    document without a relevant line) and ``doc`` (index into ``doc_key``, -1 likewise).
    ``pair_entry`` / ``pair_line``: every (entry, relevant qrels line of its document), by entry
    then qrels file order."""

    offsets: np.ndarray
    judged: np.ndarray
    pair_entry: np.ndarray
    pair_line: np.ndarray


def run_lists(judg: DiversityJudgements, run: Any, depth: int = RUN_DEPTH) -> DiversityLists:
    """The lists of ``run`` (:func:`~ir_measures_pres.data.readers.read_run_lines`' columns)
    for the topics of ``judg``; run topics outside them are left out."""
    names = run.query_names if run.query_names is not None else sorted(set(run.query_ids.tolist()))
    codes = run.query_codes if run.query_codes is not None else np.searchsorted(names, run.query_ids)
    t_index = {t: k for k, t in enumerate(judg.topics)}
    topic_of = np.array([t_index.get(n, -1) for n in names], dtype=np.int64)
    t = topic_of[codes] if len(codes) else np.zeros(0, np.int64)
    lines = np.flatnonzero(t >= 0)
    order = np.argsort(t[lines], kind="stable")
    lines, t = lines[order], t[lines][order]
    counts = np.bincount(t, minlength=len(judg.topics))
    within = np.arange(len(t)) - np.repeat(offsets_from_counts(counts)[:-1], counts)
    keep = within < depth
    lines, t = lines[keep], t[keep]
    offsets = offsets_from_counts(np.bincount(t, minlength=len(judg.topics)))
    docs = run.doc_ids[lines]
    if docs.dtype.kind == "S" and judg.line_doc.dtype.kind != "S":
        from ...data.arrays import ids_as_str

        docs = ids_as_str(docs)
    elif docs.dtype.kind != "S" and judg.line_doc.dtype.kind == "S":
        # ids over 64 bytes come as str (the readers' rule): compared as bytes, as the tool does
        docs = _doc_array(docs.tolist(), True)
    width = max(len(judg.doc_ids), 1)
    code = _codes(judg, docs)
    key = np.where(code >= 0, t * width + code, -1)
    at = np.searchsorted(judg.doc_key, key)
    found_ = (key >= 0) & (at < len(judg.doc_key))
    found_[found_] = judg.doc_key[at[found_]] == key[found_]
    judged = np.where(found_, at, -1)
    # pairs: every relevant qrels line of each entry's document, in qrels file order
    line_order = np.argsort(judg.line_key, kind="stable")
    sorted_keys = judg.line_key[line_order]
    lo = np.searchsorted(sorted_keys, key, side="left")
    hi = np.searchsorted(sorted_keys, key, side="right")
    n = np.where(judged >= 0, hi - lo, 0)
    pair_entry = np.repeat(np.arange(len(key)), n)
    start = np.repeat(lo, n) + (np.arange(int(n.sum())) - np.repeat(offsets_from_counts(n)[:-1], n))
    pair_line = line_order[start] if len(start) else np.zeros(0, np.int64)
    return DiversityLists(offsets, judged, pair_entry, pair_line)


def _codes(judg: DiversityJudgements, docs: np.ndarray) -> np.ndarray:
    """The index of each id in :attr:`DiversityJudgements.doc_ids` (sorted), -1 for an id
    without a relevant line in any topic."""
    known = judg.doc_ids
    if not len(docs) or not len(known):
        return np.full(len(docs), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(known, docs), len(known) - 1)
    return np.where(known[at] == docs, at, -1).astype(np.int64)  # type: ignore[no-any-return]


def _din_gains(judg: DiversityJudgements, lists: DiversityLists, cutoff: int) -> np.ndarray:
    """DIN gain of every entry of the lists cut at ``cutoff`` (0 beyond): over the entry's
    relevant lines in qrels file order, w_i(d) for an informational intent, and for a
    navigational one only if no earlier entry was relevant to it."""
    rank = lists.rank
    entry = lists.pair_entry
    line = lists.pair_line
    within = rank[entry] <= cutoff
    entry, line = entry[within], line[within]
    intent = judg.line_intent[line]
    _, first = np.unique(intent, return_index=True)
    first_of = np.zeros(len(intent), dtype=bool)
    first_of[first] = True
    keep = ~judg.line_nav[line] | first_of
    return np.bincount(entry, weights=np.where(keep, judg.line_weight[line], 0.0), minlength=len(rank))


def found(judg: DiversityJudgements, lists: DiversityLists, cutoff: int, din: bool = False) -> Found:
    """The retrieved documents with a gain in the lists cut at ``cutoff``, with the gains the
    tool reads (``%.4f`` of GG(d), or of the DIN gain) and H per topic."""
    rank = lists.rank
    if din:
        raw = _din_gains(judg, lists, cutoff)
    else:
        # the gain of each entry, 0 for a document without a relevant line (and for every
        # entry when no document of the judgements is relevant: doc_gg is then empty)
        raw = np.zeros(len(lists.judged))
        judged = lists.judged >= 0
        raw[judged] = judg.doc_gg[lists.judged[judged]]
    candidates = np.flatnonzero((rank <= cutoff) & (raw > 0))  # only these are written %.4f
    gain = printed(raw[candidates])
    keep = candidates[gain > 0]
    g = gain[gain > 0]
    topic = lists.qidx
    topics = len(judg.topics)
    counts = np.bincount(topic[keep], minlength=topics)
    offsets = offsets_from_counts(counts)
    label = _dense(g) if len(g) else np.zeros(0, np.int64)
    syslen = np.minimum(lists.lengths, cutoff).astype(np.int64)
    rel = JudgedList(np.arange(topics), syslen, offsets, rank[keep].astype(np.int64), label)
    return _found_of(rel, g, syslen, judg.n_rel, judg.gmax)


def d_ndcg_kernel(f: Found, ide: Ideal, cutoff: int) -> np.ndarray:
    """D-nDCG@l per topic: ``ntcir_eval``'s MSnDCG@l (gain / log2(r + 1) at every rank) of the
    found gains against the ideal list (the ``MSnDCG@l`` line of :func:`gcompute`)."""
    dcg_ms = running_in_topics(ideal_dcg_terms(ide, None), ide.offsets)
    return ndcg_from(f, ide, dcg_ms, cutoff, None)  # type: ignore[no-any-return]


def _blended(f: Found, ide: Ideal, beta: float) -> Any:
    icum = running_sums_in_order(ide.gain, ide.offsets)
    return blended_from(f.rel, f.gain, ide.offsets[:-1], f.n_rel, icum, beta, in_order=True)


def d_q_kernel(f: Found, ide: Ideal, cutoff: int) -> np.ndarray:
    """D-Q@l per topic: the Q-measure at l (beta = 1) of the found gains against the ideal list
    (the ``Q@l`` line of :func:`gcompute`)."""
    return q_kernel(_blended(f, ide, 1.0), cutoff)  # type: ignore[no-any-return]


def d_nerr_kernel(f: Found, ide: Ideal, cutoff: int) -> np.ndarray:
    """nERR@l per list: ERR@l over the ideal list's (stopping probability g / (H + 1), H the
    list's g_max; the ``nERR@l`` line of :func:`gcompute`)."""
    ierr = ideal_err_running(ide, f.gmax[segment_ids(ide.offsets)] if len(ide.gain) else 0.0)
    return nerr_from(f, ide, ierr, cutoff)  # type: ignore[no-any-return]


def d_pplus_kernel(f: Found, ide: Ideal) -> np.ndarray:
    """P+ per list (of the list as cut; the ``P-plus`` line of :func:`gcompute`)."""
    return pplus_kernel(_blended(f, ide, 1.0))  # type: ignore[no-any-return]


def d_ebr_kernel(f: Found, ide: Ideal) -> np.ndarray:
    """EBR per list (of the list as cut; the ``EBR`` line of :func:`gcompute`)."""
    return ebr_kernel(f, _blended(f, ide, 1.0).br)  # type: ignore[no-any-return]


def gcompute(f: Found, ide: Ideal, cutoff: int, rbp: float = RBP_P) -> Dict[str, np.ndarray]:
    """``ntcir_eval gcompute -cutoffs l`` on every topic: its values by printed name, in its
    order (spec §3), from the kernels of ``ntcir_eval compute``."""
    at = f"@{cutoff:04d}"
    b0 = _blended(f, ide, 0.0)
    b1 = _blended(f, ide, 1.0)
    err = err_kernel(f)
    rbp_value = rbp_kernel(f, rbp)
    ebr = ebr_kernel(f, b1.br)
    found_count = f.rel.sum(np.ones(len(f.gain)))
    dcg2 = running_in_topics(ideal_dcg_terms(ide, 2.0), ide.offsets)
    return {
        "RR": o_kernel(b0),
        "O-measure": o_kernel(b1),
        "P-measure": p_kernel(b1),
        "P-plus": pplus_kernel(b1),
        "AP": q_kernel(b0, None),
        "Q-measure": q_kernel(b1, None),
        "NCUrb,P": ncu_kernel(f, b0.br, "rb", NCU_GAMMA, None, None, "NCUrb,P"),  # type: ignore[arg-type]
        "NCUrb,BR": ncu_kernel(f, b1.br, "rb", NCU_GAMMA, None, None, "NCUrb,BR"),  # type: ignore[arg-type]
        "RBP": rbp_value,
        "ERR": err,
        "EBR": ebr,
        f"AP{at}": q_kernel(b0, cutoff),
        f"Q{at}": q_kernel(b1, cutoff),
        f"nDCG{at}": ndcg_from(f, ide, dcg2, cutoff, 2.0),
        f"MSnDCG{at}": d_ndcg_kernel(f, ide, cutoff),
        f"P{at}": found_count / cutoff,
        f"RBP{at}": rbp_value,
        f"ERR{at}": err,
        f"nERR{at}": d_nerr_kernel(f, ide, cutoff),
        f"EBR{at}": ebr,
        f"Hit{at}": (found_count > 0).astype(np.float64),
    }


def first_ranks(f: Found) -> Dict[str, np.ndarray]:
    """Per topic r1 (first rank with a gain) and rp (first rank with the list's largest gain),
    0 for a list without a gain."""
    n = f.rel.num_queries
    r1 = np.zeros(n, dtype=np.int64)
    rp = np.zeros(n, dtype=np.int64)
    has = np.diff(f.rel.offsets) > 0
    if has.any():
        starts = f.rel.offsets[:-1][has]
        r1[has] = f.rel.rank[starts]
        top = np.zeros(n)
        top[has] = np.maximum.reduceat(f.gain, starts)
        queries, first = f.rel.first(f.gain == top[f.q])
        rp[queries] = f.rel.rank[first]
    return {"r1": r1, "rp": rp}


def intent_recall(judg: DiversityJudgements, lists: DiversityLists, k: np.ndarray) -> np.ndarray:
    """I-rec@k per topic (``k``: one rank per topic) on the whole list: the topic's intents
    with a relevant document in the top k, over its intents with a relevant document (0 for a
    topic without any)."""
    rank = lists.rank
    ranks = rank[lists.pair_entry]
    intent = judg.line_intent[lists.pair_line]
    _, first = np.unique(intent, return_index=True)
    topic = judg.line_topic[lists.pair_line[first]]
    reached = ranks[first] <= k[topic]
    hits = np.bincount(topic, weights=reached.astype(np.float64), minlength=len(judg.topics))
    out = np.zeros(len(judg.topics))
    np.divide(hits, judg.n_intents, out=out, where=judg.n_intents > 0)
    return out


def d_sharp(irec: np.ndarray, value: np.ndarray, gamma: float = GAMMA) -> np.ndarray:
    """D#-X = gamma I-rec + (1 - gamma) D-X (Sakai and Song 2011, gamma = 0.5 in the tool)."""
    return gamma * np.asarray(irec) + (1 - gamma) * np.asarray(value)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# intent-aware measures (Agrawal et al. WSDM 2009): one list per intent
# --------------------------------------------------------------------------------------------


@dataclass
class IntentSegments:
    """The intents with a relevant document (the scripts' ``Irelv`` files), by topic and then in
    probability-file order: per intent its row of the probability file, its topic, its ideal
    list (its relevant documents by g_i descending), H (its highest gain) and R."""

    row: np.ndarray
    topic: np.ndarray
    ideal: Ideal
    gmax: np.ndarray
    n_rel: np.ndarray
    #: per topic, the offsets of its intents into ``row``
    offsets: np.ndarray


def intent_segments(judg: DiversityJudgements) -> IntentSegments:
    """:class:`IntentSegments` of the judgements."""
    rows = np.unique(judg.line_intent)
    row_topic = judg.line_topic[np.unique(judg.line_intent, return_index=True)[1]]
    order = np.lexsort((rows, row_topic))
    rows, row_topic = rows[order], row_topic[order]
    seg_of_row = np.full(len(judg.probs.topic), -1, dtype=np.int64)
    seg_of_row[rows] = np.arange(len(rows))
    seg = seg_of_row[judg.line_intent]
    order = np.lexsort((-judg.line_gain, seg))
    gains = judg.line_gain[order]
    counts = np.bincount(seg, minlength=len(rows))
    ideal = Ideal(offsets_from_counts(counts), gains.astype(np.int64), gains)
    gmax = np.zeros(len(rows))
    has = counts > 0
    if has.any():
        gmax[has] = np.maximum.reduceat(gains, ideal.offsets[:-1][has])
    offsets = offsets_from_counts(np.bincount(row_topic, minlength=len(judg.topics)))
    return IntentSegments(rows, row_topic, ideal, gmax, counts.astype(np.int64), offsets)


def intent_found(
    judg: DiversityJudgements, segs: IntentSegments, lists: DiversityLists, cutoff: int
) -> Found:
    """Per intent, the retrieved documents relevant to it in its topic's list cut at
    ``cutoff``, with their per-intent gains g_i(d) (``%.4f``, as ``glabel`` writes them)."""
    rank = lists.rank
    entry, line = lists.pair_entry, lists.pair_line
    within = rank[entry] <= cutoff
    entry, line = entry[within], line[within]
    seg_of_row = np.full(len(judg.probs.topic), -1, dtype=np.int64)
    seg_of_row[segs.row] = np.arange(len(segs.row))
    seg = seg_of_row[judg.line_intent[line]]
    order = np.lexsort((rank[entry], seg))
    seg, entry, line = seg[order], entry[order], line[order]
    g = printed(judg.line_gain[line])
    n = len(segs.row)
    offsets = offsets_from_counts(np.bincount(seg, minlength=n))
    syslen = np.minimum(lists.lengths, cutoff).astype(np.int64)[segs.topic]
    rel = JudgedList(np.arange(n), syslen, offsets, rank[entry].astype(np.int64), _dense(g))
    return _found_of(rel, g, syslen, segs.n_rel, segs.gmax)


def _found_of(rel: JudgedList, g: np.ndarray, syslen: np.ndarray, n_rel: np.ndarray, gmax: Any) -> Found:
    """The ntcir kernels' :class:`Found` of the documents with a gain, ``rel`` (one list per
    topic or per intent, ranks ascending), with their gains ``g``: the i-th of a list is its i-th
    relevant document; no judged nonrelevant document counts (the tool's lists hold gains only)."""
    return Found(
        rel=rel,
        q=rel.qidx,
        rank=rel.rank.astype(np.float64),
        level=rel.label,
        gain=g,
        count=rel.within_rank.astype(np.float64),
        syslen=syslen,
        n_rel=n_rel,
        n_nonrel=np.zeros(len(syslen), dtype=np.int64),
        gmax=gmax,
        judged=rel,
    )


def intent_aware(probs: np.ndarray, values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """IA-X = sum_i P(i|q) X_i per topic (Agrawal et al. 2009), over the intents of each topic
    (``offsets``), added in their order; no renormalisation (the tool's SUMp may be < 1)."""
    if not len(values):
        return np.zeros(len(offsets) - 1)
    return np.bincount(segment_ids(offsets), weights=probs * values, minlength=len(offsets) - 1)
