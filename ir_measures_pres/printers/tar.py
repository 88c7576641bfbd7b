"""The lines the CLEF TAR tools print for a run: per evaluated topic the tool's names, order and
rounding (:func:`table_2017`, :func:`table_2018`, from the per-topic figures
:func:`~ir_measures_pres.measures.tar.tools.tar2017` / ``tar2018`` compute), the ALL values as the
tools aggregate them (:func:`aggregate`), the rows of a run in the tool's order with its notices
(:func:`rows`), the tools' ``print`` of a value (:func:`value_2017`, :func:`value_2018`) and the
lines of those rows (:func:`lines`: the tool's, or ``tsv`` / ``jsonl`` rows). Formatting only:
the ``tar`` command's run scoring (:mod:`ir_measures_pres.engine.tar`) computes the figures.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..measures.tar.tools import TASK1_LEVELS

__all__ = [
    "aggregate",
    "lines",
    "notice_lines",
    "notices_inline",
    "rows",
    "table_2017",
    "table_2018",
    "value_2017",
    "value_2018",
]

#: one output line of the tool: (name, per-topic values, how ALL aggregates them)
Line = Tuple[str, List[Any], str]
#: a run's rows: (topic or ALL, name, value), and its notices: (row index before which it goes, text)
Rows = List[Tuple[str, str, Any]]
Notices = List[Tuple[int, str]]


# --------------------------------------------------------------------------------------------
# the tools' number formatting and aggregation
# --------------------------------------------------------------------------------------------


def value_2017(v: Any) -> str:
    """The 2017 tool's ``print``: floats through ``round(v, 3)``, everything else as is."""
    return str(round(v, 3)) if isinstance(v, float) else str(v)


def value_2018(v: Any) -> str:
    """The 2018 tool's ``print``: floats below 1 through ``round(v, 3)``, others ``round(v, 0)``
    (values its own print lines format otherwise come here already formatted, as ``str``)."""
    if isinstance(v, float):
        return str(round(v, 3) if v < 1 else round(v, 0))
    return str(v)


def aggregate(values: List[Any], how: str) -> Any:
    """ALL as the tool makes it: a running ``total + v`` from the initial value, in topic order
    (not ``sum``, which compensates rounding since Python 3.12), divided for a mean."""
    if how == "id":
        return "ALL"
    total: Any = 0.0 if how in ("mean0.0", "sum0.0") else 0
    for v in values:
        total = total + v
    if how.startswith("mean") and values:
        total = total / float(len(values))
    return total


def _micro(cg: List[List[float]], n_rel: List[int], width: int) -> List[float]:
    """Per checkpoint, mean cg / mean R over the topics (the tools' ALL for recall curves)."""
    k = len(n_rel)
    totals = [0.0] * width
    max_cg = 0.0
    for row, r in zip(cg, n_rel):
        for j in range(width):
            totals[j] = totals[j] + row[j]
        max_cg = max_cg + float(r)
    if k:
        totals = [t / float(k) for t in totals]
        max_cg = max_cg / float(k)
    return [round(t / max_cg, 3) if max_cg > 0.0 else 0.0 for t in totals]


# --------------------------------------------------------------------------------------------
# per-topic lines
# --------------------------------------------------------------------------------------------


def _evaluated(lists: Any) -> np.ndarray:
    """The blocks the tools evaluate: topics with a relevant document (the others are skipped)."""
    return np.flatnonzero(lists.n_rel > 0)


def _figures(
    f: Dict[str, np.ndarray], ev: np.ndarray
) -> Tuple[Callable[[str], List[Any]], Callable[..., List[Any]]]:
    """Readers of the tool's per-topic figures ``f`` for the evaluated topics ``ev``: as ints,
    and as floats (with ``as_int``: the int 0 where that flag figure is set, as the tool prints it)."""

    def ints(name: str) -> List[Any]:
        return [int(v) for v in f[name][ev].tolist()]

    def floats(name: str, as_int: Optional[str] = None) -> List[Any]:
        vals = [float(v) for v in f[name][ev].tolist()]
        if as_int is None:
            return vals
        return [0 if z else v for v, z in zip(vals, f[as_int][ev].tolist())]

    return ints, floats


