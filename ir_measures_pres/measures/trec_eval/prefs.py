"""trec_eval 10.0's preference measures (``-R prefs``, ``-R qrels_prefs``): ``form_prefs_counts``
and the 14 ``prefs_*`` measures.

A preference file gives, per query, lines ``jg jsg docno rel_level``: within a judgement
sub-group (JSG) a document with a higher level is preferred to one with a lower level; a
judgement group (JG, one user) is the union of its sub-groups, closed under transitivity when it
has several (trec_eval's preference array) and read as equivalence classes of levels when it has
one. ``-R qrels_prefs`` reads a qrels file so: column 2 the JG, one JSG per JG.

Per query, the judged documents (those of any line) get trec_eval's "docid ranks": the retrieved
ones 0 .. NJR - 1 in rank order (score descending, ties by docno *ascending*, as this part of
trec_eval sorts), the others NJR .. NJ - 1 in docno order. For a preference A > B of a JG, with
a and b their docid ranks, it is *fulfilled, retrieved* when a < b < NJR, *possible, retrieved*
when both are below NJR, *fulfilled, implied* when a < NJR <= b, *possible, implied* when exactly
one is below NJR, and *not occurring* when neither is; the measures combine these counts per JG
(``_avgjg``), per query (``_simp``), or per document pair over the JGs (``_pair``, from the
matrix of counts summed over the JGs). ``_avgjg_Rnonrel`` follows the C code's recalculation
literally, quirks included (docs/trec_eval.md).

Speed: the queries, their judgement groups and the mapping of a query's judged documents to
docid ranks are Python loops (preference files are small: judgements, not runs); the pairs of a
group and the counts matrix are numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...data.arrays import sum_in_order

__all__ = ["PREFS_MEASURES", "PrefsError", "PrefsLists", "build_prefs_lists"]

#: the preference measures in trec_eval's table order
PREFS_MEASURES = (
    "prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp prefs_pair "
    "prefs_avgjg prefs_avgjg_Rnonrel prefs_simp_ret prefs_pair_ret prefs_avgjg_ret "
    "prefs_avgjg_Rnonrel_ret prefs_simp_imp prefs_pair_imp prefs_avgjg_imp"
).split()


class PrefsError(ValueError):
    """Preferences trec_eval refuses (a document at two levels of one sub-group, 0 and non-0
    levels for one document in one group, a preference cycle in a group)."""


@dataclass
class PrefsLists:
    """Per evaluated query (trec_eval's order), the value of every preference measure."""

    query_ids: List[str]
    values: Dict[str, np.ndarray]

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)


