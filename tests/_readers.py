"""Tiny, test-only readers of the reference tools' inputs and outputs (tests/data).

Written here, independently of the package's code, so that a reference test reads the original
tools' files without going through what it tests. Every reader returns plain dicts.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]

#: an NTCIREVAL ``compute`` value line: ``<topic> <Name>= <value>`` (the topic may be empty)
_NEV_LINE = re.compile(r"^(\S*) (\S+)=\s+(\S+)\s*$")
#: an NTCIREVAL header line: ``<topic> # key=value key=value ...``
_NEV_HEADER = re.compile(r"^(\S*) # (.*)$")


def read_nev(path: Path) -> dict[str, dict[str, float]]:
    """NTCIREVAL ``compute`` output: topic -> {line name (e.g. 'Q-measure', 'Q@0010'): value}.

    Lines of a topic with an empty name (NTCIREVAL's output on a bare res/rel pair) are returned
    under the key ``''``. Header lines (``# syslen=...``) are skipped; see :func:`read_nev_headers`.
    """
    out: dict[str, dict[str, float]] = defaultdict(dict)
    for line in Path(path).read_text().splitlines():
        if not line.strip() or _NEV_HEADER.match(line):
            continue
        m = _NEV_LINE.match(line)
        if m is None:
            raise ValueError(f"{path}: unexpected NTCIREVAL line {line!r}")
        topic, name, value = m.groups()
        if name in out[topic]:
            raise ValueError(f"{path}: topic {topic!r} has {name} twice")
        out[topic][name] = float(value)
    return dict(out)


def read_nev_headers(path: Path) -> dict[str, dict[str, int]]:
    """NTCIREVAL header lines: topic -> {'syslen': ..., 'jrel': ..., 'jnonrel': ..., 'r1': ..., 'rp': ...}."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for line in Path(path).read_text().splitlines():
        m = _NEV_HEADER.match(line)
        if m is None:
            continue
        for item in m.group(2).split():
            key, _, value = item.partition("=")
            out[m.group(1)][key] = int(value)
    return dict(out)


def read_trec_eval(path: Path) -> dict[tuple[str, str], str]:
    """trec_eval ``-q`` output: (measure, query id or 'all') -> value text (kept as text: some
    lines are integers, and 4-decimal rounding matters for the tolerance)."""
    out: dict[tuple[str, str], str] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        measure, qid, value = parts
        out[(measure, qid)] = value
    return out


def trec_eval_values(path: Path, measure: str) -> dict[str, float]:
    """The lines of one measure of a trec_eval output: query id (or 'all') -> value."""
    return {qid: float(v) for (m, qid), v in read_trec_eval(path).items() if m == measure}


def read_qrels(path: Path) -> Qrels:
    """TREC qrels ``qid iter docid rel`` -> {qid: {docid: rel}} (last line wins)."""
    out: Qrels = defaultdict(dict)
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        qid, _, doc, rel = parts[:4]
        out[qid][doc] = int(rel)
    return dict(out)


def read_run(path: Path) -> Run:
    """TREC run ``qid Q0 docid rank score tag [junk...]`` -> {qid: {docid: score}}.

    Only the first five fields are read (trec_eval's results.trunc has junk after the tag).
    """
    out: Run = defaultdict(dict)
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        qid, _, doc, _, score = parts[:5]
        out[qid][doc] = float(score)
    return dict(out)


def read_ntcir_qrels(path: Path) -> Qrels:
    """NTCIREVAL qrels with topic ids, ``tid docid Lx`` -> {tid: {docid: x}}."""
    out: Qrels = defaultdict(dict)
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if parts:
            out[parts[0]][parts[1]] = _level(parts[2])
    return dict(out)


def read_ntcir_rel(path: Path) -> dict[str, int]:
    """NTCIREVAL rel file of one topic, ``docid Lx`` -> {docid: x}."""
    out: dict[str, int] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if parts:
            out[parts[0]] = _level(parts[1])
    return out


def read_ntcir_list(path: Path) -> list[str]:
    """NTCIREVAL res or lab file of one topic: the ranked doc ids in file order (a lab file's
    ``Lx`` labels are ignored: relevance comes from the rel file)."""
    return [line.split()[0] for line in Path(path).read_text().splitlines() if line.strip()]


def ranked_list_to_run(docs: list[str]) -> dict[str, float]:
    """A ranked list without scores as a run: strictly descending scores in file order, so the
    trec_eval order is the file order whatever the doc ids are."""
    n = len(docs)
    if len(set(docs)) != n:
        raise ValueError("ranked list has duplicate doc ids")
    return {doc: float(n - i) for i, doc in enumerate(docs)}


def _level(text: str) -> int:
    if not text.startswith("L"):
        raise ValueError(f"NTCIREVAL relevance level must look like 'L2', got {text!r}")
    return int(text[1:])


def trec_order(
    docs: dict[str, float], qrels: dict[str, int] | None = None, judged_only: bool = False
) -> list[str]:
    """Doc ids of one query's run in trec_eval order (score desc, doc id desc), written with
    Python's ``sorted`` as an independent check of the package's order; ``judged_only`` drops docs
    absent from ``qrels`` or labelled < 0."""
    ranked = [d for d, _ in sorted(docs.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]
    if judged_only:
        assert qrels is not None
        ranked = [d for d in ranked if qrels.get(d, -1) >= 0]
    return ranked
