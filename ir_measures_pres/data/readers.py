"""Strict, fast readers of TREC qrels and run files.

``read_qrels(source)`` and ``read_run(source)`` return :class:`~ir_measures_pres.data.inputs.Columns`
(query ids and document ids as ``str`` in object arrays; relevance as ``int64``, scores as
``float64``), which :meth:`Qrels.from_any <ir_measures_pres.data.qrels.Qrels.from_any>`,
:func:`~ir_measures_pres.data.ranking.rank_run` and the provider's evaluator accept directly.

With ``doc_ids="bytes"`` the document ids are instead one numpy bytes array (dtype ``'S'``): the
raw UTF-8 bytes of each id, zero-padded by numpy to the array's width (a multiple of 8; ids never
hold a NUL byte, which the readers reject, so the padding is unambiguous). No Python object is
made per line, and duplicates are found without one either. :func:`ids_as_str` turns such an
array into the ``str`` ids of the default mode. A file with an id longer than 64 bytes gets
``str`` ids (an object array) in both modes, since a fixed-width array would be as wide as
its longest id for every line.

``source`` is a path (``str`` or :class:`~pathlib.Path`), a gzipped file (recognised by its magic
bytes, whatever its name), ``"-"`` for standard input, or a binary file object.

**Format.** Whitespace-separated columns, as trec_eval reads them (whitespace = space, tab, CR,
LF, vertical tab, form feed):

* qrels: exactly 4 columns ``qid iter docno relevance``; the relevance is an integer
  (``1.0`` is rejected, as ir_measures' reader does);
* run: at least 6 columns ``qid iter docno rank score tag``; the score is a finite decimal number;
  the ``iter`` and ``rank`` columns must be present but are ignored (trec_eval ranks by score,
  ties by docno descending); whatever follows the sixth column belongs to the run tag, as in
  trec_eval, which skips the rest of the line;
* lines whose first non-blank character is ``#`` are comments and blank lines are skipped (as
  trec_eval 10 does); CRLF line endings and a missing final newline are fine.

**Strictness.** A malformed line stops the reading with :class:`TrecFormatError`, whose message
gives the file, the line number, what was expected and what was found. Duplicate
``(query, doc)`` lines give one :class:`TrecFormatWarning` with their count and the first
example; the last line of each duplicate wins, as in ir_measures' dict conversion (so the result
holds no duplicates). An empty file, or one with only comments, is an error. Nothing is
dropped silently.

**Speed.** No Python code runs per line: each block of lines is split with numpy over the raw
bytes (token boundaries, per-line column counts, comment and blank lines), the needed columns are
cut out as fixed-width arrays (one gather of 8-byte words per 8 bytes of width), ids become
``str`` through numpy's string conversion (or stay bytes) and decimal scores are parsed by a
vectorised exact parser (digits accumulated column by column; a mantissa of at most 15 digits
divided by a power of ten is correctly rounded, so the value equals ``float(token)``). Other
spellings (``1e-05``, ``+3``, mantissas of 16 digits and more) go through numpy's C conversion,
which reads numbers as ``float``/``int`` do; only a bad token (to name it and its line) or one
wider than 64 characters is looked at alone. Duplicates are found with one C-level ``set`` per
query (``str`` ids) or a vectorised hash filter whose candidates are compared exactly (bytes
ids). Files are read in blocks of about 1 MiB (:data:`BLOCK_SIZE`), parsed side by side by one
thread per CPU (:data:`PARSE_THREADS`; numpy runs without the GIL) and completed in file order,
so the memory needed is the result plus about ten times one block per thread (why these sizes:
bench/README.md). A run of at least 16 MiB (:data:`.byteranges.PARALLEL_MIN_BYTES`) is instead
parsed in byte ranges by forked workers, one per CPU (:mod:`.byteranges`: the same blocks, the
same parser, the same messages; a gzipped file is decompressed once and standard input read
whole before the split).

Text is decoded as UTF-8; bytes that are not valid UTF-8 are kept as lone surrogates
(``surrogateescape``), so distinct ids stay distinct.

**Where the code is.** This module opens the file, cuts it into blocks of whole lines, has them
parsed side by side and puts the result together (duplicates, file order, line numbers for the
messages); the parse of one block (tokens, line checks, numbers) and the errors are in
:mod:`._trec_parse`.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
import warnings
from bisect import bisect_right
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import chain
from typing import IO, Any, Deque, Iterator, List, Optional, Tuple, Union

import numpy as np

from ..runtime.pool import in_worker
from ..runtime.stops import stop_point
from ._trec_parse import Block, Kind, Reader, TrecFormatError, TrecFormatWarning
from .arrays import ids_as_str, usable_cpus
from .byteranges import PARALLEL_MIN_BYTES, Buffer, file_buffer, parse_in_ranges, range_processes, read_whole
from .duplicates import find_duplicates
from .inputs import Columns, input_file_error, object_array

__all__ = [
    "read_qrels",
    "read_run",
    "read_run_lines",
    "ids_as_str",
    "FileOrderColumns",
    "TrecFormatError",
    "TrecFormatWarning",
]

#: Bytes read at a time (the file is processed in blocks of whole lines of about this size).
BLOCK_SIZE = 1 << 20
#: Threads parsing blocks side by side (one per CPU this process may use, at most 4).
PARSE_THREADS = usable_cpus()

_BOM = b"\xef\xbb\xbf"
_RUN_COLUMNS = "qid iter docno rank score tag"
_QRELS_COLUMNS = "qid iter docno relevance"
_SAMPLED_COLUMNS = "qid iter docno stratum relevance"
# the kinds of file: columns, tokens per line, where the value is and whether it is an integer
_RUN = Kind("run", _RUN_COLUMNS, 6, None, 4, "score", False)
_QRELS = Kind(
    "qrels",
    _QRELS_COLUMNS,
    4,
    4,
    3,
    "relevance",
    True,
    other_width=(
        5,
        f"a line of sampled judgements ({_SAMPLED_COLUMNS}) in a 4-column qrels file: "
        "the file's first line has 4 columns",
    ),
)
# sampled judgements (sample_eval.pl's qrels): a stratum column before the relevance
_SAMPLED_QRELS = Kind(
    "qrels",
    _SAMPLED_COLUMNS,
    5,
    5,
    4,
    "relevance",
    True,
    text_col=3,
    other_width=(
        4,
        f"a 4-column line ({_QRELS_COLUMNS}) in a file of sampled judgements: "
        "the file's first line has 5 columns",
    ),
)


# --------------------------------------------------------------------------------------------
# public readers
# --------------------------------------------------------------------------------------------


def read_qrels(
    source: Union[str, "os.PathLike[str]", IO[bytes]], doc_ids: str = "str", sampled: bool = False
) -> Columns:
    """Read a TREC qrels file (``qid iter docno relevance``) into :class:`Columns` (int64 values).

    A file whose first line has 5 columns holds sampled judgements, sample_eval.pl's
    ``qid iter docno stratum relevance`` (``stratum`` any text; relevance ``< 0``: in the pool but
    not sampled): the strata are kept as ``Columns.strata`` (``str``, one per line), which the
    sampled-judgement measures (:mod:`ir_measures_pres.measures.sampled.estimators`) read. Every line of a
    file has the width of its first line; a line of the other width is an error that says so.

    A document judged twice for one query keeps its last judgement (one
    :class:`TrecFormatWarning` says how many lines that drops). ``doc_ids``: ``"str"`` (object
    array of ``str``, the default) or ``"bytes"`` (numpy ``'S'`` array of the raw UTF-8 bytes,
    see the module docstring). ``sampled``: the file must hold sampled judgements (5 columns);
    one of 4 columns, or an empty one, is an error that says the 5 columns.
    """
    return _read(source, _SAMPLED_QRELS if sampled else _QRELS, _doc_mode(doc_ids))


def read_run(
    source: Union[str, "os.PathLike[str]", IO[bytes]], doc_ids: str = "str", order: str = "score"
) -> Columns:
    """Read a TREC run file (``qid iter docno rank score tag``) into :class:`Columns` (float64 values).

    Lines stay in file order; the rank column is ignored (rank the result with
    :func:`~ir_measures_pres.data.ranking.rank_run`, trec_eval's order). Duplicate
    ``(query, doc)`` lines: the last one wins, with one :class:`TrecFormatWarning`.
    ``doc_ids``: ``"str"`` (object array of ``str``, the default) or ``"bytes"`` (numpy ``'S'``
    array of the raw UTF-8 bytes: no Python object per line; see the module docstring).

    ``order="file"`` reads a screening run (technology-assisted review, docs/tar.md): the order
    of the lines is the ranking. Each line's score becomes its position counted from the end of
    its topic (``m, m - 1, ..., 1``; distinct even in float32 up to 2**24 lines per topic), so
    every measure of the call, pytrec_eval's included, ranks the documents in file order; the
    score column only has to be a number. A topic whose lines are not contiguous is a
    :class:`TrecFormatError` naming the line where it reappears; a document repeated inside a
    topic keeps its *first* line (it was screened then), with one :class:`TrecFormatWarning`.
    The result is a :class:`FileOrderColumns`, which also holds column 2 (interaction codes or
    threshold flags) as ``str`` and the dropped duplicate lines.
    """
    if order not in ("score", "file"):
        raise ValueError(f"order must be 'score' or 'file', not {order!r}")
    if order == "file":
        return _read(source, _RUN, _doc_mode(doc_ids), file_order=True)
    return _read(source, _RUN, _doc_mode(doc_ids))


@dataclass
class FileOrderColumns(Columns):
    """A run read in file order (:func:`read_run` with ``order="file"``).

    ``values`` are the positions turned into scores (see :func:`read_run`); ``column2`` holds
    each line's second column (raw bytes, a numpy ``'S'`` array; ``ids_as_str`` decodes it)
    and ``duplicates`` the dropped repeated lines as
    ``(query, document, line number)`` in file order.
    """

    column2: Optional[np.ndarray] = None
    duplicates: Tuple[Tuple[str, str, int], ...] = ()
    #: display name of the file (for messages naming a line)
    source: str = ""
    #: line number of every entry (for messages about column 2)
    lines: Any = None

    def frame(self) -> Any:
        """The run as a pandas DataFrame (``query_id``, ``doc_id``, ``score``, ``iteration``):
        ir_measures hands a frame to every provider as it is, so column 2 reaches the TAR
        measures (an iterable of tuples is copied line by line and loses it)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "query_id": self.query_ids,
                "doc_id": ids_as_str(self.doc_ids) if self.doc_ids.dtype.kind == "S" else self.doc_ids,
                "score": self.values,
                "iteration": None if self.column2 is None else ids_as_str(self.column2),
            }
        )


