"""The per-run output files of NTCIREVAL 190111's diversity scripts, byte for byte (spec
diversity.md §6, §7, §9): the lines ``D-NTCIR-eval`` writes into ``<run>.<name>.Dnev``,
``D-NTCIR-eval2`` into its ``.Dnev``, ``DIN-NTCIR-eval`` into ``.DINnev``, ``D-NTCIR-IAeval``
and ``D-NTCIR-IAeval2`` into ``.nevIA`` and ``DIN-NTCIR-PQeval`` into ``.nevPQ``, from the
values :func:`ir_measures_pres.measures.diversity.scripts.script_values` computes (:func:`lines`).

Per topic of the tid list (the probability file's topics, sorted): ``# syslen= jrel= jnonrel=``
(jnonrel: the documents relevant only to intents of probability 0, gain 0 in the ideal list),
``# r1= rp=``, the ``gcompute`` lines, ``#intent_num=n``, the two I-rec lines (``I-rec@n``
first only when the list reaches rank n and n < l, as ``irec`` prints them when it reaches the
rank) and the D# (DIN#) lines, which the scripts compute in awk from the printed strings. A
topic whose ideal list has no gain makes ``gcompute`` fail (no ``#`` and measure lines) and one
without a relevant document ``irec`` (no I-rec lines); the D# lines read the missing values as 0.

Every value line is ``TID`` + space + ``name=`` left-aligned in 21 characters + ``%.4f``.

The intent-aware files (Agrawal et al. WSDM 2009; P+Q: Sakai WWW 2012) hold, per topic, one
``gcompute`` block per intent that has a relevant document, in probability-file order (prefix
``TID i P(i|q)``, in ``.nevPQ`` ``TID i inf|nav P(i|q)``), then per metric
``TID SUMp= s IA-X@l= v``: s = sum P(i|q) and v = sum P(i|q) X_i@l over those intents, X_i@l
as printed (P+Q weighs Q@l for an informational intent, P-plus for a navigational one).
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Sequence, Tuple

import numpy as np

from ..data.arrays import sum_in_order
from ..measures.diversity.kernels import GAMMA, intent_aware
from ..measures.diversity.scripts import SCRIPTS, SUPPORTED, ScriptValues
from .ntcir import name_field

__all__ = [
    "SCRIPTS",
    "SUPPORTED",
    "lines",
    "mean_lines",
    "matrix_text",
    "nevia2nev_text",
    "output_name",
    "value_lines",
]

#: the per-topic lines of the intent-aware scripts: (printed name, the per-intent line it
#: weighs; PplusQ: Q@l for an informational intent, P-plus for a navigational one)
INTENT_AWARE = {
    "D-NTCIR-IAeval": [("IA-ERR", "ERR@l"), ("IA-nERR", "nERR@l"), ("IA-MSnDCG", "MSnDCG@l")],
    "D-NTCIR-IAeval2": [
        ("IA-MSnDCG", "MSnDCG@l"),
        ("IA-Q", "Q@l"),
        ("IA-ERR", "ERR@l"),
        ("IA-EBR", "EBR@l"),
        ("IA-RBP", "RBP@l"),
    ],
    "DIN-NTCIR-PQeval": [("PplusQ", "")],
}

#: the suffix of each script's per-run file (NEVIAPQ2sharpnev's is made from the cutoff)
SUFFIX = {
    "D-NTCIR-eval": "Dnev",
    "D-NTCIR-eval2": "Dnev",
    "DIN-NTCIR-eval": "DINnev",
    "D-NTCIR-IAeval": "nevIA",
    "D-NTCIR-IAeval2": "nevIA",
    "DIN-NTCIR-PQeval": "nevPQ",
}


def output_name(script: str, run: str, name: str, cutoff: int) -> str:
    """The file a script writes for ``run``: ``<run>.<name>.<suffix>``, or NEVIAPQ2sharpnev's
    ``<run>.PplusQ#@LLLL.nev``."""
    if script == "NEVIAPQ2sharpnev":
        return f"{run}.PplusQ#@{cutoff:04d}.nev"
    return f"{run}.{name}.{SUFFIX[script]}"


#: the format of the lines the scripts compute in awk (D#, DIN#, SUMp): ``%.4f`` whatever the
#: digits of the values they read (the 17-decimal build's D# lines are 4-decimal too)
AWK = "%.4f"


def _sharp_lines(script: str, at: str) -> List[Tuple[str, str]]:
    """(printed name, the gcompute name it mixes with I-rec@l) of the script's D# lines."""
    prefix = "DIN#" if script == "DIN-NTCIR-eval" else "D#"
    lines = [(f"{prefix}-Q{at}", f"Q{at}"), (f"{prefix}-nDCG{at}", f"MSnDCG{at}")]
    if script == "D-NTCIR-eval2":
        lines += [(f"D#-{m}{at}", f"{m}{at}") for m in ("ERR", "EBR", "RBP")]
    return lines


