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
ids). Files are read in blocks of about 1 MiB (:data:`.blocks.BLOCK_SIZE`), parsed side by side by one
thread per CPU (:data:`.blocks.PARSE_THREADS`; numpy runs without the GIL) and completed in file order,
so the memory needed is the result plus about ten times one block per thread (why these sizes:
bench/README.md). A run of at least 16 MiB (:data:`.byteranges.PARALLEL_MIN_BYTES`) is instead
parsed in byte ranges by forked workers, one per CPU (:mod:`.byteranges`: the same blocks, the
same parser, the same messages; a gzipped file is decompressed once and standard input read
whole before the split).

Text is decoded as UTF-8; bytes that are not valid UTF-8 are kept as lone surrogates
(``surrogateescape``), so distinct ids stay distinct.

**Where the code is.** This module puts the result together (duplicates, file order, line
numbers for the messages); opening the file, cutting it into blocks of whole lines and having
them parsed side by side is :mod:`.blocks`'s; the parse of one block (tokens, line checks,
numbers) and the errors are in :mod:`._trec_parse`.
"""

from __future__ import annotations

import gzip
import os
import warnings
from bisect import bisect_right
from dataclasses import dataclass
from itertools import chain
from typing import IO, Any, Iterator, List, Optional, Tuple, Union

import numpy as np

from ._trec_parse import Block, Kind, Reader, TrecFormatError, TrecFormatWarning
from .arrays import ids_as_str
from .blocks import line_blocks, open_source, parsed_blocks, parsed_in_order
from .duplicates import find_duplicates
from .inputs import Columns, object_array

__all__ = [
    "read_qrels",
    "read_run",
    "read_run_lines",
    "ids_as_str",
    "FileOrderColumns",
    "TrecFormatError",
    "TrecFormatWarning",
]

_RUN_COLUMNS = "qid iter docno rank score tag"
_QRELS_COLUMNS = "qid iter docno relevance"
_SAMPLED_COLUMNS = "qid iter docno stratum relevance"
# the kinds of file: columns, tokens per line, where the value is and whether it is an integer
RUN_KIND = Kind("run", _RUN_COLUMNS, 6, None, 4, "score", False)
QRELS_KIND = Kind(
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
SAMPLED_QRELS_KIND = Kind(
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
    return _read(source, SAMPLED_QRELS_KIND if sampled else QRELS_KIND, doc_mode(doc_ids))


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
        return _read(source, RUN_KIND, doc_mode(doc_ids), file_order=True)
    return _read(source, RUN_KIND, doc_mode(doc_ids))


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


def doc_mode(doc_ids: str) -> bool:
    """True for bytes ids."""
    if doc_ids not in ("str", "bytes"):
        raise ValueError(f"doc_ids must be 'str' or 'bytes', not {doc_ids!r}")
    return doc_ids == "bytes"


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
    return _read(source, RUN_KIND, True, every_line=True)


def _read(
    source: Any, kind: Kind, as_bytes: bool = False, file_order: bool = False, every_line: bool = False
) -> Columns:
    stream, name, to_close = open_source(source)
    blocks: List[Block] = []
    try:
        chunks: Optional[Iterator[bytes]] = None
        if kind in (QRELS_KIND, SAMPLED_QRELS_KIND):  # 5 columns on the first line: sampled judgements
            chunks = line_blocks(stream, name)
            width, seen = _first_width(chunks)
            chunks = chain(seen, chunks)
            if width == 4 and kind is SAMPLED_QRELS_KIND:
                raise TrecFormatError(
                    name, None, f"sampled judgements, 5 columns ({_SAMPLED_COLUMNS})", "a 4-column qrels file"
                )
            if width == 5:
                kind = SAMPLED_QRELS_KIND
        reader = Reader(kind, name, as_bytes, col2=file_order)
        parsed = (
            parsed_blocks(reader, stream, name, True) if chunks is None else parsed_in_order(reader, chunks)
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
