"""statAP_MQ_eval_v3.pl's printed output for runs (``ir_measures_pres sampled --tool statap PRELS
RUN...``), from the numbers :func:`~ir_measures_pres.measures.sampled.statap.statap_run` computes.

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

:func:`lines` is the printers' interface (:mod:`ir_measures_pres.printers`): a run's
:class:`~ir_measures_pres.measures.sampled.statap.StatapRun` in, the tool's text out;
:func:`statap_text` and :func:`write_statap` are the Python caller's shortcuts (they read or
compute first, then print with :func:`lines`).

The ranking: scores compared as doubles, as the tool compares them, descending; tied scores by
document id descending, trec_eval's rule (the tool's own order of tied scores changes from one
invocation to the next; docs/judgements.md).
"""

from __future__ import annotations

from typing import List, Sequence, TextIO

from ..data.inputs import Columns
from ..data.perl import perl_text
from ..data.prels import Prels, read_prels
from ..data.readers import read_run
from ..measures.sampled.statap import TOOL_CUTOFF, StatapRun, statap_run

__all__ = ["lines", "statap_text", "write_statap"]


def lines(result: StatapRun, per_topic: bool) -> str:
    """The tool's text for one run's :class:`~ir_measures_pres.measures.sampled.statap.StatapRun`
    (``per_topic``: the tool's ``-q``, a block per topic before the summary)."""
    prels, lists, cutoff = result.prels, result.lists, result.cutoff
    sampled, sampled_rel = prels.sampled(), prels.sampled_relevant()
    parts: List[str] = []
    for i in result.order if per_topic else ():
        t = int(result.qpos[i])
        parts.append(f"\n\ttopic={prels.topics[t]}  ")
        if prels.neu[t] == 0:
            parts.append("UMASS\n")
            continue
        parts.append("NEU \n" if prels.umass[t] == 0 else "MIXED \n")
        parts.append(f"\tRelevant={lists.r_hat[i]:f}  sampled={sampled[t]} sampled_relev={sampled_rel[t]}\n")
        if lists.scored[i]:
            parts.append(
                f"\tsampled_in_list={lists.sampled_in_list[i]}  "
                f"sampled_relev_in_list={lists.relevant_in_list[i]}\n"
                f"\tAP={result.ap[i]:f}  R-prec={result.rprec[i]:f}  Prec_at_{cutoff}={result.prec[i]:f}\n"
            )
        else:  # the tool's loop over the list does not run: its counts stay 0
            parts.append(
                "\tsampled_in_list=0  sampled_relev_in_list=0\n"
                f"\tAP=NA--no relevant docs  R-prec=NA--no relevant docs  Prec_at_{cutoff}=0\n"
            )
    ap, rprec, prec = result.means
    parts.append(
        f"\n valid_topics={len(result.valid)}"
        f"\n statMAP_on_valid_topics={perl_text(ap)}"
        f"\n statMRP_on_valid_topics={perl_text(rprec)}"
        f"\n statMPC_{cutoff} _on_valid_topics={perl_text(prec)} "
        "\n\n"
    )
    return "".join(parts)


def statap_text(prels: Prels, run: Columns, per_topic: bool, cutoff: int = TOOL_CUTOFF) -> str:
    """What :func:`write_statap` prints for one run (as :func:`~ir_measures_pres.data.readers.read_run`
    reads it) against ``prels`` (:func:`~ir_measures_pres.data.prels.read_prels`). Raises
    :class:`~ir_measures_pres.data.inputs.InputError` when no topic is scored (the tool divides
    by zero)."""
    return lines(statap_run(prels, run, cutoff), per_topic)


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