def _doc_mode(doc_ids: str) -> bool:
    """True for bytes ids."""
    if doc_ids not in ("str", "bytes"):
        raise ValueError(f"doc_ids must be 'str' or 'bytes', not {doc_ids!r}")
    return doc_ids == "bytes"


# --------------------------------------------------------------------------------------------
# opening sources and cutting them into blocks of whole lines
# --------------------------------------------------------------------------------------------


def _open(source: Any) -> Tuple[IO[bytes], str, List[IO[bytes]]]:
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


def _blocks(stream: IO[bytes], name: str) -> Iterator[bytes]:
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
            if block.startswith(_BOM):
                block = block[len(_BOM) :]
            elif len(block) < len(_BOM) and _BOM.startswith(block):  # a read shorter than the mark
                block += stream.read(len(_BOM))
                block = block[len(_BOM) :] if block.startswith(_BOM) else block
        cut = block.rfind(b"\n")
        if cut < 0:
            carry += block
            continue
        chunk = carry + block[: cut + 1] if carry else block[: cut + 1]
        carry = block[cut + 1 :]
        yield chunk
    if carry:
        yield carry + b"\n"


# --------------------------------------------------------------------------------------------
# whole files
# --------------------------------------------------------------------------------------------


def _first_width(chunks: Iterator[bytes]) -> Tuple[Optional[int], List[bytes]]:
    """(columns of the first line that is neither blank nor a comment, or None; the blocks read
    to find it), to tell 4-column qrels from sampled judgements (5 columns)."""
    seen: List[bytes] = []
    for chunk in chunks:
        seen.append(chunk)
        start = 0
        while start < len(chunk):  # usually the first line: a loop over leading comments only
            end = chunk.find(b"\n", start)
            tokens = chunk[start:end].split()
            if tokens and not tokens[0].startswith(b"#"):
                return len(tokens), seen
            start = end + 1
    return None, seen