def table_2017(f: Dict[str, np.ndarray], lists: Any) -> List[Line]:
    """The 2017 tool's lines from its per-topic figures ``f`` (:func:`~..measures.tar.tools.tar2017`)
    on ``lists``: per line its name, the evaluated topics' values and how ALL makes them one."""
    ev = _evaluated(lists)

    ints, floats = _figures(f, ev)

    n_rel = ints("num_rels")
    lines: List[Line] = [
        ("topic_id", [lists.query_ids[b] for b in ev.tolist()], "id"),
        ("num_docs", ints("num_docs"), "sum"),
        ("num_rels", n_rel, "sum"),
        ("num_shown", ints("num_shown"), "sum"),
        ("num_feedback", ints("num_feedback"), "sum"),
        ("rels_found", ints("rels_found"), "sum"),
        ("last_rel", ints("last_rel"), "mean"),
        ("wss_100", floats("wss_100", "wss_100_int"), "mean0.0"),
        ("wss_95", floats("wss_95", "wss_95_int"), "mean0.0"),
    ]
    cgat = f["cgat"][ev].tolist()
    all_ncg = _micro(cgat, n_rel, 10)
    for j in range(10):
        per = [round(float(row[j]) / float(r), 3) for row, r in zip(cgat, n_rel)]
        lines.append((f"NCG@{10 * (j + 1)}", per + [all_ncg[j]], "micro"))
    lines += [
        ("total_cost", floats("total_cost", "total_cost_int"), "mean"),
        ("total_cost_uniform", floats("total_cost_uniform"), "mean0.0"),
        ("total_cost_weighted", floats("total_cost_weighted", "total_cost_weighted_int"), "mean0.0"),
        ("norm_area", [round(v, 3) for v in floats("norm_area")], "mean0.0"),
        ("ap", floats("ap"), "mean0.0"),
        ("r", floats("r"), "mean0.0"),
        ("loss_e", floats("loss_e"), "mean0.0"),
        ("loss_r", floats("loss_r"), "mean0.0"),
        ("loss_er", floats("loss_er"), "mean0.0"),
    ]
    return lines


def table_2018(f: Dict[str, np.ndarray], lists: Any, task: int) -> List[Line]:
    """The 2018 tool's lines (``task`` 1 or 2) from its per-topic figures ``f``
    (:func:`~..measures.tar.tools.tar2018`) on ``lists``."""
    ev = _evaluated(lists)

    ints, floats = _figures(f, ev)

    def rounded(values: List[float], places: int) -> List[Any]:
        return [round(v, places) for v in values]

    n_rel = ints("num_rels")
    lines: List[Line] = [
        ("num_shown", ints("num_shown"), "sum"),
        ("rels_found", ints("rels_found"), "sum"),
        ("num_rels", n_rel, "sum"),
        ("last_rel", ints("last_rel"), "mean"),
        ("norm_last_rel", rounded(floats("norm_last_rel"), 3), "mean0.0"),
        ("threshold", ints("threshold"), "mean"),
        ("norm_threshold", rounded(floats("norm_threshold"), 3), "mean0.0"),
        ("wss_100", floats("wss_100", "wss_100_int"), "mean0.0"),
        ("wss_95", floats("wss_95", "wss_95_int"), "mean0.0"),
    ]
    cost = [
        ("total_cost", floats("total_cost_2018"), "mean"),
        ("norm_area", rounded(floats("norm_area"), 3), "mean0.0"),
        ("ap", floats("ap"), "mean0.0"),
    ]
    if task == 1:
        found = floats("rels_found")
        seen = floats("rels_found_seen")
        num_seen = ints("num_seen")
        max_cg = [float(r) for r in n_rel]
        mean_found, mean_max, mean_seen = (aggregate(x, "mean0.0") for x in (found, max_cg, seen))
        lines += cost
        lines += [
            ("recall_total", [round(v, 0) for v in found] + [round(mean_found, 0)], "given"),
            ("recall_max", [round(v, 0) for v in max_cg] + [round(mean_max, 0)], "given"),
            (
                "recall_at_threshold",
                [round(s / m, 3) for s, m in zip(seen, max_cg)]
                + [round(mean_seen / mean_max, 3) if mean_max > 0 else 0.0],
                "given",
            ),
            # a count printed through round(v, 3): the ALL mean keeps 3 places (not the 2018 rule)
            ("recall_threshold", num_seen + [str(round(aggregate(num_seen, "mean"), 3))], "given"),
        ]
        at_k = f["cg_at_k"][ev].tolist()
        micro = _micro(at_k, n_rel, len(TASK1_LEVELS))
        for j, level in enumerate(TASK1_LEVELS):
            per = [round(float(row[j]) / float(r), 3) for row, r in zip(at_k, n_rel)]
            lines.append((f"recall@{level}", per + [micro[j]], "given"))
        return lines
    cg_total = floats("rels_found")
    cg_max = [float(r) for r in n_rel]
    cg_thr = floats("cg_threshold")
    lines += [
        ("cg_total", [round(v, 0) for v in cg_total] + [round(aggregate(cg_total, "mean0.0"), 0)], "given"),
        ("cg_max", [round(v, 0) for v in cg_max] + [round(aggregate(cg_max, "mean0.0"), 0)], "given"),
        ("cg_threshold", [round(v, 0) for v in cg_thr] + [round(aggregate(cg_thr, "mean0.0"), 0)], "given"),
        (
            "recall_threshold",
            rounded(floats("recall_threshold"), 3)
            + [round(aggregate(floats("recall_threshold"), "mean0.0"), 3)],
            "given",
        ),
        ("threshold", ints("threshold") + [aggregate(ints("threshold"), "mean")], "given"),
    ]
    cg_pct = f["cg_pct"][ev].tolist()
    micro = _micro(cg_pct, n_rel, 100)
    for j in range(100):
        per = [round(float(row[j]) / float(r), 3) for row, r in zip(cg_pct, n_rel)]
        lines.append((f"recall@{float(j + 1)}%", per + [micro[j]], "given"))
    lines += cost
    lines += [
        ("r", floats("r_seen"), "mean0.0"),
        ("loss_e", floats("loss_e_seen"), "mean0.0"),
        ("loss_r", floats("loss_r_seen"), "mean0.0"),
        ("loss_er", floats("loss_er_seen"), "mean0.0"),
    ]
    return lines


