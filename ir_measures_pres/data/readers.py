"""Strict, fast readers of TREC qrels and run files.

``read_qrels(source)`` and ``read_run(source)`` return :class:`~ir_measures_pres.data.ranking.Columns`
(query ids and document ids as ``str`` in object arrays; relevance as ``int64``, scores as
``float64``), which :meth:`Qrels.from_any <ir_measures_pres.data.ranking.Qrels.from_any>`,
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
bench/README.md).

Text is decoded as UTF-8; bytes that are not valid UTF-8 are kept as lone surrogates
(``surrogateescape``), so distinct ids stay distinct.
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
from itertools import chain, repeat
from typing import IO, Any, Deque, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from .arrays import ids_as_str, usable_cpus
from .duplicates import find_duplicates
from .forks import in_worker
from .inputs import RELEVANCE_MAX, RELEVANCE_MIN, Columns, InputError

__all__ = [
    "read_qrels",
    "read_run",
    "ids_as_str",
    "FileOrderColumns",
    "TrecFormatError",
    "TrecFormatWarning",
]

#: Bytes read at a time (the file is processed in blocks of whole lines of about this size).
BLOCK_SIZE = 1 << 20
#: Threads parsing blocks side by side (one per CPU this process may use, at most 4).
PARSE_THREADS = usable_cpus()

# tokens longer than this are cut out one by one instead of in a fixed-width array
_MAX_WIDTH = 64
# a decimal parsed here: its mantissa m an integer below 2**53 (exact in float64, and so is every
# step of Horner's rule that builds it) and at most this many digits after the point (10**22 is
# the largest power of ten exact in float64)
_MAX_FRACTION_DIGITS = 22
_EXACT_MANTISSA = float(2**53)
# an integer of at most this many digits fits int64
_MAX_INT_DIGITS = 18
_POW10 = 10.0 ** np.arange(_MAX_FRACTION_DIGITS + 1)
# _WORD_MASKS[k]: the first k bytes of a little-endian 8-byte word
_WORD_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype="<u8")

_BOM = b"\xef\xbb\xbf"
_RUN_COLUMNS = "qid iter docno rank score tag"
_QRELS_COLUMNS = "qid iter docno relevance"


class TrecFormatError(InputError):
    """A qrels or run file that cannot be read without guessing.

    ``source`` is the file's display name, ``line`` the 1-based line number (None for a
    whole-file problem such as an empty file), ``expected`` and ``found`` say what was wrong.
    """

    def __init__(self, source: str, line: Optional[int], expected: str, found: str) -> None:
        self.source = source
        self.line = line
        self.expected = expected
        self.found = found
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: expected {expected}, found {found}")


class TrecFormatWarning(UserWarning):
    """Something in a TREC file that is read, but probably not what was meant (duplicates)."""


# --------------------------------------------------------------------------------------------
# public readers
# --------------------------------------------------------------------------------------------


def read_qrels(source: Union[str, "os.PathLike[str]", IO[bytes]], doc_ids: str = "str") -> Columns:
    """Read a TREC qrels file (``qid iter docno relevance``) into :class:`Columns` (int64 values).

    A document judged twice for one query keeps its last judgement (one
    :class:`TrecFormatWarning` says how many lines that drops). ``doc_ids``: ``"str"`` (object
    array of ``str``, the default) or ``"bytes"`` (numpy ``'S'`` array of the raw UTF-8 bytes,
    see the module docstring).
    """
    return _read(source, _QRELS, _doc_mode(doc_ids))


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
# file kinds
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Kind:
    label: str  # "run" / "qrels"
    columns: str  # the column names, for messages
    min_tokens: int
    max_tokens: Optional[int]  # None: anything after the last named column is allowed
    value_col: int  # 0-based token index of the value
    value_name: str
    integer: bool


_RUN = _Kind("run", _RUN_COLUMNS, 6, None, 4, "score", False)
_QRELS = _Kind("qrels", _QRELS_COLUMNS, 4, 4, 3, "relevance", True)


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
        raw = open(name, "rb")  # noqa: SIM115 - closed by the caller
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
# the vectorised block parser
# --------------------------------------------------------------------------------------------


@dataclass
class _Block:
    """What one block of lines gives: per entry (result or judgement line) its fields."""

    qid_codes: Optional[np.ndarray]  # int32 code of the query id (the reader's dictionary)
    docs: np.ndarray  # object array of str, or (bytes mode) an 'S' array
    values: np.ndarray  # float64 or int64
    first_line: int  # line number of the block's first line
    entry_lines: Optional[np.ndarray]  # local line index of each entry (None: entry i is line i)
    skipped: int  # comment and blank lines
    col2: Optional[np.ndarray] = None  # column 2 as str (file-order reading only)
    # what the parse leaves to the in-order step (:meth:`_Reader.number`): the block's distinct
    # query ids in order of first appearance, the index into them of each run of equal ids and
    # the runs' lengths; the first entry's tag; the first line whose ids are not valid UTF-8
    query_names: Optional[List[str]] = None
    head_query: Optional[np.ndarray] = None
    head_length: Optional[np.ndarray] = None
    tag: Optional[str] = None
    non_utf8_line: Optional[int] = None


class _Reader:
    def __init__(self, kind: _Kind, name: str, as_bytes: bool = False, col2: bool = False) -> None:
        self.col2 = col2
        self.kind = kind
        self.name = name
        self.as_bytes = as_bytes
        # what the blocks add up to, made in file order by :meth:`number`
        self.qcodes: Dict[str, int] = {}
        self.qnames: List[str] = []
        #: line number of the first query or document id that is not valid UTF-8
        self.non_utf8_line: Optional[int] = None
        #: column 6 of the first run line (trec_eval's runid)
        self.first_tag: Optional[str] = None

    # -- errors ------------------------------------------------------------------------------

    def error(self, first_line: int, line_idx: int, expected: str, found: str) -> TrecFormatError:
        return TrecFormatError(self.name, first_line + int(line_idx), expected, found)

    @staticmethod
    def line_text(chunk: bytes, nl: np.ndarray, line_idx: int) -> str:
        start = 0 if line_idx == 0 else int(nl[line_idx - 1]) + 1
        text = chunk[start : int(nl[line_idx])].rstrip(b"\r").decode("utf-8", "replace")
        return repr(text if len(text) <= 120 else text[:117] + "...")

    # -- one block -----------------------------------------------------------------------------

    def parse(self, chunk: bytes, first_line: int) -> Tuple[_Block, int]:
        """Parse one block of whole lines; returns the block and its number of lines.

        Reads nothing of the reader's state but its settings, so blocks can be parsed side by
        side (:func:`_parsed_in_order`); :meth:`number` then completes them in file order."""
        kind = self.kind
        a = np.frombuffer(chunk, dtype=np.uint8)
        nl = np.flatnonzero(a == 10)
        ascii_only = chunk.isascii()
        if b"\x00" in chunk:
            pos = chunk.index(b"\x00")
            raise self.error(first_line, int(np.searchsorted(nl, pos)), "text", "a NUL byte")
        n_cr = chunk.count(b"\r") if b"\r" in chunk else 0
        if n_cr and n_cr != chunk.count(b"\r\n"):
            cr = np.flatnonzero(a == 13)
            lone = cr[a[np.minimum(cr + 1, len(a) - 1)] != 10]
            raise self.error(
                first_line,
                int(np.searchsorted(nl, lone[0])),
                "lines ending with LF or CRLF",
                "a lone carriage return (CR) inside a line",
            )
        # whitespace as C isspace(): space, \t \n \v \f \r; `a <= 32` is the same test unless
        # the block holds other control characters (kept inside tokens, as trec_eval does)
        ws = a <= 32
        n_ctrl = np.count_nonzero(a < 32)  # LF and CR only (the usual case): no second count
        if n_ctrl != len(nl) + n_cr and n_ctrl != np.count_nonzero((a - np.uint8(9)) < 5):
            ws = (a == 32) | ((a - np.uint8(9)) < 5)
        # token boundaries: where whitespace starts or stops (position 0 counts as preceded by
        # whitespace); the block ends with \n, so every token ends
        change = np.empty(len(a), dtype=bool)
        change[0] = not ws[0]
        np.not_equal(ws[1:], ws[:-1], out=change[1:])
        edges = np.flatnonzero(change)
        starts, ends = edges[0::2], edges[1::2]
        # structure: the common case (every line has exactly min_tokens tokens) is checked
        # without a search; otherwise count the tokens of every line
        m = kind.min_tokens
        if (
            len(starts) == m * len(nl)
            and (starts[m - 1 :: m] < nl).all()
            and (starts[m::m] > nl[:-1]).all()
            and (a[starts[::m]] != 35).all()  # no line is a '#' comment
        ):
            entry_lines = None
            f = np.arange(0, len(starts), m)
        else:
            upto = np.searchsorted(starts, nl)
            counts = np.diff(upto, prepend=0)
            first = upto - counts
            has_tokens = counts > 0
            comment = np.zeros(len(nl), dtype=bool)
            comment[has_tokens] = a[starts[first[has_tokens]]] == 35  # '#'
            entry = has_tokens & ~comment
            bad = entry & (counts < kind.min_tokens)
            if kind.max_tokens is not None:
                bad |= entry & (counts > kind.max_tokens)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                at_least = "" if kind.max_tokens is not None else "at least "
                raise self.error(
                    first_line,
                    i,
                    f"{at_least}{kind.min_tokens} columns ({kind.columns})",
                    f"{counts[i]}: {self.line_text(chunk, nl, i)}",
                )
            entry_lines = None if entry.all() else np.flatnonzero(entry)
            f = first if entry_lines is None else first[entry_lines]
        skipped = len(nl) - len(f)
        if not len(f):
            return _Block(
                None,
                np.zeros(0, "S1" if self.as_bytes else object),
                np.zeros(0, np.int64 if kind.integer else np.float64),
                first_line,
                entry_lines,
                skipped,
                np.zeros(0, "S8") if self.col2 else None,
                [],
                np.zeros(0, np.int64),
                np.zeros(0, np.int64),
            ), len(nl)

        def local_line(k: int) -> int:
            return int(k) if entry_lines is None else int(entry_lines[k])

        # one zero-padded copy of the block: fixed-width token rows are cut from it by a sliding
        # window (a row's bytes past the token's end are then zeroed)
        buf = np.empty(len(a) + _MAX_WIDTH, dtype=np.uint8)
        buf[: len(a)] = a
        buf[len(a) :] = 0
        cut = _Cutter(chunk, buf)

        # query ids: a str made once per distinct id of the block (the ids are compared as 8-byte
        # words), listed in order of first appearance; :meth:`number` gives them the reader's codes
        qs, qe = starts[f], ends[f]
        qwords = cut.words(qs, qe)
        if qwords is None:
            qbytes = cut.bytes_array(qs, qe)
            differ = qbytes[1:] != qbytes[:-1]
        else:
            qbytes = qwords.view(f"S{8 * qwords.shape[1]}").ravel()
            differ = qwords[1:, 0] != qwords[:-1, 0]
            for j in range(1, qwords.shape[1]):
                differ |= qwords[1:, j] != qwords[:-1, j]
        heads = np.concatenate(([0], np.flatnonzero(differ) + 1))
        uniq, first_at, inverse = np.unique(qbytes[heads], return_index=True, return_inverse=True)
        by_appearance = np.argsort(first_at)
        appearance_of = np.empty_like(by_appearance)
        appearance_of[by_appearance] = np.arange(len(by_appearance))
        query_names = [u.decode("utf-8", "surrogateescape") for u in uniq[by_appearance].tolist()]
        head_query = appearance_of[inverse.reshape(-1)]
        head_length = np.diff(np.append(heads, len(f)))

        ds, de = starts[f + 2], ends[f + 2]
        if self.as_bytes and int((de - ds).max()) <= _MAX_WIDTH:
            docs = cut.bytes_array(ds, de)
        else:  # str mode, or (bytes mode) ids too wide for a bytes array: see _read
            docs = cut.strings(ds, de, ascii_only)

        tag = None
        if not kind.integer:  # a run: its first tag (the file's first is trec_eval's runid)
            t = f[0] + 5
            tag = chunk[int(starts[t]) : int(ends[t])].decode("utf-8", "replace")
        v = f + kind.value_col
        values = self._values(cut, starts[v], ends[v], first_line, local_line)
        non_utf8_line = None
        if not ascii_only:
            non_utf8_line = self._find_non_utf8(chunk, starts, ends, f, first_line, local_line)
        # column 2 as bytes (a handful of distinct codes: decoded once per distinct value later)
        col2 = cut.bytes_array(starts[f + 1], ends[f + 1]) if self.col2 else None
        block = _Block(
            None, docs, values, first_line, entry_lines, skipped, col2, query_names, head_query, head_length
        )
        block.tag, block.non_utf8_line = tag, non_utf8_line
        return block, len(nl)

    def number(self, block: _Block) -> None:
        """Complete a parsed block, blocks taken in file order: the reader's codes for its query
        ids (a new id gets the next code, so codes follow the order of first appearance in the
        file and a file whose queries are contiguous has non-decreasing codes), the file's first
        tag and first line of ids that are not valid UTF-8."""
        assert block.query_names is not None and block.head_query is not None
        assert block.head_length is not None
        codes = np.fromiter(map(self._code, block.query_names), dtype=np.int32, count=len(block.query_names))
        block.qid_codes = np.repeat(codes[block.head_query], block.head_length)
        block.query_names = block.head_query = block.head_length = None
        if self.first_tag is None:
            self.first_tag = block.tag
        if self.non_utf8_line is None:
            self.non_utf8_line = block.non_utf8_line

    def _find_non_utf8(
        self,
        chunk: bytes,
        starts: np.ndarray,
        ends: np.ndarray,
        f: np.ndarray,
        first_line: int,
        local_line: Any,
    ) -> Optional[int]:
        """The block's first line whose query or document id is not valid UTF-8, or None. Such
        ids are kept (as surrogate escapes, or bytes) and compared as bytes, as trec_eval compares
        them; only ir_measures' other providers cannot take them (see :meth:`Columns.__iter__`)."""
        try:
            chunk.decode("utf-8")
            return None  # the usual case: one C-level check of the whole block
        except UnicodeDecodeError:
            pass
        for k in range(len(f)):  # a block with invalid UTF-8 somewhere: find the entry
            for col in (0, 2):
                token = chunk[int(starts[f[k] + col]) : int(ends[f[k] + col])]
                if token.isascii():
                    continue
                try:
                    token.decode("utf-8")
                except UnicodeDecodeError:
                    return first_line + local_line(k)
        return None

    def _code(self, qid: str) -> int:
        code = self.qcodes.get(qid)
        if code is None:
            code = self.qcodes[qid] = len(self.qnames)
            self.qnames.append(qid)
        return code

    def _values(
        self, cut: "_Cutter", s: np.ndarray, e: np.ndarray, first_line: int, local_line: Any
    ) -> np.ndarray:
        kind = self.kind
        n = len(s)
        win = cut.window(s, e)
        if win is None:
            ok = np.zeros(n, dtype=bool)
            values = np.zeros(n, dtype=np.int64 if kind.integer else np.float64)
        else:
            values, ok = _parse_decimal(win, e - s, kind.integer)
        col = f"column {kind.value_col + 1} ({kind.value_name})"
        if not ok.all():
            # other spellings (1e-05, +3, 17-digit mantissas): numpy's C conversion, which reads
            # numbers as float()/int() do; underscores (1_000), which those accept, are refused
            rest = np.flatnonzero(~ok)
            try:
                if win is None:
                    raise ValueError
                sub = win[rest]
                if (sub == 95).any():
                    raise ValueError
                values[rest] = sub.view(f"S{sub.shape[1]}").ravel().astype(values.dtype)
            except (ValueError, OverflowError):
                # find the first bad token, for the message (or convert the few very wide ones)
                conv = int if kind.integer else float
                for k in rest.tolist():
                    token = cut.chunk[int(s[k]) : int(e[k])]
                    try:
                        if b"_" in token or not token.isascii():
                            raise ValueError
                        values[k] = conv(token)
                    except (ValueError, OverflowError):
                        what = "an integer" if kind.integer else "a number"
                        raise self.error(
                            first_line, local_line(k), f"{what} in {col}", _show(token)
                        ) from None
        if kind.integer:
            outside = (values < RELEVANCE_MIN) | (values > RELEVANCE_MAX)
            if outside.any():
                k = int(np.flatnonzero(outside)[0])
                raise self.error(
                    first_line,
                    local_line(k),
                    f"an integer within {RELEVANCE_MIN}..{RELEVANCE_MAX} in {col}",
                    _show(cut.chunk[int(s[k]) : int(e[k])]),
                )
        else:
            finite = np.isfinite(values)
            if not finite.all():
                k = int(np.flatnonzero(~finite)[0])
                raise self.error(
                    first_line,
                    local_line(k),
                    f"a finite number in {col}",
                    _show(cut.chunk[int(s[k]) : int(e[k])]),
                )
        return values


