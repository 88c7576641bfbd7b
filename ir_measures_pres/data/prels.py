"""statAP's sampled judgements: the prels file of TREC's Million Query track.

A prels file has five whitespace-separated columns per line, ``topic docno rel method iprob``:
the relevance of a sampled document, the sampling method that chose it and its inclusion
probability π. It is read as ``statAP_MQ_eval_v3.pl`` (V. Pavlu, TREC Million Query) reads it:

* a line with ``rel == -999`` is skipped before anything else (its topic is not made known by it);
* a line with ``iprob`` ``NA``, ``iprob < 0`` or ``iprob > 1`` is skipped, and so is one with
  ``rel < -999`` (its topic is known all the same: the tool lists it, as a topic without NEU
  judgements);
* a line of method 0 or 2 (UMass's sampling, or both) counts with π = 1;
* methods 0 and 2 count as UMass judgements of the topic, methods 1, 2 and 4 as NEU ones (the
  tool prints ``UMASS`` for a topic without NEU judgements and skips it, ``NEU`` for one
  without UMass judgements, ``MIXED`` for the others);
* ``rel >= 1`` is relevant (every grade alike); any other kept value is a judged non-relevant
  document.

Unlike the tool, which splits the whole file on whitespace and takes five tokens at a time, a
line must have exactly five columns (a 4-column qrels line or a 6-column run line is named as
such); ``#`` comment lines and blank lines are skipped, as the package's other readers do;
``rel`` and ``method`` must be integers and ``iprob`` a number or ``NA`` (the tool would read
``abc`` as 0); a relevant document of method 1 or 4 with π = 0 is an error (the tool dies dividing
by it). A document listed twice for a topic keeps its last line, with a
:class:`~.readers.TrecFormatWarning` (the tool counts both lines as sampled). A topic whose
lines are not together is read as one topic (the tool restarts its counts where the topic comes
back).

The errors are the readers' :class:`~.readers.TrecFormatError`: file and line, what was expected,
what was found.
"""

from __future__ import annotations

import functools
import math
import os
import warnings
from dataclasses import dataclass, field
from typing import IO, Dict, List, Optional, Tuple, Union

import numpy as np

from ._trec_parse import Kind, Reader, TrecFormatError, TrecFormatWarning
from .arrays import offsets_from_counts, segment_ids, sums_in_order
from .blocks import open_source
from .inputs import RELEVANCE_MAX, RELEVANCE_MIN, file_stamp
from .qrels import Qrels
from .readers import duplicates_message

__all__ = ["Prels", "read_prels", "prels_rows"]

PRELS_COLUMNS = "topic docno rel method iprob"
#: the prels as a kind of file, for the readers' duplicate message
_PRELS = Kind("prels", PRELS_COLUMNS, 5, 5, 2, "rel", True)
#: methods whose documents count with π = 1 (UMass's, and those both methods sampled)
UMASS_METHODS = (0, 2)
#: methods counted as NEU judgements
NEU_METHODS = (1, 2, 4)
#: the rel value of a line the tool skips outright
NOT_SAMPLED = -999