# --------------------------------------------------------------------------------------------
# a run's rows and their lines
# --------------------------------------------------------------------------------------------


def rows(
    table: List[Line], lists: Any, duplicates: Iterable[Tuple[str, str, Any]] = ()
) -> Tuple[Rows, Notices]:
    """The rows the tool prints for a run, per evaluated topic its lines then ALL, and its notices
    (``Skipping topic: Q`` for a topic without relevant documents, ``Q Duplicate D`` per document
    of ``duplicates`` (topic, document, line) screened twice), each before the row it precedes."""
    evaluated = _evaluated(lists).tolist()
    out: Rows = []
    notices: Notices = []
    dups: Dict[str, List[str]] = {}
    for q, d, _ in duplicates:
        dups.setdefault(q, []).append(d)
    position = {b: j for j, b in enumerate(evaluated)}
    for b, qid in enumerate(lists.query_ids):
        if b not in position:
            notices.append((len(out), f"Skipping topic: {qid}"))
            continue
        for d in dups.get(qid, ()):
            notices.append((len(out), f"{qid} Duplicate {d}"))
        j = position[b]
        for name, values, _ in table:
            out.append((qid, name, values[j]))
    k = len(evaluated)
    for name, values, how in table:
        value = (values[k] if len(values) > k else 0.0) if how in ("micro", "given") else None
        out.append(("ALL", name, aggregate(values[:k], how) if value is None else value))
    return out, notices


def notices_inline(fmt: str, notices_to: str) -> bool:
    """Whether the notices go among the lines (``--notices stdout`` with the tool's format, where
    the tool prints them) rather than to standard error (:func:`notice_lines`)."""
    return notices_to == "stdout" and fmt == "tool"


def lines(
    run_rows: Rows,
    notices: Notices,
    edition: str,
    fmt: str = "tool",
    run_name: str = "",
    several: bool = False,
    with_notices: bool = False,
) -> str:
    """What is printed for a run's rows (:func:`rows`): with ``fmt`` ``tool`` the tool's lines,
    ``topic<TAB>name<TAB>value`` (the ``edition``'s print of the value) and, with ``several``
    runs, an ``ALL<TAB>runid<TAB>NAME`` line first (trec_eval's ``runid`` line, in the tool's
    order); ``tsv`` rows ``[run<TAB>]query_id<TAB>measure<TAB>value`` (the run column with
    ``several``), ``jsonl`` one object per row. ``with_notices``: the notices among the lines,
    each before its row (else :func:`notice_lines` gives them)."""
    show = value_2017 if edition == "2017" else value_2018
    parts: List[str] = []
    write = parts.append
    if several and fmt == "tool":
        write(f"ALL\trunid\t{run_name}\n")
    pending = iter(notices if with_notices else ())
    nxt = next(pending, None)
    for i, (qid, name, value) in enumerate(run_rows):
        while nxt is not None and nxt[0] <= i:
            write(nxt[1] + "\n")
            nxt = next(pending, None)
        if fmt != "tool" and isinstance(value, str) and name != "topic_id":
            value = float(value)  # a value the tool formats itself (Task 1 recall_threshold's ALL)
        if fmt == "tool":
            write(f"{qid}\t{name}\t{show(value)}\n")
        elif fmt == "tsv":
            prefix = f"{run_name}\t" if several else ""
            write(f"{prefix}{qid}\t{name}\t{value}\n")
        else:
            write(json.dumps({"run": run_name, "query_id": qid, "measure": name, "value": value}) + "\n")
    while nxt is not None:
        write(nxt[1] + "\n")
        nxt = next(pending, None)
    return "".join(parts)


def notice_lines(notices: Sequence[Tuple[int, str]]) -> str:
    """The notices as the tool prints them, one a line (for standard error)."""
    return "".join(text + "\n" for _, text in notices)