def lines(values: ScriptValues, digits: int = 4) -> str:
    """What ``values.script`` writes into a run's output file at ``values.cutoff``, from the
    values :func:`~ir_measures_pres.measures.diversity.scripts.script_values` computes
    (``digits``: the decimals of the values ``ntcir_eval`` prints, 4 in the stock tool; the lines
    the scripts compute in awk from those printed values keep 4)."""
    script = values.script
    if script not in SUPPORTED:
        raise ValueError(f"{script} is not reproduced yet (supported: {', '.join(SUPPORTED)})")
    if script in INTENT_AWARE:
        return _intent_aware_text(script, values, digits)
    if script == "NEVIAPQ2sharpnev":
        return _pq_sharp_text(values, digits)
    judg, cutoff, heads = values.judg, values.cutoff, values.heads
    assert values.irec_l is not None and values.irec_n is not None  # the per-topic scripts'
    n = judg.n_intents
    at = f"@{cutoff:04d}"
    fmt = f"%.{digits}f"
    names = [(name, name_field(name)) for name in values.values]
    texts: Dict[str, List[str]] = {
        name: (np.char.mod(fmt, v).tolist() if len(v) else []) for name, v in values.values.items()
    }
    irec_l_text = [fmt % v for v in values.irec_l.tolist()]
    irec_n_text = [fmt % v for v in values.irec_n.tolist()]
    sharp = _sharp_lines(script, at)
    lengths = values.lengths.tolist()
    out: List[str] = []
    write = out.append
    for k, tid in enumerate(judg.topics):
        # gcompute fails on a topic whose ideal list has no gain (no relevant document, or
        # only documents of intents with P(i|q) = 0) and irec on one without a relevant
        # document: their lines are missing, and awk reads a missing value as 0
        has_gain, has_intent = judg.n_rel[k] > 0, n[k] > 0
        if has_gain:
            write(f"{tid} # syslen={values.syslen[k]} jrel={judg.n_rel[k]} jnonrel={judg.n_zero_gain[k]}\n")
            write(f"{tid} # r1={heads['r1'][k]} rp={heads['rp'][k]}\n")
            for name, field in names:
                write(f"{tid} {field}{texts[name][k]}\n")
        if has_intent:
            write(f"{tid} #intent_num={n[k]}\n")
            l_line = f"{tid} {name_field(f'I-rec{at}')}{irec_l_text[k]}\n"
            n_line = f"{tid} {name_field('I-rec@n')}{irec_n_text[k]}\n"
            n_first = lengths[k] >= n[k] and n[k] < cutoff
            write(n_line + l_line if n_first else l_line + n_line)
        irec = float(irec_l_text[k]) if has_intent else 0.0
        for printed_name, source in sharp:
            value = GAMMA * irec + (1 - GAMMA) * (float(texts[source][k]) if has_gain else 0.0)
            write(f"{tid} {name_field(printed_name)}{AWK % value}\n")
    return "".join(out)


def value_lines(text: str) -> Iterator[Tuple[str, str, str, bool]]:
    """(topic, line name, value as printed, whether from a ``SUMp`` line) of each value line of
    a script's output: ``TID NAME= v`` (``#`` lines left out) and the ``IA-X@l`` / ``PplusQ@l``
    of the intent-aware files' ``TID SUMp= s NAME= v`` lines; the per-intent lines are not
    value lines."""
    for line in text.splitlines():
        tokens = line.split()
        if len(tokens) == 3 and tokens[1].endswith("=") and not tokens[1].startswith("#"):
            yield tokens[0], tokens[1][:-1], tokens[2], False
        elif len(tokens) == 5 and tokens[1] == "SUMp=":
            yield tokens[0], tokens[3][:-1], tokens[4], True


def mean_lines(text: str, topics: int, digits: int = 4) -> str:
    """``ALL`` lines after a script's output ``text``: per value line name (``Q@0010``,
    ``D#-nDCG@0010``, ``IA-ERR@0010`` of the ``SUMp`` lines ...), in the order the names first
    appear, the sum of the printed values divided by ``topics`` (the tid list's length), as
    ``NEV2mean`` computes its ``run mean`` line: a topic without the line counts 0. The
    per-intent lines of the intent-aware files and the ``#`` lines have no mean."""
    sums: Dict[str, List[float]] = {}
    for _, name, value, _ in value_lines(text):
        sums.setdefault(name, []).append(float(value))
    fmt = f"%.{digits}f"
    return "".join(
        f"ALL {name_field(name)}{fmt % (sum_in_order(values) / topics if topics else 0.0)}\n"
        for name, values in sums.items()
    )


def nevia2nev_text(text: str, metric: str) -> str:
    """What ``NEVIA2nev`` writes into ``<run>.<name>.nevIA.<metric>.nev`` from a run's
    intent-aware file ``text``: per topic, ``TID metric= v``, v as its ``SUMp`` line prints it."""
    return "".join(
        f"{tid} {metric}= {value}\n"
        for tid, name, value, summed in value_lines(text)
        if summed and name == metric
    )