def _key(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@dataclass
class _Group:
    """One JG's counts (trec_eval's JG struct)."""

    ful_ret: int
    poss_ret: int
    ful_imp: int
    poss_imp: int
    notoccur: int
    num_rel: int
    num_rel_ret: int
    num_nonrel: int
    num_nonrel_ret: int
    rnonrel: Tuple[int, int]  # (ful, poss) of the Rnonrel recalculation, or (-1, -1)
    rnonrel_ret: Tuple[int, int]


def _area_counts(r1: np.ndarray, r2: np.ndarray, njr: int) -> Tuple[int, int, int, int, int]:
    """(ful_ret, poss_ret, ful_imp, poss_imp, notoccur) of preferences r1 > r2 (docid ranks)."""
    ret1, ret2 = r1 < njr, r2 < njr
    ful_ret = int(np.sum(ret1 & ret2 & (r1 < r2)))
    poss_ret = int(np.sum(ret1 & ret2))
    ful_imp = int(np.sum(ret1 & ~ret2))
    poss_imp = int(np.sum(ret1 ^ ret2))
    notoccur = int(np.sum(~ret1 & ~ret2))
    return ful_ret, poss_ret, ful_imp, poss_imp, notoccur


def _ec_group(ranks: np.ndarray, levels: np.ndarray, njr: int, ca: np.ndarray) -> _Group:
    """A JG of one sub-group: equivalence classes of levels (form_jg_ec, add_ec_pref_to_jg)."""
    order = np.lexsort((ranks, -levels))  # level descending, then docid rank
    ranks, levels = ranks[order], levels[order]
    ecs = np.concatenate([[0], np.flatnonzero(levels[1:] != levels[:-1]) + 1, [len(levels)]])
    ec_of = np.repeat(np.arange(len(ecs) - 1), np.diff(ecs))
    i, j = np.nonzero(ec_of[:, None] < ec_of[None, :])
    r1, r2 = ranks[i], ranks[j]
    if np.any(r1 == r2):
        raise PrefsError("a document occurs with different levels in one judgement sub-group")
    np.add.at(ca, (r1, r2), 1)
    counts = _area_counts(r1, r2, njr)
    rel = levels > 0.0
    ret = ranks < njr
    num_rel, num_rel_ret = int(rel.sum()), int((rel & ret).sum())
    num_nonrel, num_nonrel_ret = int((~rel).sum()), int((~rel & ret).sum())

    def recalc(retrieved_only: bool) -> Tuple[int, int]:
        # m_prefs_avgjg_Rnonrel*.c's recalculate: the classes but the last against each other,
        # then every class against the first R entries of the last (the nonrelevant) class
        last = ec_of == ec_of[-1]
        new_nonrel = ranks[last][: (num_rel_ret if retrieved_only else num_rel)]
        keep = ranks < njr if retrieved_only else np.ones(len(ranks), dtype=bool)
        a, b = np.nonzero((ec_of[:, None] < ec_of[None, :]) & ~last[None, :])
        a, b = a[keep[a] & keep[b]], b[keep[a] & keep[b]]
        x1, x2 = ranks[a], ranks[b]
        ful = int(np.sum((x1 < x2) & (True if retrieved_only else x1 < njr)))
        poss = len(x1) - ful
        y1 = ranks[keep]
        y2 = new_nonrel[new_nonrel < njr] if retrieved_only else new_nonrel
        hit = (y1[:, None] < y2[None, :]) & (True if retrieved_only else (y1 < njr)[:, None])
        ful += int(hit.sum())
        poss += hit.size - int(hit.sum())
        return ful, poss + ful

    rn = recalc(False) if num_rel < num_nonrel else (-1, -1)
    rnr = recalc(True) if num_rel_ret < num_nonrel_ret else (-1, -1)
    return _Group(*counts, num_rel, num_rel_ret, num_nonrel, num_nonrel_ret, rn, rnr)


def _closure(a: np.ndarray) -> np.ndarray:
    """The transitive closure of a boolean relation (with the diagonal, as trec_eval multiplies)."""
    r = a | np.eye(len(a), dtype=bool)
    while True:
        nxt = (r.astype(np.int64) @ r.astype(np.int64)) > 0
        if np.array_equal(nxt, r):
            return r
        r = nxt


def _pa_group(
    ranks: np.ndarray, levels: np.ndarray, jsgs: np.ndarray, nj: int, njr: int, ca: np.ndarray
) -> _Group:
    """A JG of several sub-groups: the preference array, closed transitively (form_jg_pa)."""
    order = np.lexsort((ranks, -levels, jsgs))  # jsg, then level descending, then docid rank
    ranks, levels, jsgs = ranks[order], levels[order], jsgs[order]
    rel_array = np.full(nj, -1.0)
    for r, lv in zip(ranks.tolist(), levels.tolist()):  # one entry per line of the group
        if (rel_array[r] > 0.0 and lv == 0.0) or (rel_array[r] == 0.0 and lv > 0.0):
            raise PrefsError("a document has both 0 and non-0 levels in one judgement group")
        rel_array[r] = lv
    docs = np.unique(ranks)
    local = np.searchsorted(docs, ranks)
    pref = np.zeros((len(docs), len(docs)), dtype=bool)
    same_jsg = jsgs[:, None] == jsgs[None, :]
    pi, pj = np.nonzero(same_jsg & (levels[:, None] > levels[None, :]))
    pref[local[pi], local[pj]] = True
    pref = _closure(pref)
    np.fill_diagonal(pref, False)
    if np.any(pref & pref.T):
        raise PrefsError("conflicting preferences in one judgement group")
    i, j = np.nonzero(pref)
    r1, r2 = docs[i], docs[j]
    np.add.at(ca, (r1, r2), 1)
    counts = _area_counts(r1, r2, njr)
    ret = np.arange(nj) < njr
    num_rel, num_rel_ret = int((rel_array > 0).sum()), int(((rel_array > 0) & ret).sum())
    num_nonrel, num_nonrel_ret = int((rel_array == 0).sum()), int(((rel_array == 0) & ret).sum())

    def recalc(retrieved_only: bool) -> Tuple[int, int]:
        limit = njr if retrieved_only else nj
        nonrel_at = np.flatnonzero(rel_array[:limit] == 0.0)
        first_discarded = int(nonrel_at[num_rel]) if len(nonrel_at) > num_rel else limit
        dropped = (np.arange(nj) >= first_discarded) & (rel_array == 0.0)
        ok = ~dropped[r1] & ~dropped[r2]
        x1, x2 = r1[ok], r2[ok]
        if retrieved_only:
            inside = (x1 < njr) & (x2 < njr)
            ful = int(np.sum(inside & (x1 < x2)))
            poss = int(np.sum(inside & (x1 > x2)))
        else:
            f_ret, p_ret, f_imp, p_imp, notoc = _area_counts(x1, x2, njr)
            ful = f_ret + f_imp
            poss = (p_ret - f_ret) + (p_imp - f_imp) + notoc
        return ful, poss + ful

    rn = recalc(False) if num_rel < num_nonrel else (-1, -1)
    rnr = recalc(True) if num_rel_ret < num_nonrel_ret else (-1, -1)
    return _Group(*counts, num_rel, num_rel_ret, num_nonrel, num_nonrel_ret, rn, rnr)


def _pair_sums(ca: np.ndarray, njr: int) -> Tuple[float, int, float, int, float, int]:
    """(sum, pairs) of prefs_pair, prefs_pair_ret and prefs_pair_imp from the counts matrix,
    each sum added in the C loops' order (rows, then columns)."""
    both = ca.astype(np.int32) + ca.T
    i, j = np.nonzero(np.triu(both > 0, 1))  # the pairs with a preference, row-major
    ratio = ca[i, j] / both[i, j].astype(np.float64)
    in_ret = j < njr
    cross = (i < njr) & (j >= njr)
    none_ret = int(np.sum(i >= njr))
    ret_terms = ratio[in_ret]  # row-major: the C loop's order
    imp_terms = np.concatenate([ret_terms, ratio[cross]])  # region 1, then region 2, as in C
    s_ret = sum_in_order(ret_terms)
    s_imp = sum_in_order(imp_terms)
    n_ret, n_imp = len(ret_terms), len(imp_terms)
    return s_imp, n_imp + none_ret, s_ret, n_ret, s_imp, n_imp


def _query_values(
    jg: np.ndarray, jsg: np.ndarray, docs: np.ndarray, levels: np.ndarray, ranked: Sequence[str]
) -> Dict[str, float]:
    judged = sorted(set(docs.tolist()), key=_key)
    judged_set = set(judged)
    retrieved = [d for d in ranked if d in judged_set]
    njr, nj = len(retrieved), len(judged)
    rank_of = {d: i for i, d in enumerate(retrieved)}
    seen = set(retrieved)
    for d in judged:
        if d not in seen:
            rank_of[d] = len(rank_of)
    ranks = np.fromiter((rank_of[d] for d in docs.tolist()), dtype=np.int64, count=len(docs))
    ca = np.zeros((nj, nj), dtype=np.uint16)  # trec_eval's counts are unsigned short
    groups: List[_Group] = []
    for g in sorted(set(jg.tolist()), key=_key):
        sel = jg == g
        if len(set(jsg[sel].tolist())) > 1:
            groups.append(_pa_group(ranks[sel], levels[sel], jsg[sel], nj, njr, ca))
        else:
            groups.append(_ec_group(ranks[sel], levels[sel], njr, ca))
    return _measures(groups, ca, njr)


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def _measures(groups: List[_Group], ca: np.ndarray, njr: int) -> Dict[str, float]:
    ful_ret = sum(g.ful_ret for g in groups)
    ful = ful_ret + sum(g.ful_imp for g in groups)
    poss_ret = sum(g.poss_ret for g in groups)
    poss_imp = poss_ret + sum(g.poss_imp for g in groups)
    poss = poss_imp + sum(g.notoccur for g in groups)
    out = {
        "prefs_num_prefs_poss": float(poss),
        "prefs_num_prefs_ful": float(ful),
        "prefs_num_prefs_ful_ret": float(ful_ret),
        "prefs_simp": _ratio(ful, poss),
        "prefs_simp_ret": _ratio(ful_ret, poss_ret),
        "prefs_simp_imp": _ratio(ful, poss_imp),
    }
    n = len(groups)
    for name, f, p in (
        ("prefs_avgjg", lambda g: g.ful_ret + g.ful_imp, lambda g: g.poss_ret + g.poss_imp + g.notoccur),
        ("prefs_avgjg_ret", lambda g: g.ful_ret, lambda g: g.poss_ret),
        ("prefs_avgjg_imp", lambda g: g.ful_ret + g.ful_imp, lambda g: g.poss_ret + g.poss_imp),
    ):
        total = 0.0
        for g in groups:
            if p(g):
                total += f(g) / p(g)
        out[name] = total / n if total > 0.0 else 0.0
    for name, retrieved_only in (("prefs_avgjg_Rnonrel", False), ("prefs_avgjg_Rnonrel_ret", True)):
        total = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            for g in groups:
                big_r = g.num_rel_ret if retrieved_only else g.num_rel
                big_n = g.num_nonrel_ret if retrieved_only else g.num_nonrel
                if big_r >= big_n:
                    if retrieved_only:
                        num_ful = g.ful_ret + g.num_rel_ret * (big_r - big_n)
                        num_poss = g.poss_ret + g.num_rel * (big_r - big_n)
                    else:
                        num_ful = g.ful_ret + g.ful_imp + g.num_rel_ret * (big_r - big_n)
                        num_poss = g.poss_ret + g.poss_imp + g.notoccur + g.num_rel * (big_r - big_n)
                else:
                    num_ful, num_poss = g.rnonrel_ret if retrieved_only else g.rnonrel
                total += float(np.float64(num_ful) / np.float64(num_poss))  # 0/0: nan, as in C
        out[name] = total / n if total > 0.0 else 0.0
    s, pairs, s_ret, pairs_ret, s_imp, pairs_imp = _pair_sums(ca, njr)
    out["prefs_pair"] = _ratio(s, pairs)
    out["prefs_pair_ret"] = _ratio(s_ret, pairs_ret)
    out["prefs_pair_imp"] = _ratio(s_imp, pairs_imp)
    return out


def build_prefs_lists(
    lines: Dict[str, Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    run: Dict[str, Tuple[np.ndarray, np.ndarray]],
    max_docs: Optional[int] = None,
    complete: bool = False,
) -> PrefsLists:
    """The preference measures of every evaluated query. ``lines``: per query, its preference
    lines as arrays (jg, jsg, docno, level); ``run``: per query, (docnos, scores)."""
    qids = list(lines) if complete else [q for q in run if q in lines]
    qids.sort(key=_key)
    values: Dict[str, List[float]] = {m: [] for m in PREFS_MEASURES}
    for q in qids:
        docs, scores = run.get(q, (np.zeros(0, dtype=object), np.zeros(0)))
        # score descending, ties by docno ascending (form_prefs_counts' comparator; numpy's str
        # order is code point order, the UTF-8 bytes' order)
        order = np.lexsort((np.asarray(docs, dtype=str), -np.asarray(scores, dtype=np.float64)))
        if max_docs is not None:
            order = order[: max(max_docs, 0)]
        ranked = np.asarray(docs, dtype=object)[order].tolist()
        for name, value in _query_values(*lines[q], ranked).items():
            values[name].append(value)
    return PrefsLists(qids, {m: np.asarray(v, dtype=np.float64) for m, v in values.items()})