def _show(token: bytes) -> str:
    return repr(token.decode("utf-8", "replace"))


class _Cutter:
    """Cuts tokens out of a block as fixed-width rows (vectorised) or, when too wide, one by one."""

    def __init__(self, chunk: bytes, buf: np.ndarray) -> None:
        self.chunk = chunk
        self.buf = buf  # the block, plus _MAX_WIDTH zero bytes
        # every 8 bytes of the block from every offset, as little-endian words (unaligned view)
        self.at = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))

    def words(self, s: np.ndarray, e: np.ndarray) -> Optional[np.ndarray]:
        """Tokens ``chunk[s:e]`` as rows of ``n x ceil(width / 8)`` little-endian 8-byte words,
        zero past each token's end (one gather per word column), or None when a token is
        wider than ``_MAX_WIDTH``."""
        lengths = e - s
        width = max(int(lengths.max()), 1) if len(lengths) else 1
        if width > _MAX_WIDTH:
            return None
        nwords = -(-width // 8)
        out = np.empty((len(s), nwords), dtype="<u8")
        shortest = int(lengths.min()) if len(lengths) else 0
        for j in range(nwords):
            col = self.at[s if j == 0 else s + 8 * j]
            if shortest < 8 * (j + 1):  # bytes past a token's end belong to the next tokens
                col &= _WORD_MASKS[np.clip(lengths - 8 * j, 0, 8)]
            out[:, j] = col
        return out

    def window(self, s: np.ndarray, e: np.ndarray) -> Optional[np.ndarray]:
        """Tokens ``chunk[s:e]`` as rows of a zero-padded ``n x width`` uint8 array (a view of
        :meth:`words`), or None when a token is wider than ``_MAX_WIDTH``."""
        words = self.words(s, e)
        if words is None:
            return None
        width = max(int((e - s).max()), 1) if len(s) else 1
        return words.view(np.uint8)[:, :width]

    def bytes_array(self, s: np.ndarray, e: np.ndarray) -> np.ndarray:
        """The tokens as a numpy bytes array (width a multiple of 8; object array if a token is
        too wide)."""
        words = self.words(s, e)
        if words is None:
            return np.array([self.chunk[i:j] for i, j in zip(s.tolist(), e.tolist())] + [b""], dtype=object)[
                :-1
            ]
        return words.view(f"S{8 * words.shape[1]}").ravel()

    def strings(self, s: np.ndarray, e: np.ndarray, ascii_only: bool) -> np.ndarray:
        """The tokens as an object array of ``str``."""
        out = np.empty(len(s), dtype=object)
        long = (e - s) > _MAX_WIDTH
        if long.any():
            out[long] = [
                self.chunk[i:j].decode("utf-8", "surrogateescape")
                for i, j in zip(s[long].tolist(), e[long].tolist())
            ]
            short = np.flatnonzero(~long)
            s, e = s[short], e[short]
        else:
            short = slice(None)  # type: ignore[assignment]
        if len(s):
            words = self.words(s, e)
            assert words is not None
            if ascii_only:  # one UCS4 array; numpy makes the str objects as it assigns them
                width = max(int((e - s).max()), 1)
                win = words.view(np.uint8)[:, :width]
                out[short] = win.astype(np.uint32).view(f"U{width}").ravel()
            else:
                tokens = words.view(f"S{8 * words.shape[1]}").ravel().tolist()
                out[short] = list(map(bytes.decode, tokens, repeat("utf-8"), repeat("surrogateescape")))
        return out


def _parse_decimal(win: np.ndarray, lengths: np.ndarray, integer: bool) -> Tuple[np.ndarray, np.ndarray]:
    """Parse ``-?digits[.digits]`` (integers: ``-?digits``) from a zero-padded token array.

    Returns the values and a mask of the tokens parsed here; the others are left to
    ``float``/``int``. Exactness: the mantissa ``m`` (below 2**53, so 16-digit scores such as
    ``49.19109429178723`` qualify) and ``10**k`` (k <= 22) are exact doubles and IEEE division is
    correctly rounded, so ``m / 10**k`` is the double nearest to the decimal, which is what
    ``float(token)`` returns. Horner's rule builds ``m`` exactly while it stays below 2**53; a
    longer mantissa may come out inexact, but then at 2**53 or above, and is left to ``float``.
    """
    n, width = win.shape
    cols = np.ascontiguousarray(win.T)  # one contiguous row per character position
    neg = cols[0] == 45  # '-'
    acc = np.zeros(n, dtype=np.int64 if integer else np.float64)
    bad = np.zeros(n, dtype=bool)
    ndot = np.zeros(n, dtype=np.int64)
    dot_at = np.zeros(n, dtype=np.int64)
    for j in range(width):  # Horner's rule over the digits, all tokens at once
        c = cols[j]
        d = c - np.uint8(48)
        isd = d < 10
        np.multiply(acc, 10, out=acc, where=isd)
        np.add(acc, d, out=acc, where=isd, casting="unsafe")
        dot = c == 46  # '.'
        ndot += dot
        dot_at[dot] = j
        other = ~(isd | dot) & (c != 0)
        if j == 0:
            other &= ~neg
        bad |= other
    ndig = lengths - ndot - neg
    if integer:
        return np.where(neg, -acc, acc), ~bad & (ndot == 0) & (ndig >= 1) & (ndig <= _MAX_INT_DIGITS)
    frac = np.where(ndot > 0, lengths - 1 - dot_at, 0)
    ok = ~bad & (ndot <= 1) & (ndig >= 1) & (acc < _EXACT_MANTISSA) & (frac <= _MAX_FRACTION_DIGITS)
    values = acc / _POW10[np.clip(frac, 0, _MAX_FRACTION_DIGITS)]
    np.negative(values, out=values, where=neg)
    return values, ok


# --------------------------------------------------------------------------------------------
# whole files
# --------------------------------------------------------------------------------------------


def _read(source: Any, kind: _Kind, as_bytes: bool = False, file_order: bool = False) -> Columns:
    stream, name, to_close = _open(source)
    reader = _Reader(kind, name, as_bytes, col2=file_order)
    blocks: List[_Block] = []
    try:
        blocks.extend(_parsed_in_order(reader, _blocks(stream, name)))
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
        # an id wider than _MAX_WIDTH bytes: a fixed-width array would be too big; str for all
        for b in blocks:
            b.docs = ids_as_str(b.docs)
    # join the blocks' arrays one field at a time, dropping each block's copy at once (peak memory)
    codes = _join(blocks, "qid_codes")
    docs = _join(blocks, "docs")
    values = _join(blocks, "values")
    if file_order:
        return _file_order(codes, docs, _join(blocks, "col2"), reader, name, line_map)
    keep = _last_wins(codes, docs, reader.qnames, kind, name, line_map)
    if keep is not None:
        codes, docs, values = codes[keep], docs[keep], values[keep]
    qnames = np.empty(len(reader.qnames), dtype=object)
    qnames[:] = reader.qnames
    return Columns(
        qnames[codes],
        docs,
        values,
        unique_pairs=True,
        query_codes=codes,
        query_names=list(reader.qnames),
        kind=kind.label,
        non_utf8_at=None if reader.non_utf8_line is None else f"{name}:{reader.non_utf8_line}",
        tag=reader.first_tag,
    )


def _parsed_in_order(reader: _Reader, chunks: Iterator[bytes]) -> Iterator[_Block]:
    """The blocks of a file parsed side by side by :data:`PARSE_THREADS` threads (the parse is
    numpy over large arrays, which runs without the GIL), completed and yielded in file order.

    Each block is parsed as if it began at line 1; its line numbers (and those of an error it
    raises) are moved by the lines before it here. At most one block per thread waits parsed
    or in parsing, so the memory needed grows with the threads, not the file."""
    first = next(chunks, None)
    second = next(chunks, None) if first is not None else None
    line = 1

    def finish(parsed: Tuple[_Block, int]) -> _Block:
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


def _parsed(future: "Future[Tuple[_Block, int]]", moved: Any) -> Tuple[_Block, int]:
    try:
        return future.result()
    except TrecFormatError as error:
        raise moved(error) from None


def _join(blocks: List[_Block], field: str) -> np.ndarray:
    parts = [getattr(b, field) for b in blocks]
    for b in blocks:
        setattr(b, field, None)
    out = parts[0] if len(parts) == 1 else np.concatenate(parts)
    del parts
    return out


class _LineMap:
    """Entry index -> line number, from the blocks (cheap: no per-entry array kept)."""

    def __init__(self, blocks: List[_Block]) -> None:
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
    codes: np.ndarray, docs: np.ndarray, qnames: List[str], kind: _Kind, name: str, line_of: _LineMap
) -> Optional[np.ndarray]:
    """Mask keeping the last line of each duplicate (query, doc), or None when there is none.

    ``str`` ids: one C-level ``set`` per query (a loop over queries, not lines); bytes ids: a
    vectorised hash filter confirmed on the bytes (:mod:`._duplicates`). Both give the same
    mask and the same warning.
    """
    found = find_duplicates(codes, docs, len(qnames))
    if found is None:
        return None
    keep, dropped, first, same = found
    lines = ", ".join(str(line_of(p)) for p in same[:5]) + (", ..." if len(same) > 5 else "")
    what = "judgement" if kind.integer else "result"
    doc = docs[first]
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", "surrogateescape")
    warnings.warn(
        f"{name}: {dropped} duplicate (query, document) {what} line(s) dropped, the last line of "
        f"each is used (as in ir_measures); first: query {qnames[codes[first]]!r}, document "
        f"{doc!r} on lines {lines}",
        TrecFormatWarning,
        stacklevel=3,
    )
    return keep


def _file_order(
    codes: np.ndarray, docs: np.ndarray, col2: np.ndarray, reader: _Reader, name: str, line_of: _LineMap
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
    qnames = np.empty(len(qnames_list), dtype=object)
    qnames[:] = qnames_list
    return FileOrderColumns(
        qnames[codes],
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
