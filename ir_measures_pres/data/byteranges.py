"""A large run parsed in byte ranges by the package's forked workers (:mod:`..runtime.pool`).

The reader (:mod:`.readers`) cuts a file into blocks of whole lines: it reads
:data:`~.readers.BLOCK_SIZE` bytes at a time and cuts each read after its last line feed (a read
without one is carried into the next). Here the same cuts are found without reading the file in
order, so that workers can parse parts of it side by side:

* the file is a *buffer* read at any offset: a regular file through ``os.pread`` (nothing read
  twice, nothing held), or bytes in memory (a gzipped file decompressed once, standard input
  read whole);
* it is split into *ranges* of about :data:`RANGE_BYTES`, each ending at one of the reader's cuts
  (the last line feed of a read window), so every range is whole lines;
* a worker reads its range, cuts it at the reader's cuts inside it and parses each block with
  the reader's block parser (:meth:`~._trec_parse.Reader.parse`), numbering lines from the range's
  start; it returns the parsed blocks (arrays, no Python object per line in bytes mode) and the
  range's number of lines;
* the caller takes the ranges in file order (:func:`~..runtime.pool.forked_map` returns them in
  order), moves their line numbers by the lines before them and completes each block
  (:meth:`~._trec_parse.Reader.number`), exactly as the one-core reader does.

The blocks are therefore the one-core reader's blocks, parsed by the same code: the entries,
codes, tags and every error (the first bad block of the file raises; its line counted across
ranges) are the same. A range's error reaches the caller only after every range before it was
taken, so the lines before it are known when its line number is moved.

Memory: at most ``2 * processes`` ranges are on the way (read, parsed or waiting), so a file
read block by block (:class:`~.runblocks.RunBlocks`) stays in bounded memory.

When it pays (:func:`range_processes`): a file of at least :data:`PARALLEL_MIN_BYTES`, more than
one CPU for this process, and no other pool of the package running in it (inside a forked worker,
or while a pool scores the blocks, the file is read on one core: no oversubscription). Why these
sizes: bench/README.md, "The reader in byte ranges".
"""

from __future__ import annotations

import gzip
import os
import stat
from typing import IO, Iterator, List, Optional, Tuple

from ..runtime.pool import can_fork, forked_map, pools_running
from ._trec_parse import Block, Reader, TrecFormatError
from .arrays import ids_as_str, usable_cpus

__all__ = [
    "PARALLEL_MIN_BYTES",
    "RANGE_BYTES",
    "BOM",
    "Buffer",
    "file_buffer",
    "line_ranges",
    "pread_all",
    "parse_in_ranges",
    "range_processes",
    "read_whole",
]

#: a file (or the bytes read from a stream) at least this large is parsed in ranges; a smaller
#: one on one core, which costs no pool start (bench/README.md)
PARALLEL_MIN_BYTES = 16 << 20
#: bytes per range handed to a worker (about; a range ends at a cut of the reader's blocks)
RANGE_BYTES = 8 << 20

#: the UTF-8 byte order mark: not part of a file's first query id
BOM = b"\xef\xbb\xbf"


class Buffer:
    """A file's bytes read at any offset: ``data`` in memory, or a regular file's descriptor
    (read by ``os.pread``, which a forked worker shares with no seek to race on). ``start``: the
    offset of the first byte of the text (after a UTF-8 byte order mark)."""

    def __init__(self, size: int, data: Optional[bytes] = None, fd: Optional[int] = None) -> None:
        self.size = size
        self.data = data
        self.fd = fd
        self.start = len(BOM) if self.read(0, len(BOM)) == BOM else 0

    def has(self, pos: int) -> bool:
        """Whether the file has a byte at offset ``pos``."""
        return pos < self.size

    def read_span(self, a: int, b: int) -> bytes:
        """:meth:`read`, in a worker (a range handed out: its bytes are all there)."""
        return self.read(a, b)

    def read(self, a: int, b: int) -> bytes:
        """The bytes ``[a, b)`` (fewer at the end of the file)."""
        b = min(b, self.size)
        if a >= b:
            return b""
        if self.data is not None:
            return self.data[a:b]
        assert self.fd is not None
        return pread_all(self.fd, a, b)


def pread_all(fd: int, a: int, b: int) -> bytes:
    """The bytes ``[a, b)`` of the file ``fd`` (fewer where it ends), by ``os.pread``."""
    parts: List[bytes] = []
    while a < b:  # pread may return less than asked (a signal, a very large read)
        part = os.pread(fd, b - a, a)
        if not part:  # the file shrank meanwhile: what is there is all there is
            break
        parts.append(part)
        a += len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def file_buffer(stream: IO[bytes]) -> Optional[Buffer]:
    """A :class:`Buffer` over ``stream`` when it is a regular file at offset 0 (so its bytes are
    the file's: not gzipped, not a pipe), else None."""
    if isinstance(stream, gzip.GzipFile):  # its descriptor is the compressed file's
        return None
    try:
        fd = stream.fileno()
        info = os.fstat(fd)
        at_start = stream.tell() == 0
    except (AttributeError, OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode) or not at_start:
        return None
    return Buffer(info.st_size, fd=fd)


