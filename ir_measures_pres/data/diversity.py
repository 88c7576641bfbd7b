"""Strict readers of NTCIREVAL's diversity files (docs/diversity.md, spec diversity.md §1).

* **intent probabilities**: ``.Iprob`` lines ``topic intent P(i|q)`` (3 columns) or ``.DINprob``
  lines ``topic intent P(i|q) inf|nav`` (4 columns); every line has the width of the first;
  P(i|q) is a number in [0, 1], kept also as written (the tool prints it as written);
  a ``(topic, intent)`` given twice is an error;
* **diversity qrels** (``.Dqrels``): ``topic intent docno Ln``, the level ``L0`` .. ``L9``; a
  ``(topic, intent, docno)`` given twice is an error (the tool would add the document's gain
  twice);
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
from dataclasses import dataclass
from typing import IO, Dict, List, Optional, Tuple, Union

import numpy as np

from ._trec_parse import TrecFormatError
from .readers import _open

__all__ = ["IntentProbs", "DiversityQrels", "read_intent_probs", "read_dqrels", "check_against"]

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
    """One ``.Dqrels`` file, a row per line in file order."""

    source: str
    topic: List[str]
    intent: List[str]
    doc: List[str]
    level: np.ndarray
    line: List[int]


def _lines(source: Source) -> Tuple[str, List[Tuple[int, List[str]]]]:
    """(display name, [(line number, fields)]) of the non-blank lines."""
    stream, name, to_close = _open(source)
    try:
        data = stream.read()
    except (OSError, EOFError) as exc:
        raise TrecFormatError(name, None, "a readable file", f"{type(exc).__name__}: {exc}") from exc
    finally:
        for f in to_close:
            f.close()
    text = data.decode("utf-8", "surrogateescape")
    if text.startswith("\ufeff"):
        text = text[1:]
    rows = [(i, line.split()) for i, line in enumerate(text.split("\n"), start=1)]
    return name, [(i, fields) for i, fields in rows if fields]


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
    """Read a ``.Dqrels`` file (``topic intent docno Ln``)."""
    name, rows = _lines(source)
    if not rows:
        raise TrecFormatError(name, None, f"diversity qrels lines ({_DQRELS})", "an empty file")
    topic: List[str] = []
    intent: List[str] = []
    doc: List[str] = []
    level: List[int] = []
    lines: List[int] = []
    seen: Dict[Tuple[str, str, str], int] = {}
    for i, fields in rows:
        if len(fields) != 4:
            raise TrecFormatError(name, i, f"4 columns ({_DQRELS})", f"{len(fields)}: {' '.join(fields)!r}")
        lv = fields[3]
        if len(lv) != 2 or lv[0] != "L" or not ("0" <= lv[1] <= "9"):
            raise TrecFormatError(name, i, "a relevance level L0 .. L9 in column 4", repr(lv))
        key = (fields[0], fields[1], fields[2])
        if key in seen:
            raise TrecFormatError(
                name,
                i,
                "each (topic, intent, docno) once",
                f"topic {key[0]!r} intent {key[1]!r} document {key[2]!r} again (line {seen[key]})",
            )
        seen[key] = i
        topic.append(fields[0])
        intent.append(fields[1])
        doc.append(fields[2])
        level.append(int(lv[1]))
        lines.append(i)
    return DiversityQrels(name, topic, intent, doc, np.array(level, dtype=np.int64), lines)


def check_against(probs: IntentProbs, qrels: DiversityQrels) -> None:
    """Every topic of the qrels has probabilities; every intent with a relevant (L1+) line has a
    probability for its topic. (L0 lines, whatever their intent, are dropped by the tool.)"""
    topics = set(probs.topic)
    pairs = set(zip(probs.topic, probs.intent))
    for k, (t, i) in enumerate(zip(qrels.topic, qrels.intent)):
        if t not in topics:
            raise TrecFormatError(
                qrels.source,
                qrels.line[k],
                f"a topic of the probabilities {probs.source}",
                f"topic {t!r}, which has no intent probability there",
            )
        if qrels.level[k] > 0 and (t, i) not in pairs:
            raise TrecFormatError(
                qrels.source,
                qrels.line[k],
                f"an intent of topic {t!r} with a probability in {probs.source}",
                f"intent {i!r}, which has none",
            )