def read_run_lines(source: Union[str, "os.PathLike[str]", IO[bytes]]) -> Columns:
    """Every line of a TREC run file, in file order, as :class:`Columns` (bytes doc ids): the
    reading of a tool that takes the lines as its ranking and counts each one (NTCIREVAL's
    ``TRECsplitruns``, :mod:`.diversity`). A repeated ``(query, doc)`` line is kept (no warning,
    ``unique_pairs`` False); the lines are checked as :func:`read_run` checks them."""
    return _read(source, _RUN, True, every_line=True)


def _read(
    source: Any, kind: Kind, as_bytes: bool = False, file_order: bool = False, every_line: bool = False
) -> Columns:
    stream, name, to_close = _open(source)
    blocks: List[Block] = []
    try:
        chunks: Optional[Iterator[bytes]] = None
        if kind in (_QRELS, _SAMPLED_QRELS):  # 5 columns on the first line: sampled judgements
            chunks = _blocks(stream, name)
            width, seen = _first_width(chunks)
            chunks = chain(seen, chunks)
            if width == 4 and kind is _SAMPLED_QRELS:
                raise TrecFormatError(
                    name, None, f"sampled judgements, 5 columns ({_SAMPLED_COLUMNS})", "a 4-column qrels file"
                )
            if width == 5:
                kind = _SAMPLED_QRELS
        reader = Reader(kind, name, as_bytes, col2=file_order)
        parsed = (
            parsed_blocks(reader, stream, name, True) if chunks is None else _parsed_in_order(reader, chunks)
        )
        blocks.extend(parsed)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise TrecFormatError(
            name, None, f"a readable {kind.label} file", f"{type(exc).__name__}: {exc}"
        ) from exc
    finally:
        for f in to_close:
            f.close()
    total = sum(len(b.docs) for b in blocks)
    if total == 0:
        skipped = sum(b.skipped for b in blocks)
        found = (
            "an empty file"
            if skipped == 0
            else f"no {kind.label} line, only {skipped} comment or blank line(s)"
        )
        raise TrecFormatError(name, None, f"{kind.label} lines ({kind.columns})", found)
    line_map = _LineMap(blocks)
    if as_bytes and any(b.docs.dtype == object for b in blocks):
        # an id wider than _trec_parse._MAX_WIDTH bytes: a fixed-width array would be too big; str for all
        for b in blocks:
            b.docs = ids_as_str(b.docs)
    # join the blocks' arrays one field at a time, dropping each block's copy at once (peak memory)
    codes = _join(blocks, "qid_codes")
    docs = _join(blocks, "docs")
    values = _join(blocks, "values")
    text = _join(blocks, "text") if kind.text_col is not None else None
    if file_order:
        return _file_order(codes, docs, _join(blocks, "col2"), reader, name, line_map)
    keep = None if every_line else _last_wins(codes, docs, reader.qnames, kind, name, line_map)
    dropped = None
    if keep is not None:
        dropped = np.bincount(codes[~keep], minlength=len(reader.qnames))
        codes, docs, values = codes[keep], docs[keep], values[keep]
        text = None if text is None else text[keep]
    return Columns(
        object_array(reader.qnames)[codes],
        docs,
        values,
        unique_pairs=not every_line,
        query_codes=codes,
        query_names=list(reader.qnames),
        kind=kind.label,
        non_utf8_at=None if reader.non_utf8_line is None else f"{name}:{reader.non_utf8_line}",
        tag=reader.first_tag,
        last_tag=reader.last_tag,
        strata=None if text is None else _as_text(text),
        dropped=dropped,
        path=_file_path(source),
    )


