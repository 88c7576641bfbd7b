"""Opening a TREC input and cutting it into parsed blocks of whole lines, in file order: the
block reader under :func:`~.readers.read_qrels`, :func:`~.readers.read_run`,
:class:`~.runblocks.RunBlocks` and the other TREC-format readers (prels, diversity).

:func:`open_source` opens a path, ``"-"`` (standard input) or a binary file object and
recognises gzip by its magic bytes; :func:`line_blocks` reads about :data:`BLOCK_SIZE` bytes at a
time and cuts them after the last line feed (a UTF-8 byte order mark at the start is dropped);
:func:`parsed_in_order` has the blocks parsed side by side by :data:`PARSE_THREADS` threads and
yields them in file order with their line numbers; :func:`parsed_blocks` does the same for a
whole stream, in byte ranges by forked workers when the file is large enough
(:mod:`.byteranges`). The parse of one block is :mod:`._trec_parse`'s.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import chain
from typing import IO, Any, Deque, Iterator, List, Tuple

from ..runtime.pool import in_worker
from ..runtime.stops import stop_point
from ._trec_parse import Block, Reader, TrecFormatError
from .arrays import usable_cpus
from .byteranges import (
    BOM,
    PARALLEL_MIN_BYTES,
    Buffer,
    file_buffer,
    parse_in_ranges,
    range_processes,
    read_whole,
)
from .inputs import input_file_error

__all__ = ["BLOCK_SIZE", "PARSE_THREADS", "line_blocks", "open_source", "parsed_blocks", "parsed_in_order"]

#: Bytes read at a time (the file is processed in blocks of whole lines of about this size).
BLOCK_SIZE = 1 << 20
#: Threads parsing blocks side by side (one per CPU this process may use, at most 4).
PARSE_THREADS = usable_cpus()


def open_source(source: Any) -> Tuple[IO[bytes], str, List[IO[bytes]]]:
    """(binary stream, display name, streams to close); gzip is recognised by its magic bytes."""
    to_close: List[IO[bytes]] = []
    if hasattr(source, "read"):
        raw, name = source, str(getattr(source, "name", "<stream>"))
    elif isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise TrecFormatError("<stdin>", None, "a readable file on standard input", "it closed")
        raw, name = sys.stdin.buffer, "<stdin>"
    elif isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        stop_point()  # a stop something dropped ends the command before it waits on a file
        try:
            raw = open(name, "rb")  # noqa: SIM115 - closed by the caller
        except OSError as exc:  # the package's one error type for bad input (still a FileNotFoundError)
            raise input_file_error(exc) from None
        to_close.append(raw)
    else:
        raise TypeError(f"expected a path, '-' or a binary file object, got {type(source).__name__}")
    if isinstance(raw, io.RawIOBase):
        raw = io.BufferedReader(raw)
    if hasattr(raw, "peek"):
        magic = raw.peek(2)[:2]
    elif hasattr(raw, "seekable") and raw.seekable():
        pos = raw.tell()
        magic = raw.read(2)
        raw.seek(pos)
    else:  # pragma: no cover - an unpeekable, unseekable stream: read as plain text
        magic = b""
    if magic == b"\x1f\x8b":
        stream = gzip.GzipFile(fileobj=raw, mode="rb")
        to_close.insert(0, stream)  # type: ignore[arg-type]
        return stream, name, to_close  # type: ignore[return-value]
    return raw, name, to_close


def line_blocks(stream: IO[bytes], name: str) -> Iterator[bytes]:
    """Blocks of whole lines (each ends with ``\\n``; one is added to a last line without it)."""
    carry = b""
    first = True
    while True:
        block = stream.read(BLOCK_SIZE)
        if not block:
            break
        if not isinstance(block, bytes):
            raise TypeError(f"{name}: expected a binary stream (open the file with 'rb')")
        if first:  # a UTF-8 byte order mark is not part of the first query id
            first = False
            if block.startswith(BOM):
                block = block[len(BOM) :]
            elif len(block) < len(BOM) and BOM.startswith(block):  # a read shorter than the mark
                block += stream.read(len(BOM))
                block = block[len(BOM) :] if block.startswith(BOM) else block
        cut = block.rfind(b"\n")
        if cut < 0:
            carry += block
            continue
        chunk = carry + block[: cut + 1] if carry else block[: cut + 1]
        carry = block[cut + 1 :]
        yield chunk
    if carry:
        yield carry + b"\n"


def parsed_blocks(reader: Reader, stream: IO[bytes], name: str, whole: bool = False) -> Iterator[Block]:
    """The blocks of a run ``stream`` parsed and completed in file order (what reading it in
    order gives): in byte ranges by forked workers when that pays (:mod:`.byteranges`; a regular
    file, or with ``whole`` any stream, read whole first: a gzipped file decompressed once,
    standard input), else by this process's threads (:func:`_parsed_in_order`)."""
    buffer = file_buffer(stream)
    if buffer is None and whole and range_processes(PARALLEL_MIN_BYTES) > 1:
        data, error = read_whole(stream, name, BLOCK_SIZE)
        if error is not None:  # the whole lines read before it first, as reading in order does
            yield from parsed_in_order(reader, line_blocks(io.BytesIO(data[: data.rfind(b"\n") + 1]), name))
            raise error
        buffer = Buffer(len(data), data=data)
    if buffer is not None:
        processes = range_processes(buffer.size - buffer.start)
        if processes > 1:
            yield from parse_in_ranges(reader, buffer, processes, BLOCK_SIZE)
            return
        if buffer.data is not None:
            stream = io.BytesIO(buffer.data)
    yield from parsed_in_order(reader, line_blocks(stream, name))


