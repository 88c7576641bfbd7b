"""statAP_MQ_eval_v3.pl's printed output (``ir_measures_pres sampled --tool statap PRELS RUN...``),
computed by :mod:`ir_measures_pres.measures.statap`.

For each run, in the order given, what ``perl statAP_MQ_eval_v3.pl [-q] PRELS RUN`` prints,
except its nDCG and its variance estimates (docs/judgements.md says why): with ``-q``
(``per_topic``) a block per topic that both the prels and the run have, topics in numeric order::

    <empty line>
    <TAB>topic=303  NEU
    <TAB>Relevant=9.000000  sampled=79 sampled_relev=7
    <TAB>sampled_in_list=73  sampled_relev_in_list=7
    <TAB>AP=0.103038  R-prec=0.000000  Prec_at_30=0.033333

(``NEU`` followed by a space; ``MIXED`` for a topic with UMass and NEU judgements; a topic
without NEU judgements prints ``UMASS`` on its topic line and nothing else; one without a
relevant document sampled prints ``AP=NA--no relevant docs  R-prec=NA--no relevant docs
Prec_at_30=0`` with ``sampled_in_list=0  sampled_relev_in_list=0``, as the tool does), then the
summary, means over the topics scored (the tool's "valid topics")::

    <empty line>
     valid_topics=100
     statMAP_on_valid_topics=0.273077209361147
     statMRP_on_valid_topics=0.28847318424216
     statMPC_30 _on_valid_topics=0.255666666666667 <space>
    <empty line>

Every line is the tool's, byte for byte, with three differences, all removals: the AP line
ends after ``Prec_at_30=...`` (the tool goes on with ``  nDCG=...``), the tool's ``varAP=`` line
of each topic is not printed, and the summary's MAP line ends after the mean (the tool goes on
with ``    VAR_MAP=... ``) and its ``statMNDCG_on_valid_topics`` line is not printed. Numbers
are formatted as Perl formats them (``%f`` for the per-topic values, 15 significant digits for
the means), from the same additions in the same order, so they are the tool's digits.

The ranking: scores compared as doubles, as the tool compares them, descending; tied scores by
document id descending, trec_eval's rule (the tool's own order of tied scores changes from one
invocation to the next; docs/judgements.md).
"""

from __future__ import annotations

import re
from typing import List, Sequence, TextIO

import numpy as np

from ..data.arrays import sums_in_order
from ..data.inputs import Columns, InputError
from ..data.prels import Prels, read_prels
from ..data.qrels import Qrels
from ..data.ranking import rank_run
from ..data.readers import read_run
from ..measures.statap import TOOL_CUTOFF, stat_lists, statap_kernel, statp_kernel, statrprec_kernel

__all__ = ["write_statap", "statap_text"]


def _perl_number(text: str) -> float:
    """A topic id as Perl's ``<=>`` compares it: its leading number, else 0."""
    found = re.match(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", text)
    return float(found.group()) if found else 0.0


def _perl(value: float) -> str:
    """A number as Perl prints it (``%.15g``)."""
    return "%.15g" % value


def _rows_as_qrels(prels: Prels) -> Qrels:
    """The prels as qrels whose label of a document is its prels row (ranking a run against them
    labels every position with its row)."""
    return Qrels(
        list(prels.topics), prels.offsets.copy(), np.arange(len(prels.docs), dtype=np.int64), prels.lookup
    )


def statap_text(prels: Prels, run: Columns, per_topic: bool, cutoff: int = TOOL_CUTOFF) -> str:
    """What :func:`write_statap` prints for one run (as :func:`~ir_measures_pres.data.readers.read_run`
    reads it) against ``prels`` (:func:`~ir_measures_pres.data.prels.read_prels`). The scores are
    compared as doubles, as the tool compares them (``rank_run(..., exact_scores=True)``),
    ties by document id descending. Raises
    :class:`~ir_measures_pres.data.inputs.InputError` when no topic is scored (the tool divides by
    zero)."""
    ranked = rank_run(run, _rows_as_qrels(prels), exact_scores=True)
    lists = stat_lists(prels, ranked.qpos, ranked.offsets, ranked.labels)
    ap, rprec, prec = statap_kernel(lists), statrprec_kernel(lists), statp_kernel(lists, cutoff)
    sampled, sampled_rel = prels.sampled(), prels.sampled_relevant()
    order = sorted(range(ranked.num_queries), key=lambda i: (_perl_number(prels.topics[ranked.qpos[i]]), i))
    parts: List[str] = []
    for i in order:
        t = int(ranked.qpos[i])
        if per_topic:
            parts.append(f"\n\ttopic={prels.topics[t]}  ")
        if prels.neu[t] == 0:
            if per_topic:
                parts.append("UMASS\n")
            continue
        if not per_topic:
            continue
        parts.append("NEU \n" if prels.umass[t] == 0 else "MIXED \n")
        scored = bool(lists.scored[i])
        parts.append(f"\tRelevant={lists.r_hat[i]:f}  sampled={sampled[t]} sampled_relev={sampled_rel[t]}\n")
        if scored:
            parts.append(
                f"\tsampled_in_list={lists.sampled_in_list[i]}  "
                f"sampled_relev_in_list={lists.relevant_in_list[i]}\n"
                f"\tAP={ap[i]:f}  R-prec={rprec[i]:f}  Prec_at_{cutoff}={prec[i]:f}\n"
            )
        else:  # the tool's loop over the list does not run: its counts stay 0
            parts.append(
                "\tsampled_in_list=0  sampled_relev_in_list=0\n"
                f"\tAP=NA--no relevant docs  R-prec=NA--no relevant docs  Prec_at_{cutoff}=0\n"
            )
    valid = [i for i in order if lists.scored[i]]
    if not valid:
        raise InputError(
            f"{prels.source}: no topic of the run has a relevant document sampled (with a NEU "
            f"judgement): statAP's means are undefined (statAP_MQ_eval_v3.pl divides by zero)"
        )
    n = len(valid)
    one = np.array([0, n], dtype=np.int64)  # the tool's sums run over the topics in its order
    means = [sums_in_order(values[valid], one)[0] / n for values in (ap, rprec, prec)]
    parts.append(
        f"\n valid_topics={n}"
        f"\n statMAP_on_valid_topics={_perl(means[0])}"
        f"\n statMRP_on_valid_topics={_perl(means[1])}"
        f"\n statMPC_{cutoff} _on_valid_topics={_perl(means[2])} "
        "\n\n"
    )
    return "".join(parts)


def write_statap(
    prels_path: str, run_paths: Sequence[str], per_topic: bool, out: TextIO, cutoff: int = TOOL_CUTOFF
) -> None:
    """Print statAP_MQ_eval_v3.pl's output for each run of ``run_paths``, in order, to ``out``
    (see the module docstring for the lines and what is left out): ``per_topic`` is the tool's
    ``-q`` (a block per topic before the summary). The prels file is read once. Input errors
    (a malformed prels or run line, a missing file, a run with no topic scored) raise
    :class:`~ir_measures_pres.data.inputs.InputError` / ``OSError``, naming the file and line."""
    prels = read_prels(prels_path)
    for path in run_paths:
        out.write(statap_text(prels, read_run(path), per_topic, cutoff))