def read_whole(stream: IO[bytes], name: str, piece: int) -> Tuple[bytes, Optional[BaseException]]:
    """Everything ``stream`` gives (a gzipped file decompressed once, standard input), read
    ``piece`` bytes at a time; and the error that stopped the reading, if one did (the caller
    parses the whole lines read before it first, so a bad line there is still the error)."""
    parts: List[bytes] = []
    try:
        while True:
            part = stream.read(piece)
            if not part:
                break
            if not isinstance(part, bytes):
                raise TypeError(f"{name}: expected a binary stream (open the file with 'rb')")
            parts.append(part)
    except (OSError, EOFError) as error:  # gzip.BadGzipFile is an OSError
        return b"".join(parts), error
    return b"".join(parts), None


def range_processes(size: int) -> int:
    """Workers to parse ``size`` bytes with: 1 (one core, no pool) for a small file, a single
    CPU, inside a forked worker or while another pool of this process runs."""
    if size < PARALLEL_MIN_BYTES or not can_fork() or pools_running():
        return 1
    return usable_cpus()


def _cut_before(buffer: Buffer, window_start: int, window_end: int, floor: int) -> Optional[int]:
    """The reader's cut for the read window ``[window_start, window_end)``: the offset after its
    last line feed (not before ``floor``), or None when the window holds none."""
    lo = max(window_start, floor)
    if lo >= window_end:
        return None
    text = buffer.read(lo, window_end)
    at = text.rfind(b"\n")
    return None if at < 0 else lo + at + 1


def line_ranges(buffer: Buffer, block_size: int, range_bytes: int) -> Iterator[Tuple[int, int]]:
    """``(start, end)`` byte ranges covering the text, in order, each ending at one of the
    reader's cuts (the last line feed of a window ``[k * block_size, (k + 1) * block_size)``), so
    each is whole blocks of the one-core reader; the last one ends at the end of the file."""
    blocks_per_range = max(1, range_bytes // block_size)
    start = buffer.start
    while start < buffer.size:
        window = start // block_size + blocks_per_range  # the range ends at this window's cut
        end = None
        while window * block_size < buffer.size:  # the cut of the window ending here, if any
            end = _cut_before(buffer, (window - 1) * block_size, window * block_size, start)
            if end is not None:
                break
            window += 1  # a window without a line feed is carried into the next, as the reader does
        if end is None:
            end = buffer.size
        yield start, end
        start = end


def _blocks_of(text: bytes, start: int, block_size: int, last: bool) -> Iterator[bytes]:
    """The reader's blocks of the range ``text`` (which begins at file offset ``start`` and ends
    at a cut, or at the end of the file when ``last``)."""
    end = start + len(text)
    a = 0
    window = start // block_size
    while True:
        window += 1
        window_end = window * block_size
        if window_end >= end:
            break
        lo = max((window - 1) * block_size, start + a) - start
        at = text.rfind(b"\n", lo, window_end - start)
        if at >= 0:
            yield text[a : at + 1]
            a = at + 1
    rest = text[a:]
    if rest.endswith(b"\n") or not last:
        if rest:
            yield rest
        return
    at = rest.rfind(b"\n")  # the reader's last cut, then what follows it as a line of its own
    if at >= 0:
        yield rest[: at + 1]
    yield rest[at + 1 :] + b"\n"


def _parse_range(
    reader: Reader, buffer: Buffer, span: Tuple[int, int], block_size: int
) -> Tuple[List[Block], int]:
    """A worker's part: the blocks of one range parsed, lines numbered from the range's start;
    and the range's number of lines. An error's line is counted from the range's start too."""
    start, end = span
    text = buffer.read(start, end)
    blocks: List[Block] = []
    line = 1
    for chunk in _blocks_of(text, start, block_size, end >= buffer.size):
        try:
            block, lines = reader.parse(chunk, 1)
        except TrecFormatError as error:
            raise _moved(error, line - 1) from None
        _move(block, line - 1)
        blocks.append(block)
        line += lines
    return blocks, line - 1


def _move(block: Block, lines: int) -> None:
    block.first_line += lines
    if block.non_utf8_line is not None:
        block.non_utf8_line += lines


def _moved(error: TrecFormatError, lines: int) -> TrecFormatError:
    if error.line is None or not lines:
        return error
    return TrecFormatError(error.source, error.line + lines, error.expected, error.found)


def parse_in_ranges(reader: Reader, buffer: Buffer, processes: int, block_size: int) -> Iterator[Block]:
    """The blocks of ``buffer`` parsed in ranges by ``processes`` forked workers, completed
    (:meth:`~._trec_parse.Reader.number`) and yielded in file order, line numbers counted over
    the whole file: what the one-core reader yields (module docstring)."""

    # the workers cut document ids as bytes (arrays pickle in one piece, a str per line would be
    # pickled and unpickled one by one: twice the CPU); str ids are decoded here, as
    # :func:`~.arrays.ids_as_str` decodes them, which gives the str reader's ids
    parser = Reader(reader.kind, reader.name, True, reader.col2)

    def work(span: Tuple[int, int]) -> Tuple[List[Block], int]:
        return _parse_range(parser, buffer, span, block_size)

    line = 1
    ranges = forked_map(work, line_ranges(buffer, block_size, RANGE_BYTES), processes, ahead=2 * processes)
    try:
        while True:
            try:
                parsed = next(ranges, None)
            except TrecFormatError as error:  # the ranges before it are taken: their lines are known
                raise _moved(error, line - 1) from None
            if parsed is None:
                return
            blocks, lines = parsed
            for block in blocks:
                _move(block, line - 1)
                reader.number(block)
                if not reader.as_bytes:
                    block.docs = ids_as_str(block.docs)
                yield block
            line += lines
    finally:
        close = getattr(ranges, "close", None)
        if close is not None:  # the workers end now, however the caller leaves
            close()