@dataclass
class Prels:
    """A prels file as statAP uses it.

    ``topics`` are the topics the tool knows (a line whose rel is not -999), in order of first
    appearance; the kept judgements of topic ``i`` are rows ``offsets[i]:offsets[i + 1]`` of
    ``docs``, ``rel``, ``method`` and ``iprob`` (π, set to 1 for methods 0 and 2), in file order.
    ``neu[i]`` and ``umass[i]`` count the topic's kept NEU and UMass lines.
    """

    source: str
    topics: List[str]
    offsets: np.ndarray
    docs: np.ndarray
    rel: np.ndarray
    method: np.ndarray
    iprob: np.ndarray
    neu: np.ndarray
    umass: np.ndarray
    index: Dict[str, int] = field(init=False)
    _lookup: Optional[List[Dict[str, int]]] = field(default=None, init=False, repr=False)
    _r_hat: Optional[np.ndarray] = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {t: i for i, t in enumerate(self.topics)}

    @property
    def lookup(self) -> List[Dict[str, int]]:
        """Per topic, ``{docno: row}``."""
        if self._lookup is None:
            docs = self.docs.tolist()
            self._lookup = [
                dict(zip(docs[a:b], range(a, b)))
                for a, b in zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist())
            ]
        return self._lookup

    @property
    def relevant(self) -> np.ndarray:
        """Whether each row is a relevant document (rel >= 1)."""
        return self.rel >= 1

    def sampled(self) -> np.ndarray:
        """Per topic, the kept lines (the tool's ``sampled=``)."""
        return np.diff(self.offsets)

    def sampled_relevant(self) -> np.ndarray:
        """Per topic, the kept relevant lines (the tool's ``sampled_relev=``)."""
        qidx = segment_ids(self.offsets)
        return np.bincount(qidx[self.relevant], minlength=len(self.topics)).astype(np.int64)

    def r_hat(self) -> np.ndarray:
        """Per topic, R̂ = Σ 1/π over its relevant documents, added in file order (the script
        adds them in its hash's order: with π other than 1, 0.5, 0.25 ... its last bit may
        change from one invocation to the next)."""
        if self._r_hat is not None:
            return self._r_hat
        weight = np.where(self.relevant, 1.0 / np.where(self.relevant, self.iprob, 1.0), 0.0)
        self._r_hat = sums_in_order(weight, self.offsets)
        return self._r_hat

    def qrels(self) -> Dict[str, Dict[str, int]]:
        """The kept judgements as qrels, ``{topic: {docno: rel}}`` (every topic the tool knows,
        some maybe empty): for the QRELS the measures need beside the prels, or for other
        measures."""
        docs, rel = self.docs.tolist(), self.rel.tolist()
        return {
            t: dict(zip(docs[a:b], rel[a:b]))
            for t, a, b in zip(self.topics, self.offsets[:-1].tolist(), self.offsets[1:].tolist())
        }


# --------------------------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------------------------


def _shown(raw: bytes) -> str:
    """A line as the readers show it in a message."""
    return Reader.line_text(raw + b"\n", np.array([len(raw)]), 0)


def _hint(count: int) -> str:
    if count == 4:
        return " (a 4-column qrels line: a prels file has 5 columns)"
    if count == 6:
        return " (a 6-column run line: the prels file comes first, PRELS RUN)"
    return ""


