"""``ir_measures_pres tar``: the CLEF TAR tools' output, computed by :mod:`ir_measures_pres.measures.tar`.

Usage::

    ir_measures_pres tar QRELS RUN [RUN ...] [--edition 2017|2018] [--task 1|2] [--rel N]
                         [--format tool|tsv|jsonl] [--notices stderr|stdout]

For each run, in the order given, the lines the official tool prints (``tar_eval.py`` for
``--edition 2017``; ``tar_eval_2018.py TASK`` for ``--edition 2018``, the default, which is also
the 2019 tool): per evaluated topic ``topic<TAB>name<TAB>value`` with the tool's names, order,
rounding and number formatting, then the ``ALL`` block with the tool's aggregation. The tool's
notices (``Skipping topic: Q`` for a topic without relevant documents, ``Q Duplicate D`` for a
document screened twice) go to standard error, or with ``--notices stdout`` where the tool
prints them, so that the output is the tool's byte for byte. ``--format tsv`` prints
``query_id<TAB>measure<TAB>value`` rows (a ``run`` column first when several runs are given)
and ``jsonl`` one object per row, both with unrounded values. docs/tar.md has the details.

Exit status: 0 on success, 1 for an input error (one line ``ir_measures_pres: error: FILE:LINE:
what was expected, what was found``), 2 for a usage error.
"""

from __future__ import annotations

import json
import sys
import warnings
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..data.inputs import InputError
from ._command import (
    INPUT_ERRORS,
    PROG,
    ArgumentParser,
    add_jobs_option,
    guarded,
    input_error_text,
    jobs_of,
    split_debug,
)

#: one output line of the tool: (name, per-topic values, how ALL aggregates them)
_Line = Tuple[str, List[Any], str]


def _parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=f"{PROG} tar",
        description="Evaluate technology-assisted review runs as the CLEF TAR tools do "
        "(tar_eval.py 2017, tar_eval_2018.py 2018/2019); the run's line order is the screening order.",
    )
    parser.add_argument("qrels", metavar="QRELS", help="qrels file (topic 0 docno value)")
    parser.add_argument("runs", metavar="RUN", nargs="+", help="run file(s), lines in screening order")
    parser.add_argument(
        "--edition", choices=["2017", "2018"], default="2018", help="which tool (default 2018)"
    )
    parser.add_argument(
        "--task", type=int, choices=[1, 2], default=None, help="2018 tool's task: 1 (N = 5000) or 2 (default)"
    )
    parser.add_argument(
        "--rel",
        type=int,
        choices=[1, 2],
        default=1,
        help="lowest relevant value (2: content level of graded qrels)",
    )
    parser.add_argument("--format", dest="fmt", choices=["tool", "tsv", "jsonl"], default="tool")
    parser.add_argument(
        "--notices",
        choices=["stderr", "stdout"],
        default="stderr",
        help="where the tool's notices go (stdout: where the tool prints them)",
    )
    add_jobs_option(parser, "the runs, when there are several")
    return parser


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


def _aggregate(values: List[Any], how: str) -> Any:
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
# one run
# --------------------------------------------------------------------------------------------


