"""sample_eval.pl's printed lines for a run (``ir_measures_pres sampled QRELS RUN...``), from the
figures :func:`~ir_measures_pres.measures.sampled.sample_eval.sample_eval_run` computes.

With ``per_topic`` (the tool's ``-q``), per topic in numeric order: ``infAP``, ``infNDCG``,
``iP<k>`` for the variant's ranks, ``inum_rel_ret``, ``inum_rel``, ``num_ret``; then the ``all``
lines: infAP, infNDCG, the 11 ``iprec@rec`` points, the iP's, the sums ``inum_rel_ret`` and
``inum_rel``, the deduplicated and capped ``num_ret``; with the tool's tabs, widths and ``%6.4f``.
"""

from __future__ import annotations

from typing import List

from ..measures.sampled.estimators import RECALL_LEVELS
from ..measures.sampled.sample_eval import SampleEvalRun

__all__ = ["lines"]


def lines(result: SampleEvalRun, per_topic: bool) -> str:
    """What ``sample_eval.pl [-q] QRELS RUN`` prints for the run's figures."""
    lines: List[str] = []
    add = lines.append
    for i, t in enumerate(result.topics if per_topic else ()):
        add(f"infAP\t\t{t}\t\t{result.ap[i]:6.4f}\n")
        add(f"infNDCG\t\t{t}\t\t{result.ndcg[i]:6.4f}\n")
        for k, values in zip(result.ranks, result.precision):
            add(f"iP{k}\t\t{t}\t\t{values[i]:6.4f}\n")
        add(f"inum_rel_ret\t{t}\t{result.rel_ret[i]:14.4f}\n")
        add(f"inum_rel\t{t}\t{result.num_rel[i]:14.4f}\n")
        add(f"num_ret\t\t{t}\t{result.lines[i]:9d}\n")
    add(f"infAP\t\tall\t\t{result.mean_ap:6.4f}\n")
    add(f"infNDCG\t\tall\t\t{result.mean_ndcg:6.4f}\n")
    for j, mean in enumerate(result.mean_iprec):
        add(f"iprec@rec{RECALL_LEVELS[j]:4.2f}\tall\t\t{mean:6.4f}\n")
    for k, mean in zip(result.ranks, result.mean_precision):
        add(f"iP{k}\t\tall\t\t{mean:6.4f}\n")
    add(f"inum_rel_ret\tall\t{result.sum_rel_ret:14.4f}\n")
    add(f"inum_rel\tall\t{result.sum_rel:14.4f}\n")
    add(f"num_ret\t\tall\t{result.num_ret:9d}\n")
    return "".join(lines)
