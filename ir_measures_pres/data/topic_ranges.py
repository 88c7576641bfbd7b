"""A large run read *and scored* in byte ranges of whole queries by the package's forked workers.

:mod:`.byteranges` has workers parse a file and send its columns back, so the process that
scores still does all the scoring, and receives every line's arrays. Here each worker reads a
range of whole queries, cuts it into blocks (:class:`~.runblocks.RunBlocks`, the same reader,
checks and duplicate rule) and scores every block itself with the caller's function: what comes
back is the scores (a few numbers per query) and what the caller needs of the file besides
them. Both CPUs parse and score; the caller merges.

* **Ranges of whole queries.** A cut (:func:`query_ranges`) is put before a result line whose
  query differs from the previous result line's, about :data:`~.byteranges.RANGE_BYTES` apart,
  so a run grouped by query (every TREC tool writes one) has each query in one range. Only a few
  lines around each cut are read for it.
* **The same results.** A query's values do not depend on the other queries, so the blocks'
  scores are those the one-core reading gives, in the same order (ranges in file order, blocks
  in order inside a range). The file's query ids (in order of first appearance), first and last
  tags, result lines and the one duplicates warning (its count summed, its first pair the first
  range's that has one, its line numbers moved by the lines before the range) are made from the
  ranges'. Warnings the scoring gives in a worker are given again here, each once.
* **Errors as the one-core reading gives them.** A line that cannot be read, a query found in two
  places (in one range or two) or an id a scorer cannot take is raised by a worker with the line
  numbers of its range, and which of several bad lines is reported depends on the reader's blocks.
  So any :class:`~.inputs.InputError` here means: read it again in order. :class:`RangesFailed`
  says so; the caller reads the file on one core (``RunBlocks``) and reports what that reports,
  the same message, line and status as always (an ungrouped run: the caller's fallback).
* **Gzipped files** are decompressed once, by a thread of the caller, into a temporary file
  (:class:`_Unpacking`): the ranges are cut and read from it as it grows, so the decompression
  and the workers overlap and memory stays bounded.
* **Bounded memory, faults.** At most ``2 * processes`` ranges are on the way; a worker's death
  and a stop behave as :func:`~..runtime.pool.forked_map` makes them.

When it is used: :func:`pays` (a regular file of at least :data:`~.byteranges.PARALLEL_MIN_BYTES`,
gzipped a quarter of that, more than one CPU, no pool already running). Measured in
bench/README.md, "Ranges of whole queries, scored where they are read".
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
import threading
import warnings
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Dict, Generic, Iterator, List, Optional, Protocol, Tuple, TypeVar

from ..runtime.pickling import PicklesByParts
from ..runtime.pool import forked_map
from ..runtime.stops import stop_point
from . import byteranges
from .blocks import open_source
from .byteranges import BOM, file_buffer, pread_all, range_processes
from .inputs import Columns, InputError
from .readers import RUN_KIND, TrecFormatWarning, duplicates_message
from .runblocks import BLOCK_LINES, RunBlocks

__all__ = ["RangesFailed", "ScoredRanges", "pays", "query_ranges"]

R = TypeVar("R")

#: bytes read at a time around a cut to find the next query boundary
_LOOK = 1 << 16


class RangesFailed(PicklesByParts, InputError):
    """The file could not be read in ranges as it is (a bad line, a query in two places, an id
    a scorer refused): read it on one core, which reports it as it always has. ``reason``: what
    was found (a worker's message counts its lines from its range's start)."""

    PARTS = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"read the file again in order ({reason})")


class Text(Protocol):
    """A file's text read at any offset: a :class:`~.byteranges.Buffer` (a regular file, or bytes
    in memory) or a gzipped file being decompressed (:class:`_Unpacking`)."""

    @property
    def start(self) -> int: ...  # the offset of the text's first byte (after a byte order mark)

    @property
    def size(self) -> int: ...  # the text's end

    def has(self, pos: int) -> bool: ...

    def read(self, a: int, b: int) -> bytes: ...

    def read_span(self, a: int, b: int) -> bytes: ...


def _first_token(line: bytes) -> Optional[bytes]:
    """A line's first token (whitespace as C's isspace, as the reader splits), or None for a
    blank line or a comment."""
    parts = line.split(None, 1)
    if not parts or parts[0].startswith(b"#"):
        return None
    return parts[0]


def _line_start(buffer: Text, at: int) -> Optional[int]:
    """The first line start at or after ``at`` (> 0), or None when the file ends first."""
    look = at - 1
    while True:
        text = buffer.read(look, look + _LOOK)
        if not text:
            return None
        nl = text.find(b"\n")
        if nl >= 0:
            start = look + nl + 1
            return start if buffer.has(start) else None
        look += len(text)


def _start_of_line_before(buffer: Text, end: int, floor: int) -> int:
    """The start of the line whose line feed is the byte before ``end`` (not before ``floor``)."""
    hi, size = end - 1, 256
    while hi > floor:
        lo = max(floor, hi - size)
        k = buffer.read(lo, hi).rfind(b"\n")
        if k >= 0:
            return lo + k + 1
        hi, size = lo, min(2 * size, _LOOK)
    return floor


def _last_token_before(buffer: Text, at: int, floor: int) -> Optional[bytes]:
    """The query id of the last result line before ``at`` (a line start), looking back no
    further than ``floor`` (a line start); None when there is none."""
    end = at
    while end > floor:
        start = _start_of_line_before(buffer, end, floor)
        if end - start <= _LOOK:
            token = _first_token(buffer.read(start, end))
        else:
            token = _long_line_token(buffer, start)
        if token is not None:
            return token
        end = start
    return None


def _long_line_token(buffer: Text, pos: int) -> Optional[bytes]:
    """:func:`_first_token` of the line starting at ``pos``, read in growing pieces until its
    first token is whole (a line longer than the bytes read at a time)."""
    size = _LOOK
    while True:
        text = buffer.read(pos, pos + size)
        line = text.split(b"\n", 1)[0]
        if len(line.split(None, 1)) == 2 or len(line) < len(text) or not buffer.has(pos + len(text)):
            return _first_token(line)
        size *= 2


def _next_boundary(buffer: Text, target: int, floor: int) -> Optional[int]:
    """The start of the first result line at or after ``target`` whose query differs from the
    result line before it; None when the file ends first. ``floor``: the range's start."""
    pos = _line_start(buffer, target)
    if pos is None:
        return None
    previous = _last_token_before(buffer, pos, floor)
    while buffer.has(pos):
        text = buffer.read(pos, pos + _LOOK)
        lines = text.split(b"\n")
        if buffer.has(pos + len(text)):
            lines = lines[:-1]  # the start of a line that goes on past the look
        if not lines:  # a line longer than the look
            token = _long_line_token(buffer, pos)
            if token is not None:
                if previous is not None and token != previous:
                    return pos
                previous = token
            after = _line_start(buffer, pos + 1)
            if after is None:
                return None
            pos = after
            continue
        for line in lines:
            token = _first_token(line)
            if token is not None:
                if previous is not None and token != previous:
                    return pos
                previous = token
            pos += len(line) + 1
    return None