class Evaluation:
    """The tool's output for one run: per evaluated topic its lines, then ALL; and the notices."""

    def __init__(self, edition: str, task: int, rel: int) -> None:
        self.edition = edition
        self.task = task
        self.rel = rel

    def run(self, qrels: Any, cols: Any) -> Tuple[List[Tuple[str, str, Any]], List[Tuple[int, str]]]:
        """(rows (topic, name, value), notices (row index before which it goes, text))."""
        from ..measures.tar import codes_2017, flags_2018, from_file_order

        lists = from_file_order(qrels, cols, rel=self.rel, task=self.task)
        if self.edition == "2017":
            figures = _lines_2017(lists, codes_2017(lists, "the 2017 TAR measures"), self.rel)
        else:
            figures = _lines_2018(lists, flags_2018(lists, "the 2018 TAR measures"), self.task, self.rel)
        evaluated = np.flatnonzero(lists.n_rel > 0).tolist()
        rows: List[Tuple[str, str, Any]] = []
        notices: List[Tuple[int, str]] = []
        dups: Dict[str, List[str]] = {}
        for q, d, _ in getattr(cols, "duplicates", ()):
            dups.setdefault(q, []).append(d)
        position = {b: j for j, b in enumerate(evaluated)}
        for b, qid in enumerate(lists.query_ids):
            if b not in position:
                notices.append((len(rows), f"Skipping topic: {qid}"))
                continue
            for d in dups.get(qid, ()):
                notices.append((len(rows), f"{qid} Duplicate {d}"))
            j = position[b]
            for name, values, _ in figures:
                rows.append((qid, name, values[j]))
        k = len(evaluated)
        for name, values, how in figures:
            value = (values[k] if len(values) > k else 0.0) if how in ("micro", "given") else None
            rows.append(("ALL", name, _aggregate(values[:k], how) if value is None else value))
        return rows, notices


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