def _file_path(source: Any) -> Optional[str]:
    """The path of a file source, None for standard input and streams."""
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-":
        return os.fspath(source)
    return None


def _as_text(raw: np.ndarray) -> np.ndarray:
    """An object array of ``str`` from bytes tokens, each distinct token decoded once."""
    if raw.dtype.kind == "O":  # a token too wide for a fixed-width array somewhere
        raw = np.array(raw.tolist(), dtype="S")
    uniq, inverse = np.unique(raw, return_inverse=True)
    return object_array([u.decode("utf-8", "surrogateescape") for u in uniq.tolist()])[inverse.reshape(-1)]


def parsed_blocks(reader: Reader, stream: IO[bytes], name: str, whole: bool = False) -> Iterator[Block]:
    """The blocks of a run ``stream`` parsed and completed in file order (what reading it in
    order gives): in byte ranges by forked workers when that pays (:mod:`.byteranges`; a regular
    file, or with ``whole`` any stream, read whole first: a gzipped file decompressed once,
    standard input), else by this process's threads (:func:`_parsed_in_order`)."""
    buffer = file_buffer(stream)
    if buffer is None and whole and range_processes(PARALLEL_MIN_BYTES) > 1:
        data, error = read_whole(stream, name, BLOCK_SIZE)
        if error is not None:  # the whole lines read before it first, as reading in order does
            yield from _parsed_in_order(reader, _blocks(io.BytesIO(data[: data.rfind(b"\n") + 1]), name))
            raise error
        buffer = Buffer(len(data), data=data)
    if buffer is not None:
        processes = range_processes(buffer.size - buffer.start)
        if processes > 1:
            yield from parse_in_ranges(reader, buffer, processes, BLOCK_SIZE)
            return
        if buffer.data is not None:
            stream = io.BytesIO(buffer.data)
    yield from _parsed_in_order(reader, _blocks(stream, name))