def query_ranges(buffer: Text, range_bytes: Optional[int] = None) -> Iterator[Tuple[int, int]]:
    """``(start, end)`` byte ranges covering the text in order, each cut before a result line
    whose query differs from the previous result line's, about ``range_bytes`` long (default
    :data:`~.byteranges.RANGE_BYTES`; longer when a query is)."""
    range_bytes = range_bytes or byteranges.RANGE_BYTES
    start = buffer.start
    while buffer.has(start):
        cut = _next_boundary(buffer, start + range_bytes, start) if buffer.has(start + range_bytes) else None
        end = buffer.size if cut is None or cut <= start else cut
        yield start, end
        start = end


@dataclass
class _Range(Generic[R]):
    """What a worker sends back for one range."""

    scores: List[R]
    query_names: List[str]
    tag: Optional[str]
    last_tag: Optional[str]
    results: int  # result lines
    newlines: int  # every line of the range (comments and blank ones too)
    dropped: int
    example: Optional[Tuple[str, Any, List[int]]]
    caught: List[Tuple[str, type, str, int]] = field(default_factory=list)


class ScoredRanges(Generic[R]):
    """A run file read in ranges of whole queries, each block scored by ``score`` in the worker
    that read it (module docstring); iterate once. Yields ``score(block)`` for every block of
    the file in order, as ``map(score, RunBlocks(source, doc_ids, block_lines))`` would, and
    has its attributes after the iteration: :attr:`query_names`, :attr:`tag`, :attr:`last_tag`,
    :attr:`lines`, :attr:`name`. Raises :class:`RangesFailed` for anything the file holds that
    needs the one-core reading."""

    def __init__(
        self,
        source: Any,
        score: Callable[[Columns], R],
        doc_ids: str = "bytes",
        block_lines: int = BLOCK_LINES,
        processes: Optional[int] = None,
    ) -> None:
        self.source = source
        self.score = score
        self.doc_ids = doc_ids
        self.block_lines = block_lines
        self.processes = processes
        self.query_names: List[str] = []
        self.tag: Optional[str] = None
        self.last_tag: Optional[str] = None
        self.lines = 0
        self.name = ""

    def __iter__(self) -> Iterator[R]:
        stream, name, files = open_source(self.source)
        to_close: List[Any] = list(files)
        self.name = name
        try:
            buffer: Optional[Text] = file_buffer(stream)
            if buffer is None:  # gzipped: decompressed once, into a temporary file, then split
                copy = tempfile.TemporaryFile(prefix="ir_measures_pres-run-")  # noqa: SIM115 - closed below
                to_close.append(copy)
                buffer = _Unpacking(stream, name, copy)
                to_close.insert(0, buffer)  # its thread ends before the files close
                processes = self.processes or range_processes(byteranges.PARALLEL_MIN_BYTES)
            else:
                processes = self.processes or range_processes(buffer.size - buffer.start)
            yield from self._merged(buffer, name, processes)
        finally:
            for f in to_close:
                f.close()

    def _merged(self, buffer: Text, name: str, processes: int) -> Iterator[R]:
        score, doc_ids, block_lines = self.score, self.doc_ids, self.block_lines

        def work(span: Tuple[int, int]) -> _Range[R]:
            return _read_range(buffer, span, name, score, doc_ids, block_lines)

        seen: Dict[str, None] = {}
        line = 0  # lines before the range
        dropped = 0
        example: Optional[Tuple[str, Any, List[int]]] = None
        given: Dict[Tuple[str, type, str, int], None] = {}
        parts = forked_map(work, query_ranges(buffer), processes, ahead=2 * processes)
        try:
            while True:
                try:
                    part = next(parts, None)
                except InputError as error:
                    raise RangesFailed(f"{type(error).__name__}: {error}") from None
                if part is None:
                    break
                if any(q in seen for q in part.query_names):  # a query in two ranges
                    raise RangesFailed(f"{name}: a query is found in two ranges")
                seen.update(dict.fromkeys(part.query_names))
                if self.tag is None:
                    self.tag = part.tag
                if part.last_tag is not None:
                    self.last_tag = part.last_tag
                self.lines += part.results
                dropped += part.dropped
                if example is None and part.example is not None:
                    qid, doc, same = part.example
                    example = (qid, doc, [n + line for n in same])
                given.update(dict.fromkeys(part.caught))
                line += part.newlines
                yield from part.scores
        finally:
            close = getattr(parts, "close", None)
            if close is not None:  # the workers end now, however the caller leaves
                close()
        self.query_names = list(seen)
        if not self.lines:  # comments only: the one-core reading's error
            raise RangesFailed(f"{name}: no result line")
        # the warnings once the file is read (a file read again in order gives its own), each once
        for text, category, filename, lineno in given:
            warnings.warn_explicit(text, category, filename, lineno)
        if example is not None:
            qid, doc, same = example
            warnings.warn(
                duplicates_message(name, RUN_KIND, dropped, qid, doc, same), TrecFormatWarning, stacklevel=3
            )