def matrix_text(texts: Sequence[str], topics: Sequence[str], name: str) -> str:
    """What ``Topicsys-matrix TID runl <file> name`` prints: a row per topic of the tid list, a
    column per run (``texts``: each run's file, in run list order), the topic's ``name`` value
    ``%.4f``, 0.0000 where the run's file has no such line; columns separated by a space."""
    columns = []
    for text in texts:
        found = {tid: value for tid, line, value, _ in value_lines(text) if line == name}
        columns.append(["%.4f" % float(found.get(tid, 0.0)) for tid in topics])
    return "".join(" ".join(row) + "\n" for row in zip(*columns)) if columns else ""


def _pq_sharp_text(values: ScriptValues, digits: int) -> str:
    """``NEVIAPQ2sharpnev``'s ``<run>.PplusQ#@l.nev``: per topic ``TID PplusQ@l=<TAB>v`` (v as
    the ``.nevPQ`` file prints it) and ``TID PplusQ#@l=<TAB>%.4f(0.5 I-rec@l + 0.5 v)``, I-rec@l
    as the ``.Dnev`` file prints it (0 for a topic without a relevant document, whose block has
    no I-rec line; a topic whose relevant documents are all of intents with P(i|q) = 0 has one)."""
    judg, cutoff, irec = values.judg, values.cutoff, values.irec_l
    assert irec is not None  # NEVIAPQ2sharpnev's values have I-rec@l
    at = f"@{cutoff:04d}"
    pq = {}
    for line in _intent_aware_text("DIN-NTCIR-PQeval", values, digits).splitlines():
        tokens = line.split()
        if len(tokens) == 5 and tokens[1] == "SUMp=":
            pq[tokens[0]] = tokens[4]
    fmt = f"%.{digits}f"
    out = []
    for k, tid in enumerate(judg.topics):
        shown = float(fmt % irec[k]) if judg.n_intents[k] else 0.0  # no I-rec line: 0
        value = pq[tid]
        out.append(f"{tid} PplusQ{at}=\t{value}\n")
        out.append(f"{tid} PplusQ#{at}=\t{AWK % (GAMMA * shown + (1 - GAMMA) * float(value))}\n")
    return "".join(out)


def _intent_aware_text(script: str, values: ScriptValues, digits: int) -> str:
    """D-NTCIR-IAeval(2)'s ``.nevIA`` or DIN-NTCIR-PQeval's ``.nevPQ``: per topic, a
    ``gcompute`` block per intent with a relevant document (prefix ``TID i P``, PQ:
    ``TID i inf|nav P``), then ``TID SUMp= s X@l= v`` per metric, s = sum P(i|q) and
    v = sum P(i|q) X_i@l over those intents, X_i@l as printed (the scripts' awk)."""
    judg, cutoff, heads, segs = values.judg, values.cutoff, values.heads, values.segs
    assert segs is not None  # the intent-aware scripts' values are per intent
    at = f"@{cutoff:04d}"
    fmt = f"%.{digits}f"
    texts = {name: (np.char.mod(fmt, v).tolist() if len(v) else []) for name, v in values.values.items()}
    names = [(name, name_field(name)) for name in values.values]
    probs = judg.probs
    p_text = [probs.prob_text[r] for r in segs.row.tolist()]
    p = np.array([float(t) for t in p_text])
    pq = script == "DIN-NTCIR-PQeval"
    nav = probs.nav[segs.row]
    sums = intent_aware(p, np.ones(len(p)), segs.offsets)
    weighed = []
    for name, source in INTENT_AWARE[script]:
        if pq:
            q_at, pplus = texts[f"Q{at}"], texts["P-plus"]
            shown = [float(pplus[k] if nav[k] else q_at[k]) for k in range(len(p))]
        else:
            shown = [float(t) for t in texts[source.replace("@l", at)]]
        weighed.append((f"{name}{at}=", intent_aware(p, np.array(shown), segs.offsets)))
    out: List[str] = []
    write = out.append
    for k, tid in enumerate(judg.topics):
        for j in range(int(segs.offsets[k]), int(segs.offsets[k + 1])):
            row = int(segs.row[j])
            kind = f" {'nav' if probs.nav[row] else 'inf'}" if pq else ""
            prefix = f"{tid} {probs.intent[row]}{kind} {p_text[j]} "
            write(f"{prefix}# syslen={values.syslen[j]} jrel={segs.n_rel[j]} jnonrel=0\n")
            write(f"{prefix}# r1={heads['r1'][j]} rp={heads['rp'][j]}\n")
            for name, field in names:
                write(f"{prefix}{field}{texts[name][j]}\n")
        for label, ia in weighed:
            write(f"{tid} SUMp= {AWK % sums[k]} {label} {AWK % ia[k]}\n")
    return "".join(out)