def _parsed_in_order(reader: Reader, chunks: Iterator[bytes]) -> Iterator[Block]:
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


def _join(blocks: List[Block], field: str) -> np.ndarray:
    parts = [getattr(b, field) for b in blocks]
    for b in blocks:
        setattr(b, field, None)
    out = parts[0] if len(parts) == 1 else np.concatenate(parts)
    del parts
    return out


class _LineMap:
    """Entry index -> line number, from the blocks (cheap: no per-entry array kept)."""

    def __init__(self, blocks: List[Block]) -> None:
        self.starts: List[int] = []
        self.lengths: List[int] = []
        self.blocks = blocks
        n = 0
        for b in blocks:
            self.starts.append(n)
            self.lengths.append(len(b.docs))
            n += len(b.docs)

    def __call__(self, i: int) -> int:
        k = bisect_right(self.starts, i) - 1
        while self.lengths[k] == 0:  # pragma: no cover - empty blocks share a start
            k -= 1
        b = self.blocks[k]
        local = i - self.starts[k]
        return b.first_line + (local if b.entry_lines is None else int(b.entry_lines[local]))


def _last_wins(
    codes: np.ndarray, docs: np.ndarray, qnames: List[str], kind: Kind, name: str, line_of: _LineMap
) -> Optional[np.ndarray]:
    """Mask keeping the last line of each duplicate (query, doc), or None when there is none.

    ``str`` ids: one C-level ``set`` per query (a loop over queries, not lines); bytes ids: a
    vectorised hash filter confirmed on the bytes (:mod:`.duplicates`). Both give the same
    mask and the same warning.
    """
    found = find_duplicates(codes, docs, len(qnames))
    if found is None:
        return None
    keep, dropped, first, same = found
    warnings.warn(
        duplicates_message(
            name, kind, dropped, qnames[codes[first]], docs[first], [line_of(p) for p in same]
        ),
        TrecFormatWarning,
        stacklevel=3,
    )
    return keep


