"""The per-run output files of NTCIREVAL 190111's diversity scripts, byte for byte (spec
diversity.md §9): the lines ``D-NTCIR-eval`` writes into ``<run>.<name>.Dnev``,
``D-NTCIR-eval2`` into its ``.Dnev`` and ``DIN-NTCIR-eval`` into ``.DINnev``, from the values
of :mod:`ir_measures_pres.measures.diversity`.

Per topic of the tid list (the probability file's topics, sorted): ``# syslen= jrel= jnonrel=0``,
``# r1= rp=``, the ``gcompute`` lines, ``#intent_num=n``, the two I-rec lines (``I-rec@n``
first only when the list reaches rank n and n < l, as ``irec`` prints them when it reaches the
rank) and the D# (DIN#) lines, which the scripts compute in awk from the printed strings. A
topic without a relevant document makes ``ntcir_eval`` fail: only the D# lines are written, 0.

Every value line is ``TID`` + space + ``name=`` left-aligned in 21 characters + ``%.4f``.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from ..measures.diversity import (
    GAMMA,
    DiversityJudgements,
    DiversityLists,
    first_ranks,
    found,
    gcompute,
    intent_recall,
)

__all__ = ["SCRIPTS", "SUPPORTED", "diversity_text"]

#: the scripts of the diversity suite, in the order of README.diversity
SCRIPTS = (
    "D-NTCIR-eval",
    "D-NTCIR-eval2",
    "DIN-NTCIR-eval",
    "D-NTCIR-IAeval",
    "D-NTCIR-IAeval2",
    "DIN-NTCIR-PQeval",
)
#: the scripts whose files are reproduced (docs/diversity.md's status table)
SUPPORTED = ("D-NTCIR-eval", "D-NTCIR-eval2", "DIN-NTCIR-eval")

#: the tool's name field
NAME_WIDTH = 21


def _field(name: str) -> str:
    return f"{name}=".ljust(NAME_WIDTH)


def _sharp_lines(script: str, at: str) -> List[Tuple[str, str]]:
    """(printed name, the gcompute name it mixes with I-rec@l) of the script's D# lines."""
    prefix = "DIN#" if script == "DIN-NTCIR-eval" else "D#"
    lines = [(f"{prefix}-Q{at}", f"Q{at}"), (f"{prefix}-nDCG{at}", f"MSnDCG{at}")]
    if script == "D-NTCIR-eval2":
        lines += [(f"D#-{m}{at}", f"{m}{at}") for m in ("ERR", "EBR", "RBP")]
    return lines


def diversity_text(
    script: str, judg: DiversityJudgements, lists: DiversityLists, cutoff: int, digits: int = 4
) -> str:
    """What ``script`` writes into a run's output file at cutoff ``cutoff`` (``digits``: the
    decimals of the values; the tool's are 4)."""
    if script not in SUPPORTED:
        raise ValueError(f"{script} is not reproduced yet (supported: {', '.join(SUPPORTED)})")
    din = script == "DIN-NTCIR-eval"
    rbp = 0.99 if script == "D-NTCIR-eval2" else 0.95
    f = found(judg, lists, cutoff, din=din)
    values = gcompute(f, judg.ideal, cutoff, rbp)
    heads = first_ranks(f)
    n = judg.n_intents
    irec_l = intent_recall(judg, lists, np.full(len(judg.topics), cutoff))
    irec_n = intent_recall(judg, lists, n)
    at = f"@{cutoff:04d}"
    fmt = f"%.{digits}f"
    names = [(name, _field(name)) for name in values]
    texts: Dict[str, List[str]] = {
        name: (np.char.mod(fmt, v).tolist() if len(v) else []) for name, v in values.items()
    }
    irec_l_text = [fmt % v for v in irec_l.tolist()]
    irec_n_text = [fmt % v for v in irec_n.tolist()]
    sharp = _sharp_lines(script, at)
    lengths = lists.lengths.tolist()
    out: List[str] = []
    write = out.append
    for k, tid in enumerate(judg.topics):
        if judg.n_rel[k] == 0:  # ntcir_eval fails; awk reads the missing values as 0
            for printed_name, _ in sharp:
                write(f"{tid} {_field(printed_name)}{fmt % 0.0}\n")
            continue
        write(f"{tid} # syslen={f.syslen[k]} jrel={judg.n_rel[k]} jnonrel=0\n")
        write(f"{tid} # r1={heads['r1'][k]} rp={heads['rp'][k]}\n")
        for name, field in names:
            write(f"{tid} {field}{texts[name][k]}\n")
        write(f"{tid} #intent_num={n[k]}\n")
        l_line = f"{tid} {_field(f'I-rec{at}')}{irec_l_text[k]}\n"
        n_line = f"{tid} {_field('I-rec@n')}{irec_n_text[k]}\n"
        n_first = lengths[k] >= n[k] and n[k] < cutoff
        write(n_line + l_line if n_first else l_line + n_line)
        irec = float(irec_l_text[k])
        for printed_name, source in sharp:
            value = GAMMA * irec + (1 - GAMMA) * float(texts[source][k])
            write(f"{tid} {_field(printed_name)}{fmt % value}\n")
    return "".join(out)
