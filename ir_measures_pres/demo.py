"""Evaluate the bundled sample collection with our measures next to AP and nDCG.

    python -m ir_measures_pres.demo

The sample is trec_eval's own public test collection (TREC topics 301-303, binary qrels, one run
of 1,500 lines), shipped in ``ir_measures_pres/data``. The standard measures come from
pytrec_eval through ir_measures; ours from this package, in one ``calc_aggregate`` call.
"""

from __future__ import annotations

import sys
from importlib import resources
from typing import Any, Dict, List, Optional

import ir_measures

import ir_measures_pres  # noqa: F401  (registers the measures)

MEASURES = [
    "AP",
    "nDCG@10",
    "R@1000",
    "PRES@100",
    "PRES@1000",
    "R_norm(collection_size=500000)",
    "QMeasure",
    "OMeasure",
    "PMeasure",
    "PPlusMeasure",
    "Bpref10",
    "Bpref10(variant='old')",
]


def sample_paths() -> "tuple[str, str]":
    """Paths of the bundled qrels and run (trec_eval's test collection)."""
    data = resources.files("ir_measures_pres") / "data" / "sample"
    return str(data / "qrels.test"), str(data / "results.test")


def main(argv: Optional[List[str]] = None) -> int:
    qrels_path, run_path = sample_paths()
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    run = list(ir_measures.read_trec_run(run_path))
    measures = [ir_measures.parse_measure(m) for m in MEASURES]
    per_query: Dict[Any, Dict[str, float]] = {}
    for metric in ir_measures.iter_calc(measures, qrels, run):
        per_query.setdefault(metric.measure, {})[metric.query_id] = metric.value
    means = ir_measures.calc_aggregate(measures, qrels, run)
    qids = sorted({q.query_id for q in qrels})
    print(f"qrels: {qrels_path}\nrun:   {run_path}\n")
    width = max(len(str(m)) for m in measures)
    print(f"{'measure':<{width}}  " + "  ".join(f"{q:>7}" for q in qids) + "      all")
    for m in measures:
        cells = "  ".join(f"{per_query[m].get(q, m.DEFAULT):7.4f}" for q in qids)
        print(f"{str(m):<{width}}  {cells}  {means[m]:7.4f}")
    print("\nStandard measures: pytrec_eval via ir_measures; the others: ir_measures_pres.")
    return 0


def run(argv: Optional[List[str]] = None) -> int:
    """``python -m ir_measures_pres.demo``: :func:`main` as the commands run (quiet on Ctrl-C,
    130; a reader that closes the pipe, ``| head``: quiet, 141; docs/cli.md, "Exit status")."""
    from .cli import guarded

    return guarded(lambda: main(argv))


if __name__ == "__main__":
    sys.exit(run())