def duplicates_message(name: str, kind: Kind, dropped: int, qid: str, doc: Any, lines: List[int]) -> str:
    """The one warning about duplicate (query, document) lines of a file (whole or read in blocks):
    how many lines were dropped, and the first pair (``lines``: every line of that pair)."""
    shown = ", ".join(str(n) for n in lines[:5]) + (", ..." if len(lines) > 5 else "")
    what = "judgement" if kind.integer else "result"
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", "surrogateescape")
    return (
        f"{name}: {dropped} duplicate (query, document) {what} line(s) dropped, the last line of "
        f"each is used (as in ir_measures); first: query {qid!r}, document "
        f"{doc!r} on lines {shown}"
    )


def _file_order(
    codes: np.ndarray, docs: np.ndarray, col2: np.ndarray, reader: Reader, name: str, line_of: _LineMap
) -> "FileOrderColumns":
    """The file-order reading of a run (see :func:`read_run`): contiguous topics, first line of a
    repeated document kept, positions as scores."""
    n = len(codes)
    heads = np.concatenate(([0], np.flatnonzero(codes[1:] != codes[:-1]) + 1))
    head_codes = codes[heads]
    if len(heads) != len(reader.qnames):
        _, first = np.unique(head_codes, return_index=True)
        again = np.ones(len(heads), dtype=bool)
        again[first] = False
        j = int(np.flatnonzero(again)[0])
        qid = reader.qnames[head_codes[j]]
        began = line_of(int(heads[int(np.flatnonzero(head_codes == head_codes[j])[0])]))
        raise TrecFormatError(
            name,
            line_of(int(heads[j])),
            "the lines of each topic together (in file order the lines are the screening order; "
            "a topic split in two would be two screenings)",
            f"topic {qid!r} again, after other topics (its lines began at line {began})",
        )
    # codes in file order of the topics, so that grouping keeps the file order
    remap = np.empty(len(reader.qnames), dtype=np.int32)
    remap[head_codes] = np.arange(len(heads), dtype=np.int32)
    codes = remap[codes]
    qnames_list = [reader.qnames[c] for c in head_codes.tolist()]
    duplicates: Tuple[Tuple[str, str, int], ...] = ()
    found = find_duplicates(codes[::-1].copy(), docs[::-1].copy(), len(qnames_list))
    if found is not None:
        keep = found[0][::-1].copy()
        dropped = np.flatnonzero(~keep)
        dup_docs = docs[dropped]
        if dup_docs.dtype.kind == "S":
            dup_docs = ids_as_str(dup_docs)
        duplicates = tuple(
            (qnames_list[c], d, line_of(i))
            for c, d, i in zip(codes[dropped].tolist(), dup_docs.tolist(), dropped.tolist())
        )
        shown = ", ".join(str(t[2]) for t in duplicates[:5]) + (", ..." if len(duplicates) > 5 else "")
        warnings.warn(
            f"{name}: {len(duplicates)} repeated (topic, document) line(s) dropped, the first line of "
            f"each is kept (file order: the document was screened there); first: topic "
            f"{duplicates[0][0]!r}, document {duplicates[0][1]!r}; dropped lines {shown}",
            TrecFormatWarning,
            stacklevel=4,
        )
        entry = np.flatnonzero(keep)
        codes, docs, col2 = codes[keep], docs[keep], col2[keep]
    else:
        entry = np.arange(n)
    counts = np.bincount(codes, minlength=len(qnames_list))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    position = np.arange(len(codes)) - np.repeat(starts, counts)
    values = (np.repeat(counts, counts) - position).astype(np.float64)
    return FileOrderColumns(
        object_array(qnames_list)[codes],
        docs,
        values,
        unique_pairs=True,
        query_codes=codes,
        query_names=qnames_list,
        kind="run",
        non_utf8_at=None if reader.non_utf8_line is None else f"{name}:{reader.non_utf8_line}",
        tag=reader.first_tag,
        column2=col2,
        duplicates=duplicates,
        source=name,
        lines=_EntryLines(line_of, entry),
    )


class _EntryLines:
    """Line number of a kept entry, computed on demand (messages only)."""

    def __init__(self, line_of: _LineMap, entry: np.ndarray) -> None:
        self.line_of = line_of
        self.entry = entry

    def __getitem__(self, i: int) -> int:
        return self.line_of(int(self.entry[i]))