class _Unpacking:
    """A gzipped run's text, decompressed once by a thread into a temporary file (memory stays
    bounded) while the ranges before are cut and read: :meth:`read` and :meth:`has` wait for the
    bytes they need, :attr:`size` for the end. The thread starts at the first of these, which is
    after the workers are forked (:func:`~..runtime.pool.forked_map` forks before it reads its
    first item), so no worker is forked beside it; a worker reads its range, all written before
    it was handed out, with :meth:`read_span`. A damaged file, or no room for the copy, raises
    :class:`RangesFailed` where the damage is reached: the one-core reading reports it after the
    lines before it, as it always has."""

    def __init__(self, stream: IO[bytes], name: str, copy: IO[bytes]) -> None:  # noqa: D107
        self.fd = copy.fileno()
        self.name = name
        self.stream = stream
        self.written = 0
        self.done = False
        self.error: Optional[str] = None
        self.closing = False
        self.changed = threading.Condition()
        self.thread: Optional[threading.Thread] = None
        self._start: Optional[int] = None

    @property
    def start(self) -> int:
        if self._start is None:
            self._start = len(BOM) if self.read(0, len(BOM)) == BOM else 0
        return self._start

    @property
    def size(self) -> int:
        self._wait_for(None)
        return self.written

    def has(self, pos: int) -> bool:
        self._wait_for(pos + 1)
        return pos < self.written

    def read(self, a: int, b: int) -> bytes:
        self._wait_for(b)
        return self.read_span(a, min(b, self.written))

    def read_span(self, a: int, b: int) -> bytes:
        return pread_all(self.fd, a, b)

    def _wait_for(self, end: Optional[int]) -> None:
        """Wait until ``end`` bytes are written (None: all of them), or the text ends before."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._unpack, name="gunzip", daemon=True)
            self.thread.start()
        with self.changed:
            while not self.done and (end is None or self.written < end):
                self.changed.wait(0.1)
                stop_point()
        if self.error is not None and (end is None or self.written < end):
            raise RangesFailed(self.error)

    def _unpack(self) -> None:
        try:
            while not self.closing:
                piece = self.stream.read(1 << 20)
                if not piece:
                    break
                at = 0
                while at < len(piece):
                    at += os.pwrite(self.fd, piece[at:], self.written + at)
                with self.changed:
                    self.written += len(piece)
                    self.changed.notify_all()
        except (OSError, EOFError, ValueError) as error:  # gzip.BadGzipFile is an OSError
            self.error = f"{self.name}: {type(error).__name__}: {error}"
        finally:
            with self.changed:
                self.done = True
                self.changed.notify_all()

    def close(self) -> None:
        """End the thread (at its next piece) before the files it reads and writes close."""
        self.closing = True
        if self.thread is not None:
            self.thread.join()


def pays(source: Any) -> bool:
    """Whether ``source`` is read and scored in ranges: a path to a regular file of at least
    :data:`~.byteranges.PARALLEL_MIN_BYTES` (gzipped: at least a quarter of that, compressed),
    with more than one CPU and no pool of the package already running
    (:func:`~.byteranges.range_processes`)."""
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
        return False
    try:
        with open(source, "rb") as stream:
            gzipped = stream.read(2) == b"\x1f\x8b"  # the readers' rule
            info = os.fstat(stream.fileno())
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    size = info.st_size * 4 if gzipped else info.st_size
    return range_processes(size) > 1


def _read_range(
    buffer: Text,
    span: Tuple[int, int],
    name: str,
    score: Callable[[Columns], R],
    doc_ids: str,
    block_lines: int,
) -> _Range[R]:
    """A worker's part: one range read in blocks of whole queries, each scored."""
    start, end = span
    data = buffer.read_span(start, end)
    stream = io.BufferedReader(_Named(data, name))  # type: ignore[arg-type]
    blocks = RunBlocks(stream, doc_ids, block_lines, warn=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = [score(block) for block in blocks]
    newlines = data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    return _Range(
        scores,
        blocks.query_names,
        blocks.tag,
        blocks.last_tag,
        blocks.lines,
        newlines,
        blocks.dropped,
        blocks.example,
        [(str(w.message), w.category, w.filename, w.lineno) for w in caught],
    )


class _Named(io.BytesIO):
    """A range's bytes, under the file's name (what the reader's messages call it); it has no
    file descriptor, so the reader reads it in order, on this core."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name
