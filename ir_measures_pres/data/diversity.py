"""Strict readers of NTCIREVAL's diversity files (docs/diversity.md, spec diversity.md §1).

* **intent probabilities**: ``.Iprob`` lines ``topic intent P(i|q)`` (3 columns) or ``.DINprob``
  lines ``topic intent P(i|q) inf|nav`` (4 columns); every line has the width of the first;
  P(i|q) is a number in [0, 1], kept also as written (the tool prints it as written);
  a ``(topic, intent)`` given twice is an error;
* **diversity qrels** (``.Dqrels``): ``topic intent docno Ln``, the level ``L0`` .. ``L9``, or
  TREC diversity qrels ``topic intent docno rel`` (the iteration column is the intent, an
  integer level; 0 or below: not relevant); a ``(topic, intent, docno)`` given twice is an
  error (the tool would add the document's gain twice);
* **runs**: TREC run lines, every line kept in file order (:func:`.readers.read_run_lines`); the
  score and rank columns are read (they must be there and be numbers) but not used.

:func:`check_against` checks the two judgement files together: every topic of the qrels must
have probabilities, and every intent a relevant (L1+) line names must have one for its topic
(an intent with a probability and no relevant document is allowed: it adds nothing, spec §8).

Every error is a :class:`~.readers.TrecFormatError` (an :class:`~.inputs.InputError`): one line
``FILE:LINE: expected ..., found ...``. Blank lines are skipped; there are no comment lines
(the tool reads every line as data).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from typing import IO, Any, Dict, List, Optional, Tuple, Union

import numpy as np

from ._trec_parse import TrecFormatError
from .blocks import open_source

__all__ = [
    "IntentProbs",
    "DiversityQrels",
    "read_intent_probs",
    "read_dqrels",
    "dqrels_from_records",
    "check_against",
    "pair_keys",
    "judged_pairs",
    "line_pair_keys",
]

Source = Union[str, "os.PathLike[str]", IO[bytes]]

_IPROB = "topic intent P(i|q)"
_DINPROB = "topic intent P(i|q) inf|nav"
_DQRELS = "topic intent docno Ln (L0 .. L9)"


@dataclass(frozen=True)
class IntentProbs:
    """One probability file, a row per line in file order."""

    source: str
    topic: List[str]
    intent: List[str]
    #: P(i|q) as written (the tool prints and multiplies the text) and as a number
    prob_text: List[str]
    prob: np.ndarray
    #: True for a navigational intent (``.DINprob``); all False for ``.Iprob``
    nav: np.ndarray
    #: whether the file had the 4th column (``.DINprob``)
    din: bool
    line: List[int]

    def topics(self) -> List[str]:
        """The topics, sorted bytewise and unique (the tool's ``sort -u`` under ``LC_ALL=C``)."""
        return sorted(set(self.topic), key=lambda t: t.encode("utf-8", "surrogateescape"))


@dataclass(frozen=True)
class DiversityQrels:
    """One ``.Dqrels`` file, a row per line in file order, as columns: the topic and intent of
    each line as a code into ``topic_names`` / ``intent_names`` (``str``), the document ids as
    raw bytes (a numpy ``'S'`` array, as the runs' readers give them), the level and the line
    number."""

    source: str
    topic_names: List[str]
    topic_code: np.ndarray
    intent_names: List[str]
    intent_code: np.ndarray
    doc: np.ndarray
    level: np.ndarray
    line: np.ndarray

    @property
    def topic(self) -> List[str]:
        """The topic of every line."""
        return [self.topic_names[c] for c in self.topic_code.tolist()]

    @property
    def intent(self) -> List[str]:
        """The intent of every line."""
        return [self.intent_names[c] for c in self.intent_code.tolist()]


def _read_bytes(source: Source) -> Tuple[str, bytes]:
    """(display name, the file's bytes without a UTF-8 byte order mark)."""
    stream, name, to_close = open_source(source)
    try:
        data = stream.read()
    except (OSError, EOFError) as exc:
        raise TrecFormatError(name, None, "a readable file", f"{type(exc).__name__}: {exc}") from exc
    finally:
        for f in to_close:
            f.close()
    return name, data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _lines(source: Source) -> Tuple[str, List[Tuple[int, List[str]]]]:
    """(display name, [(line number, fields)]) of the non-blank lines."""
    name, data = _read_bytes(source)
    rows = [(i, [_text(t) for t in line.split()]) for i, line in enumerate(data.split(b"\n"), start=1)]
    return name, [(i, fields) for i, fields in rows if fields]


#: ASCII whitespace, what separates columns (as in the TREC readers)
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True
_LEVELS = np.array([f"L{n}".encode() for n in range(10)])


def _table(name: str, data: bytes, width: int, columns: str) -> Tuple[np.ndarray, np.ndarray]:
    """(the columns of every non-blank line, a row per line, as a bytes array; their line
    numbers), every line ``width`` columns: counted with numpy over the bytes, split by
    ``bytes.split`` (no Python code per line)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    space = _SPACE[raw]
    starts = ~space & np.concatenate(([True], space[:-1]))
    newline = raw == 10
    line_of = (np.cumsum(newline) - newline)[starts]  # 0-based line of each column's first byte
    counts = np.bincount(line_of) if len(line_of) else np.zeros(0, dtype=np.int64)
    lines = np.flatnonzero(counts)
    wrong = lines[counts[lines] != width]
    if len(wrong):
        k = int(wrong[0])
        fields = _text(data.split(b"\n")[k]).split()
        raise TrecFormatError(
            name, k + 1, f"{width} columns ({columns})", f"{len(fields)}: {' '.join(fields)!r}"
        )
    return np.array(data.split(), dtype=bytes).reshape(-1, width), lines + 1


def _codes(column: np.ndarray) -> Tuple[List[str], np.ndarray]:
    """(the distinct values as ``str``, each row's code into them)."""
    names, code = np.unique(column, return_inverse=True)
    return [_text(v) for v in names.tolist()], code.reshape(-1).astype(np.int64)


def _probability(name: str, line: int, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise TrecFormatError(name, line, "a probability P(i|q), a number in [0, 1]", repr(text)) from None
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise TrecFormatError(name, line, "a probability P(i|q) in [0, 1]", text)
    return value


def read_intent_probs(source: Source, din: Optional[bool] = None) -> IntentProbs:
    """Read an ``.Iprob`` or ``.DINprob`` file. ``din``: None takes the width of the first line
    (3 or 4 columns); True or False requires that width."""
    name, rows = _lines(source)
    if not rows:
        expected = _DINPROB if din else _IPROB if din is False else f"{_IPROB} [inf|nav]"
        raise TrecFormatError(name, None, f"probability lines ({expected})", "an empty file")
    width = len(rows[0][1]) if din is None else (4 if din else 3)
    if width not in (3, 4):
        raise TrecFormatError(
            name, rows[0][0], f"3 columns ({_IPROB}) or 4 ({_DINPROB})", f"{width}: {' '.join(rows[0][1])!r}"
        )
    columns = _DINPROB if width == 4 else _IPROB
    topic: List[str] = []
    intent: List[str] = []
    text: List[str] = []
    nav: List[bool] = []
    lines: List[int] = []
    seen: Dict[Tuple[str, str], int] = {}
    values: List[float] = []
    for i, fields in rows:
        if len(fields) != width:
            raise TrecFormatError(
                name,
                i,
                f"{width} columns ({columns}), as on the first line",
                f"{len(fields)}: {' '.join(fields)!r}",
            )
        key = (fields[0], fields[1])
        if key in seen:
            raise TrecFormatError(
                name,
                i,
                "each (topic, intent) once",
                f"topic {key[0]!r} intent {key[1]!r} again (line {seen[key]})",
            )
        seen[key] = i
        values.append(_probability(name, i, fields[2]))
        if width == 4:
            if fields[3] not in ("inf", "nav"):
                raise TrecFormatError(name, i, "'inf' or 'nav' in column 4", repr(fields[3]))
            nav.append(fields[3] == "nav")
        else:
            nav.append(False)
        topic.append(fields[0])
        intent.append(fields[1])
        text.append(fields[2])
        lines.append(i)
    return IntentProbs(
        name,
        topic,
        intent,
        text,
        np.array(values, dtype=np.float64),
        np.array(nav, dtype=bool),
        width == 4,
        lines,
    )


def read_dqrels(source: Source) -> DiversityQrels:
    """Read per-intent judgements, vectorised over the lines: NTCIREVAL's ``.Dqrels``
    (``topic intent docno Ln``, L0 .. L9) or a TREC diversity qrels file (``topic intent docno
    rel``: the iteration column is the intent, rel an integer, the level; 0 or below is not
    relevant, as L0). The first line's column 4 says which (``L`` and a digit, or an integer);
    every line must then be of that form."""
    name, data = _read_bytes(source)
    table, lines = _table(name, data, 4, _DQRELS)
    if not len(table):
        raise TrecFormatError(name, None, f"diversity qrels lines ({_DQRELS})", "an empty file")
    if table[0, 3][:1] == b"L":
        level_at = np.searchsorted(_LEVELS, table[:, 3])
        ok = (level_at < len(_LEVELS)) & (_LEVELS[np.minimum(level_at, len(_LEVELS) - 1)] == table[:, 3])
        if not ok.all():
            k = int(np.flatnonzero(~ok)[0])
            raise TrecFormatError(
                name, int(lines[k]), "a relevance level L0 .. L9 in column 4", repr(_text(table[k, 3]))
            )
        level = level_at.astype(np.int64)
    else:
        level = np.maximum(_integers(name, table[:, 3], lines), 0)
    return _dqrels(name, table[:, 0], table[:, 1], table[:, 2].copy(), level, lines)


def _integers(name: str, column: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """Column 4 of a TREC diversity qrels file as integers (an error names the first line that
    is not one)."""
    unsigned = np.char.lstrip(column, b"-+")
    digits = np.char.isdigit(unsigned) & (np.char.str_len(column) - np.char.str_len(unsigned) <= 1)
    if not digits.all():
        k = int(np.flatnonzero(~digits)[0])
        raise TrecFormatError(
            name,
            int(lines[k]),
            "an integer relevance in column 4 (a TREC diversity qrels file, as line "
            f"{int(lines[0])} is; .Dqrels levels are L0 .. L9 on every line)",
            repr(_text(column[k])),
        )
    return column.astype(np.int64)


def dqrels_from_records(
    name: str, topics: List[str], intents: List[str], docs: List[str], rels: List[Any]
) -> DiversityQrels:
    """Per-intent judgements from in-memory qrels whose iteration column is the intent (ir_measures
    ``Qrel`` tuples, a DataFrame): the same record as :func:`read_dqrels` reads from a TREC
    diversity qrels file; ``line`` is the 1-based position of the record."""

    def as_bytes(texts: List[str]) -> np.ndarray:
        return np.array([t.encode("utf-8", "surrogateescape") for t in texts], dtype=bytes)

    if not rels:
        raise TrecFormatError(name, None, "per-intent judgements (query, intent, document, rel)", "none")
    level = np.maximum(np.asarray(rels, dtype=np.int64).reshape(-1), 0)
    lines = np.arange(1, len(level) + 1, dtype=np.int64)
    return _dqrels(name, as_bytes(topics), as_bytes(intents), as_bytes(docs), level, lines)


def _dqrels(
    name: str, topics: np.ndarray, intents: np.ndarray, docs: np.ndarray, level: np.ndarray, lines: np.ndarray
) -> DiversityQrels:
    """The record, after refusing a ``(topic, intent, docno)`` given twice."""
    topic_names, topic = _codes(topics)
    intent_names, intent = _codes(intents)
    doc = np.unique(docs, return_inverse=True)[1].reshape(-1).astype(np.int64)
    key = (topic * max(len(intent_names), 1) + intent) * (int(doc.max()) + 1) + doc
    order = np.argsort(key, kind="stable")
    again = order[1:][key[order][1:] == key[order][:-1]]
    if len(again):
        k = int(again.min())
        first = int(np.flatnonzero(key == key[k])[0])
        raise TrecFormatError(
            name,
            int(lines[k]),
            "each (topic, intent, docno) once",
            f"topic {topic_names[topic[k]]!r} intent {intent_names[intent[k]]!r} document "
            f"{_text(docs[k])!r} again (line {int(lines[first])})",
        )
    return DiversityQrels(name, topic_names, topic, intent_names, intent, docs, level, lines)


def check_against(probs: IntentProbs, qrels: DiversityQrels) -> None:
    """Every topic of the qrels has probabilities; every intent with a relevant (L1+) line has a
    probability for its topic. (L0 lines, whatever their intent, are dropped by the tool.)"""
    topics = set(probs.topic)
    known = np.array([t in topics for t in qrels.topic_names], dtype=bool)
    missing_topic = np.flatnonzero(~known[qrels.topic_code]) if len(known) else np.zeros(0, np.int64)
    pairs = set(zip(probs.topic, probs.intent))
    width = max(len(qrels.intent_names), 1)
    pair = qrels.topic_code * width + qrels.intent_code
    relevant = np.flatnonzero(qrels.level > 0)
    distinct, inverse = np.unique(pair[relevant], return_inverse=True)
    has = np.array(
        [(qrels.topic_names[p // width], qrels.intent_names[p % width]) in pairs for p in distinct.tolist()],
        dtype=bool,
    )  # one test per distinct (topic, intent), not per line
    missing_intent = relevant[~has[inverse.reshape(-1)]] if len(relevant) else relevant
    first_topic = int(missing_topic[0]) if len(missing_topic) else None
    first_intent = int(missing_intent[0]) if len(missing_intent) else None
    if first_topic is not None and (first_intent is None or first_topic <= first_intent):
        t = qrels.topic_names[qrels.topic_code[first_topic]]
        raise TrecFormatError(
            qrels.source,
            int(qrels.line[first_topic]),
            f"a topic of the probabilities {probs.source}",
            f"topic {t!r}, which has no intent probability there",
        )
    if first_intent is not None:
        t = qrels.topic_names[qrels.topic_code[first_intent]]
        i = qrels.intent_names[qrels.intent_code[first_intent]]
        raise TrecFormatError(
            qrels.source,
            int(qrels.line[first_intent]),
            f"an intent of topic {t!r} with a probability in {probs.source}",
            f"intent {i!r}, which has none",
        )


def pair_keys(topics: Any, docs: Any) -> np.ndarray:
    """One bytes key per (topic, document) pair, ``topic NUL document`` (ids hold no NUL: the
    readers refuse it), to match the lines of per-intent judgements with other qrels' lines."""
    t = np.array([str(x).encode("utf-8", "surrogateescape") for x in topics], dtype=bytes)
    d = np.array(
        [x if isinstance(x, bytes) else str(x).encode("utf-8", "surrogateescape") for x in docs], dtype=bytes
    )
    if not len(t):
        return np.zeros(0, dtype=bytes)
    return np.char.add(np.char.add(t, b"\x00"), d)  # type: ignore[no-any-return]


def line_pair_keys(dq: DiversityQrels) -> np.ndarray:
    """The (topic, document) key (:func:`pair_keys`) of each per-intent judgement line of ``dq``."""
    return pair_keys([dq.topic_names[c] for c in dq.topic_code.tolist()], dq.doc)


def judged_pairs(dq: DiversityQrels, kept: np.ndarray, keys: Optional[np.ndarray] = None) -> DiversityQrels:
    """The per-intent judgements of the (topic, document) pairs ``kept`` (:func:`pair_keys`)
    only: a document left out is unjudged for every intent (the f-qrels of the robustness
    experiment, taken to the intents the qrels' iteration column holds). ``keys``: ``dq``'s
    :func:`line_pair_keys`, when the caller keeps them for many calls."""
    keep = np.isin(line_pair_keys(dq) if keys is None else keys, kept)
    return replace(
        dq,
        topic_code=dq.topic_code[keep],
        intent_code=dq.intent_code[keep],
        doc=dq.doc[keep],
        level=dq.level[keep],
        line=dq.line[keep],
    )