def _lines_2017(lists: Any, codes: Dict[str, np.ndarray], rel: int = 1) -> List[_Line]:
    from ..measures.tar import tar2017

    f = tar2017(lists, rel=rel, codes=codes)
    ev = _evaluated(lists)

    ints, floats = _figures(f, ev)

    n_rel = ints("num_rels")
    lines: List[_Line] = [
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


def _lines_2018(lists: Any, flags: np.ndarray, task: int, rel: int = 1) -> List[_Line]:
    from ..measures.tar import TASK1_LEVELS, tar2018

    f = tar2018(lists, flags, rel=rel)
    ev = _evaluated(lists)

    ints, floats = _figures(f, ev)

    def rounded(values: List[float], places: int) -> List[Any]:
        return [round(v, places) for v in values]

    n_rel = ints("num_rels")
    lines: List[_Line] = [
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
        mean_found, mean_max, mean_seen = (_aggregate(x, "mean0.0") for x in (found, max_cg, seen))
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
            ("recall_threshold", num_seen + [str(round(_aggregate(num_seen, "mean"), 3))], "given"),
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
        ("cg_total", [round(v, 0) for v in cg_total] + [round(_aggregate(cg_total, "mean0.0"), 0)], "given"),
        ("cg_max", [round(v, 0) for v in cg_max] + [round(_aggregate(cg_max, "mean0.0"), 0)], "given"),
        ("cg_threshold", [round(v, 0) for v in cg_thr] + [round(_aggregate(cg_thr, "mean0.0"), 0)], "given"),
        (
            "recall_threshold",
            rounded(floats("recall_threshold"), 3)
            + [round(_aggregate(floats("recall_threshold"), "mean0.0"), 3)],
            "given",
        ),
        ("threshold", ints("threshold") + [_aggregate(ints("threshold"), "mean")], "given"),
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
# command
# --------------------------------------------------------------------------------------------


def _write(
    out: Any,
    err: Any,
    fmt: str,
    notices_to: str,
    run_name: str,
    several: bool,
    rows: List[Tuple[str, str, Any]],
    notices: List[Tuple[int, str]],
    show: Callable[[Any], str],
) -> None:
    pending = iter(notices)
    nxt = next(pending, None)

    def flush_notices(upto: int) -> Iterator[str]:
        nonlocal nxt
        while nxt is not None and nxt[0] <= upto:
            yield nxt[1]
            nxt = next(pending, None)

    for i, (qid, name, value) in enumerate(rows):
        for text in flush_notices(i):
            (out if notices_to == "stdout" and fmt == "tool" else err).write(text + "\n")
        if fmt != "tool" and isinstance(value, str) and name != "topic_id":
            value = float(value)  # a value the tool formats itself (Task 1 recall_threshold's ALL)
        if fmt == "tool":
            out.write(f"{qid}\t{name}\t{show(value)}\n")
        elif fmt == "tsv":
            prefix = f"{run_name}\t" if several else ""
            out.write(f"{prefix}{qid}\t{name}\t{value}\n")
        else:
            out.write(json.dumps({"run": run_name, "query_id": qid, "measure": name, "value": value}) + "\n")
    for text in flush_notices(len(rows)):
        (out if notices_to == "stdout" and fmt == "tool" else err).write(text + "\n")


def evaluate_many(
    qrels_paths: Sequence[Any],
    run_paths: Sequence[Any],
    edition: str = "2018",
    task: int = 2,
    rel: int = 1,
    jobs: int = 1,
) -> List[List[Tuple[List[Tuple[str, str, Any]], List[Tuple[int, str]]]]]:
    """The tool's rows and notices for every (qrels, run) pair, each file read once: per qrels,
    per run, ``(rows, notices)`` as :meth:`Evaluation.run` gives them (format them with
    :func:`value_2017` / :func:`value_2018`); ``jobs`` processes score the runs side by side.
    Raises :class:`~._inputs.InputError` on bad input."""
    from ..data.qrels import Qrels
    from ..data.readers import read_qrels

    evaluation = Evaluation(edition, task, rel)
    qrels = [Qrels.from_any(read_qrels(path, doc_ids="bytes")) for path in qrels_paths]
    per_run = list(_scored_runs(evaluation, qrels, run_paths, jobs))
    return [[results[i] for results in per_run] for i in range(len(qrels))]


def _scored_runs(
    evaluation: "Evaluation", qrels: Sequence[Any], run_paths: Sequence[Any], jobs: int
) -> Iterator[Any]:
    """Per run, in order, its ``(rows, notices)`` against each of ``qrels``: each run read once,
    the runs scored by ``jobs`` forked processes (:mod:`._forks`; in this process when a run
    comes from standard input, which forked processes lack). An input error (file and line)
    is raised when its run's turn comes."""
    from ..data.forks import forked_map
    from ..data.readers import read_run

    def score(path: Any) -> Tuple[Optional[List[Any]], Optional[str]]:
        try:
            with warnings.catch_warnings():
                # the repeated documents are reported as the tool reports them (notices)
                warnings.simplefilter("ignore")
                cols = read_run(path, doc_ids="bytes", order="file")
            return [evaluation.run(q, cols) for q in qrels], None
        except INPUT_ERRORS as error:
            return None, input_error_text(error)  # the text travels back from a fork, as it is

    for results, error in forked_map(score, run_paths, 1 if "-" in run_paths else jobs):
        if error is not None:
            raise InputError(error)
        yield results


def tar_cli(argv: Sequence[str], out: Any = None, err: Any = None) -> int:
    """The ``tar`` subcommand (``argv`` without the word ``tar``); returns the exit status."""
    from ..data.qrels import Qrels
    from ..data.readers import read_qrels

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.edition == "2017" and args.task is not None:
        parser.error("--task belongs to the 2018 tool (--edition 2018); the 2017 tool has no tasks")
    task = 2 if args.task is None else args.task
    if args.qrels == "-" and "-" in args.runs or args.runs.count("-") > 1:
        parser.error("only one file can be read from standard input ('-')")
    show = value_2017 if args.edition == "2017" else value_2018
    evaluation = Evaluation(args.edition, task, args.rel)
    qrels = Qrels.from_any(read_qrels(args.qrels, doc_ids="bytes"))
    scored = _scored_runs(evaluation, [qrels], args.runs, jobs_of(args.jobs))
    for path, [(rows, notices)] in zip(args.runs, scored):
        _write(out, err, args.fmt, args.notices, path, len(args.runs) > 1, rows, notices, show)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``tar`` subcommand (``argv`` without the word ``tar``): errors become one line and an
    exit status (:func:`~ir_measures_pres.cli._command.guarded`)."""
    args, debug = split_debug(sys.argv[2:] if argv is None else argv)
    return guarded(lambda: tar_cli(args), debug)