def parsed_in_order(reader: Reader, chunks: Iterator[bytes]) -> Iterator[Block]:
    """The blocks of a file parsed side by side by :data:`PARSE_THREADS` threads (the parse is
    numpy over large arrays, which runs without the GIL), completed and yielded in file order.

    Each block is parsed as if it began at line 1; its line numbers (and those of an error it
    raises) are moved by the lines before it here. At most one block per thread waits parsed
    or in parsing, so the memory needed grows with the threads, not the file."""
    first = next(chunks, None)
    second = next(chunks, None) if first is not None else None
    line = 1

    def finish(parsed: Tuple[Block, int]) -> Block:
        nonlocal line
        block, nlines = parsed
        block.first_line += line - 1
        if block.non_utf8_line is not None:
            block.non_utf8_line += line - 1
        line += nlines
        reader.number(block)
        return block

    def moved(error: TrecFormatError) -> TrecFormatError:
        if error.line is None:
            return error
        return TrecFormatError(error.source, error.line + line - 1, error.expected, error.found)

    if first is None:
        return
    threads = 1 if in_worker() else PARSE_THREADS  # a forked worker's siblings have the other CPUs
    if second is None or threads < 2:  # one block (or one thread): nothing to overlap
        for chunk in chain((first,), () if second is None else (second,), chunks):
            try:
                parsed = reader.parse(chunk, 1)
            except TrecFormatError as error:
                raise moved(error) from None
            yield finish(parsed)
        return
    with ThreadPoolExecutor(threads, thread_name_prefix="parse") as pool:
        pending: Deque[Future] = deque()
        for chunk in chain((first, second), chunks):
            pending.append(pool.submit(reader.parse, chunk, 1))
            while len(pending) > threads:
                yield finish(_parsed(pending.popleft(), moved))
        while pending:
            yield finish(_parsed(pending.popleft(), moved))


def _parsed(future: "Future[Tuple[Block, int]]", moved: Any) -> Tuple[Block, int]:
    try:
        return future.result()
    except TrecFormatError as error:
        raise moved(error) from None