def read_prels(source: Union[str, "os.PathLike[str]", IO[bytes]]) -> Prels:
    """Read a prels file (``topic docno rel method iprob``) with the tool's skip rules (see the
    module docstring). ``source`` is a path, ``"-"`` or a binary file object; gzip is
    recognised. Raises :class:`~.readers.TrecFormatError` on a malformed line or a file with no
    prels line."""
    stream, name, to_close = open_source(source)
    try:
        try:
            data = stream.read()
        except (OSError, EOFError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise TrecFormatError(
                name, None, "a readable prels file", f"{type(exc).__name__}: {exc}"
            ) from exc
    finally:
        for f in to_close:
            f.close()
    if not isinstance(data, bytes):
        raise TypeError(f"{name}: expected a binary stream (open the file with 'rb')")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return _parse(data, name)


def _parse(data: bytes, name: str) -> Prels:
    topics: Dict[str, int] = {}
    rows: List[List[Tuple[str, int, int, float, int]]] = []  # per topic: (doc, rel, method, π, line)
    neu: List[int] = []
    umass: List[int] = []
    entries = 0
    for number, raw in enumerate(data.split(b"\n"), 1):
        if b"\r" in raw:
            if raw.endswith(b"\r") and b"\r" not in raw[:-1]:
                raw = raw[:-1]
            else:
                raise TrecFormatError(
                    name, number, "lines ending with LF or CRLF", "a lone carriage return (CR) inside a line"
                )
        if b"\x00" in raw:
            raise TrecFormatError(name, number, "text", "a NUL byte")
        tokens = raw.split()
        if not tokens or tokens[0].startswith(b"#"):
            continue
        entries += 1
        if len(tokens) != 5:
            raise TrecFormatError(
                name,
                number,
                f"5 columns ({PRELS_COLUMNS})",
                f"{len(tokens)}: {_shown(raw)}{_hint(len(tokens))}",
            )
        topic_b, doc_b, rel_b, method_b, iprob_b = tokens
        rel = _integer(rel_b, name, number, "column 3 (rel)")
        method = _integer(method_b, name, number, "column 4 (method)")
        iprob = math.nan if iprob_b == b"NA" else _number(iprob_b, name, number)
        if rel == NOT_SAMPLED:
            continue
        topic = topic_b.decode("utf-8", "surrogateescape")
        t = topics.get(topic)
        if t is None:
            t = topics[topic] = len(rows)
            rows.append([])
            neu.append(0)
            umass.append(0)
        if iprob != iprob or iprob < 0 or iprob > 1 or rel < NOT_SAMPLED:
            continue
        if method in UMASS_METHODS:
            umass[t] += 1
            iprob = 1.0
        if method in NEU_METHODS:
            neu[t] += 1
        if rel >= 1 and iprob == 0:
            raise TrecFormatError(
                name,
                number,
                "an inclusion probability above 0 for a relevant document (column 5, iprob: "
                "statAP divides by it)",
                _shown(iprob_b),
            )
        rows[t].append((doc_b.decode("utf-8", "surrogateescape"), rel, method, iprob, number))
    if entries == 0:
        raise TrecFormatError(
            name,
            None,
            f"prels lines ({PRELS_COLUMNS})",
            "an empty file" if not data.strip() else "only comments",
        )
    rows = [_last_wins(r, name, topic) for r, topic in zip(rows, topics)]
    flat = [row for r in rows for row in r]
    offsets = offsets_from_counts(np.fromiter(map(len, rows), dtype=np.int64, count=len(rows)))
    docs = np.empty(len(flat), dtype=object)
    docs[:] = [r[0] for r in flat]
    return Prels(
        name,
        list(topics),
        offsets,
        docs,
        np.fromiter((r[1] for r in flat), dtype=np.int64, count=len(flat)),
        np.fromiter((r[2] for r in flat), dtype=np.int64, count=len(flat)),
        np.fromiter((r[3] for r in flat), dtype=np.float64, count=len(flat)),
        np.asarray(neu, dtype=np.int64),
        np.asarray(umass, dtype=np.int64),
    )


def _integer(token: bytes, name: str, line: int, col: str) -> int:
    try:
        if b"_" in token:
            raise ValueError
        value = int(token)
    except ValueError:
        raise TrecFormatError(name, line, f"an integer in {col}", _shown(token)) from None
    if not RELEVANCE_MIN <= value <= RELEVANCE_MAX:
        raise TrecFormatError(
            name, line, f"an integer within {RELEVANCE_MIN}..{RELEVANCE_MAX} in {col}", _shown(token)
        )
    return value


def _number(token: bytes, name: str, line: int) -> float:
    try:
        if b"_" in token:
            raise ValueError
        value = float(token)
    except ValueError:
        value = math.inf
    if not math.isfinite(value):
        raise TrecFormatError(
            name, line, "a number or NA in column 5 (iprob, the inclusion probability)", _shown(token)
        )
    return value


def _last_wins(
    rows: List[Tuple[str, int, int, float, int]], name: str, topic: str
) -> List[Tuple[str, int, int, float, int]]:
    """A topic's rows with each document once (its last line), with a warning when one repeats."""
    last: Dict[str, int] = {}
    for i, row in enumerate(rows):
        last[row[0]] = i
    if len(last) == len(rows):
        return rows
    dropped = len(rows) - len(last)
    first = next(row for i, row in enumerate(rows) if last[row[0]] != i)
    lines = [row[4] for row in rows if row[0] == first[0]]
    warnings.warn(
        duplicates_message(name, _PRELS, dropped, topic, first[0], lines)
        + " (statAP_MQ_eval_v3.pl counts every line as sampled)",
        TrecFormatWarning,
        stacklevel=4,
    )
    keep = sorted(last.values())
    return [rows[i] for i in keep]


# --------------------------------------------------------------------------------------------
# read once per file; joined with an evaluation's qrels once
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _read_cached(path: str, stamp: Tuple[int, int]) -> Prels:
    return read_prels(path)


def prels_of(path: str) -> Prels:
    """The prels file at ``path``, read once while it is unchanged (its mtime and size)."""
    return _read_cached(path, file_stamp(path))


def prels_rows(qrels: Qrels, path: str) -> Tuple[Prels, Qrels]:
    """The prels at ``path`` and, aligned with ``qrels``' queries, a :class:`Qrels` whose label
    of each (query, document) of the prels is its row in the prels arrays (for
    :func:`.ranking.document_labels`: a ranked document's label is then its prels row, or
    ``ABSENT``). Made once per qrels and file version."""
    prels = prels_of(path)

    def make() -> Qrels:
        lookup = [prels.lookup[prels.index[q]] if q in prels.index else {} for q in qrels.query_ids]
        sizes = np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup))
        labels = np.fromiter((r for d in lookup for r in d.values()), dtype=np.int64, count=int(sizes.sum()))
        return Qrels(list(qrels.query_ids), offsets_from_counts(sizes), labels, lookup)

    return prels, qrels.cached(("prels", path, file_stamp(path)), make)
