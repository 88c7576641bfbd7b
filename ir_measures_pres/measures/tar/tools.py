"""The two CLEF TAR tools' per-topic figures on screening lists: :func:`tar2017` (``tar_eval.py``)
and :func:`tar2018` (``tar_eval_2018.py``, 2018 and 2019), and the kernels they share with the
measures (WSS, the 2018 tool's recall positions, the lines seen up to a threshold flag).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Dict, Optional, Tuple

import numpy as np

from .screening import ScreeningLists

# --------------------------------------------------------------------------------------------
# the 2017 tool
# --------------------------------------------------------------------------------------------


def _decile_gains(lists: ScreeningLists, cg: np.ndarray, n_docs: np.ndarray) -> np.ndarray:
    """cg at the 2017 tool's ten checkpoints, per block (``(blocks, 10)``): with t = N // 10,
    every line i (all lines, NS too) that is a multiple of t sets the slots p >= int(10 i / N);
    so slot p holds cg of the last multiple i of t with int(10 i / N) <= p, or 0.

    The tool crashes when N < 10 (t = 0); here t is then 1 (every line is a checkpoint).
    """
    nb = lists.num_blocks
    q = lists.qidx
    i = lists.position()
    t = np.maximum(n_docs // 10, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = ((i.astype(np.float64) / n_docs[q].astype(np.float64)) * 10.0).astype(np.int64)
    check = (i % t[q] == 0) & (pos <= 9) & (n_docs[q] > 0)
    idx = np.flatnonzero(check)
    table = np.zeros((nb, 10), dtype=np.float64)
    has = np.zeros((nb, 10), dtype=bool)
    if len(idx):
        key = q[idx] * 10 + pos[idx]
        last = np.append(key[1:] != key[:-1], True)  # keys rise with i: the last of each wins
        table[q[idx][last], pos[idx][last]] = cg[idx][last]
        has[q[idx][last], pos[idx][last]] = True
    slot = np.where(has, np.arange(10), -1)
    slot = np.maximum.accumulate(slot, axis=1)
    return np.where(slot >= 0, np.take_along_axis(table, np.maximum(slot, 0), axis=1), 0.0)


def tar2017(
    lists: ScreeningLists,
    rel: int = 1,
    ca: float = 1.0,
    cf: float = 2.0,
    cp: float = 2.0,
    b: float = 100.0,
    codes: Optional[Dict[str, np.ndarray]] = None,
) -> Dict[str, np.ndarray]:
    """Every per-topic figure of the 2017 tool, one array per output (one value per block).

    ``codes`` as :func:`~.screening.codes_2017` gives them (None: every line shown, no feedback: the run
    has no column 2, e.g. a ranking). Besides the printed outputs it returns ``cgat`` (the
    ten checkpoint gains) and the flags ``wss_100_int``, ``wss_95_int``, ``total_cost_int``,
    ``total_cost_weighted_int`` where the tool's value is the integer 0 (printed ``0``).
    """
    m = len(lists.value)
    n_docs = lists.n_docs
    n_rel = lists.n_rel
    if codes is None:
        true = np.ones(m, dtype=bool)
        false = np.zeros(m, dtype=bool)
        codes = {"shown": true, "af": false, "cost_shown": true, "cost_af": false}
    shown = codes["shown"]
    relv = (lists.value >= rel) & (lists.value <= 2)
    rs = relv & shown
    n = lists.sum(shown.astype(np.float64)).astype(np.int64)
    found = lists.sum(rs.astype(np.float64)).astype(np.int64)
    k = lists.within(shown.astype(np.float64))  # rank among the shown lines
    cg = lists.within(rs.astype(np.float64))  # relevant shown so far (inclusive)
    last_rel = lists.last_of(rs, k).astype(np.int64)
    n_prime = np.maximum(n_docs, n).astype(np.float64)
    wss_100, reached_100 = _wss(lists, 1.0, "clef", rs, k, cg, n, found)
    wss_95, reached_95 = _wss(lists, 0.95, "clef", rs, k, cg, n, found)
    wss_100_int, wss_95_int = ~reached_100, ~reached_95

    cgat = _decile_gains(lists, cg, n_docs)

    # cost model: Ca per shown document, Cf more per feedback request, Cp per missed document
    cost_shown, cost_af = codes["cost_shown"], codes["cost_af"]
    total_cost = lists.sum(np.where(cost_shown, ca, 0.0) + np.where(cost_af, cf, 0.0))
    n_c = lists.sum(cost_shown.astype(np.float64))
    found_c = lists.sum((relv & cost_shown).astype(np.float64))
    mr = n_rel - found_c.astype(np.int64)
    nu = (n_docs - n_c).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        pu = np.where(n_rel > 0, ((nu * cp) * mr) / n_rel.astype(np.float64), 0.0)
    # weighted penalty: sum_{i=1}^{Mr-1} Nu Cp / 2^i, added term by term as the tool adds
    pw = np.zeros(lists.num_blocks)
    top = int(mr.max()) if len(mr) else 0
    for i in range(1, top):
        pw = np.where(i < mr, pw + (nu * cp) / 2.0**i, pw)
    total_cost_uniform = total_cost + pu
    total_cost_weighted = total_cost + pw
    lines_per_block = lists.lengths
    total_cost_int = lines_per_block == 0
    total_cost_weighted_int = total_cost_int & (mr < 2)

    # normalised area under the cumulative gain curve, the unshown documents at final gain
    area = lists.sum(np.where(shown, (cg - rs) + rs * 0.5, 0.0))
    area = area + np.where(n_docs > n, (n_docs - n) * found, 0)
    max_area = n_rel * n_prime - (n_rel * n_rel) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        norm_area = np.where(max_area > 0, area / max_area, 0.0)

    with np.errstate(divide="ignore", invalid="ignore"):
        ap_sum = lists.sum(np.where(rs, cg / k, 0.0))
        ap = np.where(n_rel > 0, ap_sum / n_rel.astype(np.float64), 0.0)
        r = np.where(n_rel > 0, found / n_rel.astype(np.float64), 0.0)
        loss_r = (1 - r) ** 2.0
        loss_e = (b / n_prime) ** 2.0 * (n / (n_rel + b)) ** 2.0
    loss_er = loss_r + loss_e
    return {
        "num_docs": n_docs,
        "num_rels": n_rel,
        "num_shown": n,
        "num_feedback": lists.sum(codes["af"].astype(np.float64)).astype(np.int64),
        "rels_found": found,
        "last_rel": last_rel,
        "wss_100": wss_100,
        "wss_95": wss_95,
        "cgat": cgat,
        "total_cost": total_cost,
        "total_cost_uniform": total_cost_uniform,
        "total_cost_weighted": total_cost_weighted,
        "norm_area": norm_area,
        "ap": ap,
        "r": r,
        "loss_e": loss_e,
        "loss_r": loss_r,
        "loss_er": loss_er,
        "wss_100_int": wss_100_int,
        "wss_95_int": wss_95_int,
        "total_cost_int": total_cost_int,
        "total_cost_weighted_int": total_cost_weighted_int,
    }


# --------------------------------------------------------------------------------------------
# the 2018 tool (2018 and 2019)
# --------------------------------------------------------------------------------------------

#: the 2018 tool's Task 1 rank cutoffs (recall@k)
TASK1_LEVELS = (50, 100, 200, 300, 400, 500, 1000, 2000, 3000, 4000, 5000)


def tar2018(
    lists: ScreeningLists, flags: np.ndarray, rel: int = 1, b: float = 100.0
) -> Dict[str, np.ndarray]:
    """Every per-topic figure of the 2018 tool (tasks 1 and 2; N comes with ``lists``).

    All lines are shown (ranking measures: num_shown, last_rel, wss, norm_area, ap, recall@);
    the lines up to and including the first one flagged 1 are *seen* (r, loss_*, total_cost);
    the threshold T is the line of the *last* flagged one (N when none).
    """
    f = tar2017(lists, rel=rel, b=b)
    nb = lists.num_blocks
    pos = lists.position().astype(np.float64)
    flagged = flags == 1
    relv = (lists.value >= rel) & (lists.value <= 2)
    cg = lists.within(relv.astype(np.float64))
    has_flag = lists.sum(flagged.astype(np.float64)) > 0
    threshold = np.where(has_flag, lists.last_of(flagged, pos), lists.n_docs).astype(np.int64)
    cg_at_t = lists.last_of(flagged, cg)
    cg_threshold = np.where(has_flag & (threshold != lists.n_docs), cg_at_t, f["rels_found"]).astype(
        np.float64
    )
    seen = seen_lines(lists, flags)
    loss = tar2017(lists, rel=rel, b=b, codes=all_shown(seen))
    found_seen = loss["rels_found"].astype(np.float64)
    n_rel = lists.n_rel.astype(np.float64)
    # utility: seen 1 (non-relevant) or -19 (relevant); unseen relevant 20; missed relevant 20
    per_line = np.where(seen, np.where(relv, -19.0, 1.0), np.where(relv, 20.0, 0.0))
    total_cost = lists.sum(per_line) + (n_rel - found_seen) * 20.0
    n_prime = np.maximum(lists.n_docs, f["num_shown"]).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm_last_rel = f["last_rel"] / n_prime
        norm_threshold = threshold / n_prime
        recall_threshold = np.where(n_rel > 0, cg_threshold / n_rel, 0.0)
    out = dict(f)
    out.update(
        {
            "norm_last_rel": norm_last_rel,
            "threshold": threshold,
            "norm_threshold": norm_threshold,
            "cg_threshold": cg_threshold,
            "recall_threshold": recall_threshold,
            "cg_pct": recall_2018_kernel(lists, np.arange(1, 101), rel) if nb else np.zeros((0, 100)),
            "total_cost_2018": total_cost,
            "r_seen": loss["r"],
            "loss_e_seen": loss["loss_e"],
            "loss_r_seen": loss["loss_r"],
            "loss_er_seen": loss["loss_er"],
            "rels_found_seen": found_seen,
            "num_seen": loss["num_shown"],
        }
    )
    # Task 1: cg at min(k, lines) for the fixed cutoffs
    ends = lists.offsets[:-1, None] + np.minimum(np.array(TASK1_LEVELS)[None, :], lists.lengths[:, None])
    at = np.where(lists.lengths[:, None] > 0, cg[np.maximum(ends - 1, 0)] if len(cg) else 0.0, 0.0)
    out["cg_at_k"] = at if nb else np.zeros((0, len(TASK1_LEVELS)))
    return out


# --------------------------------------------------------------------------------------------
# kernels shared with the measures
# --------------------------------------------------------------------------------------------


def wss_kernel(
    lists: ScreeningLists, recall: float, rel: int, rule: str, shown: Optional[np.ndarray] = None
) -> np.ndarray:
    """WSS at ``recall`` per block (see :class:`~.measures._WSS`); 0 where the target is not reached."""
    value, reached = wss_where_reached(lists, recall, rel, rule, shown)
    return np.where(reached, value, 0.0)


def wss_where_reached(
    lists: ScreeningLists, recall: float, rel: int, rule: str, shown: Optional[np.ndarray] = None
) -> Tuple[np.ndarray, np.ndarray]:
    """(WSS at ``recall`` per block, 0 where unreached; whether the target was reached)."""
    m = len(lists.value)
    shown = np.ones(m, dtype=bool) if shown is None else shown
    rs = (lists.value >= rel) & (lists.value <= 2) & shown
    k = lists.within(shown.astype(np.float64))
    cg = lists.within(rs.astype(np.float64))
    return _wss(
        lists, recall, rule, rs, k, cg, lists.sum(shown.astype(np.float64)), lists.sum(rs.astype(np.float64))
    )


def _wss(
    lists: ScreeningLists,
    recall: float,
    rule: str,
    rs: np.ndarray,
    k: np.ndarray,
    cg: np.ndarray,
    n: np.ndarray,
    found: np.ndarray,
) -> Tuple[np.ndarray, np.ndarray]:
    """The one computation of WSS, for the measure and the tools' ``wss_100``/``wss_95`` lines,
    from the running counts the caller has: ``rs`` the relevant shown lines, ``k`` and ``cg``
    their running rank and gain, ``n`` and ``found`` the shown and relevant shown per block.

    1 - r is taken in decimal (``recall=0.95`` subtracts the double nearest 0.05, as the tool's
    ``- 0.05`` does; in binary 1 - 0.95 is 0.050000000000000044)."""
    r_all = lists.n_rel.astype(np.float64)
    target = np.round(r_all * recall) if rule == "clef" else np.ceil(r_all * recall - 1e-12)
    k_t = lists.first_of(rs & (cg == target[lists.qidx]), k)
    n_prime = np.maximum(lists.n_docs, n).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = ((n_prime - k_t) / n_prime) - float(Decimal(1) - Decimal(repr(float(recall))))
    reached = (found >= target) & (lists.n_rel > 0)
    return np.where(reached, value, 0.0), reached


def recall_2018_kernel(lists: ScreeningLists, pct: np.ndarray, rel: int) -> np.ndarray:
    """cg at the 2018 tool's positions, one column per percentage in ``pct``: position
    round-half-even(N p / 100); a run shorter than it gets the gain at the largest position
    (of all 100) it reaches; 0 while no position is reached."""
    nb = lists.num_blocks
    rs = (lists.value >= rel) & (lists.value <= 2)
    cg = lists.within(rs.astype(np.float64))
    n_docs = lists.n_docs.astype(np.float64)
    grid = np.round(n_docs[:, None] * np.arange(1, 101)[None, :] / 100.0).astype(np.int64)  # (nb, 100)
    m = lists.lengths
    reached = (grid <= m[:, None]) & (grid >= 1)
    # the gain at each reached position; unreached ones take the last reached one before them
    safe = np.clip(grid - 1, 0, None) + lists.offsets[:-1, None]
    safe = np.minimum(safe, max(len(cg) - 1, 0))
    at = np.where(reached, cg[safe] if len(cg) else 0.0, 0.0)
    slot = np.where(reached, np.arange(100), -1)
    slot = np.maximum.accumulate(slot, axis=1)
    filled = np.where(slot >= 0, np.take_along_axis(at, np.maximum(slot, 0), axis=1), 0.0)
    cols = pct.astype(np.int64) - 1
    return filled[:, cols] if nb else np.zeros((0, len(cols)))


def all_shown(shown: np.ndarray) -> Dict[str, np.ndarray]:
    """The codes :func:`tar2017` reads (as :func:`~.screening.codes_2017` gives them) for a
    screening that shows the lines ``shown`` and no other, none with feedback (``af``)."""
    false = np.zeros(len(shown), dtype=bool)
    return {"shown": shown, "af": false, "cost_shown": shown, "cost_af": false}


def seen_lines(lists: ScreeningLists, flags: np.ndarray) -> np.ndarray:
    """2018: the lines up to and including the first flagged one of each block (all if none)."""
    flagged = (flags == 1).astype(np.float64)
    before = lists.within(flagged) - flagged  # flagged lines strictly before
    return before == 0
