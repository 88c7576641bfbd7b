"""A TREC run read in blocks of whole queries, in bounded memory.

:class:`RunBlocks` reads a run file as :func:`~.readers.read_run` does (the same block parser,
the same checks and messages, the same ids and scores) but hands it over as a sequence of
:class:`~.inputs.Columns`, each holding the lines of some consecutive queries (at least
:data:`BLOCK_LINES` lines, the last query of a block always whole), so the memory needed is a
block, whatever the size of the file.

This needs a run whose lines are **grouped by query** (each query's lines together), which is
what every TREC tool writes. The reader's query codes follow the order of first appearance, so a
run is grouped exactly when its codes never decrease; the first line that breaks this raises
:class:`UngroupedRun` (the caller falls back to reading the whole file, see
:mod:`ir_measures_pres.engine.streaming`).

What the whole-file reader does for the whole file is done here for the blocks and summed up at
the end: duplicate ``(query, document)`` lines (always inside one query, so inside one block)
are dropped, the last one of each kept, and **one** :class:`~.readers.TrecFormatWarning` is given
when the file ends, with the same text as the whole-file reader's (the total count, the first
pair and its line numbers); an empty file is the same :class:`~.readers.TrecFormatError`.
After the iteration, :attr:`RunBlocks.query_names` holds every query id of the file in order of
first appearance, :attr:`RunBlocks.tag` the first line's tag (trec_eval's runid) and
:attr:`RunBlocks.last_tag` the last line's (trec_eval 10's); each block's ``dropped`` counts the
lines dropped per query of the block.
"""

from __future__ import annotations

import gzip
import warnings
from typing import Any, Iterator, List, Optional, Tuple

import numpy as np

from ..runtime.pickling import PicklesByParts
from ._trec_parse import Reader, TrecFormatError, TrecFormatWarning
from .arrays import ids_as_str
from .blocks import open_source, parsed_blocks
from .duplicates import find_duplicates
from .inputs import Columns, InputError, object_array
from .readers import RUN_KIND, doc_mode, duplicates_message

__all__ = ["BLOCK_LINES", "RunBlocks", "UngroupedRun"]

#: lines per block (at least; a block ends with a whole query): 131,072 lines (about 4 MiB of an
#: MS MARCO-shaped run) measured as fast as 1M-line blocks and three times smaller in memory
#: (bench/README.md)
BLOCK_LINES = 1 << 17


class UngroupedRun(PicklesByParts, InputError):
    """A run whose lines are not grouped by query (a query's lines in two places): it cannot be
    read in blocks. ``qid`` is the query and ``line`` the line where it appears again."""

    PARTS = ("source", "qid", "line")

    def __init__(self, source: str, qid: str, line: int) -> None:
        self.source, self.qid, self.line = source, qid, line
        super().__init__(
            f"{source}:{line}: query {qid!r} appears again after other queries (the run's lines "
            "are not grouped by query)"
        )


# a piece of a block: query codes, document ids, scores, line numbers, first line not UTF-8
_Piece = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Optional[int]]


class RunBlocks:
    """A run file as blocks of whole queries (module docstring); iterate once.

    ``source`` as for :func:`~.readers.read_run`; ``doc_ids`` ``"bytes"`` (the command's) or
    ``"str"``; ``block_lines``: lines per block (at least; a block ends with a whole query)."""

    def __init__(
        self, source: Any, doc_ids: str = "bytes", block_lines: int = BLOCK_LINES, warn: bool = True
    ) -> None:
        self.source = source
        #: give the duplicates warning at the end (a part of a file read in ranges leaves it to
        #: the caller, :mod:`.topic_ranges`, which gives the file's one warning)
        self.warn = warn
        self.as_bytes = doc_mode(doc_ids)
        self.block_lines = max(1, int(block_lines))
        #: every query id of the file, in order of first appearance (complete once iterated)
        self.query_names: List[str] = []
        #: column 6 of the first line (trec_eval's runid)
        self.tag: Optional[str] = None
        #: column 6 of the last line (trec_eval 10's runid; known once iterated)
        self.last_tag: Optional[str] = None
        #: lines read (results, not comments)
        self.lines = 0
        self.name = ""
        #: duplicate lines dropped, and the first pair: (query, document, its line numbers)
        self.dropped = 0
        self.example: Optional[Tuple[str, Any, List[int]]] = None

    def __iter__(self) -> Iterator[Columns]:
        stream, name, to_close = open_source(self.source)
        self.name = name
        reader = Reader(RUN_KIND, name, self.as_bytes)
        self.query_names = reader.qnames
        pending: List[_Piece] = []
        held = 0
        last_code = -1
        skipped = 0
        try:
            for block in parsed_blocks(reader, stream, name):
                skipped += block.skipped
                if not len(block.docs):
                    continue
                codes = block.qid_codes
                assert codes is not None
                self._check_grouped(codes, last_code, block, reader)
                last_code = int(codes[-1])
                if self.tag is None:
                    self.tag = reader.first_tag
                lines = block.first_line + (
                    np.arange(len(codes)) if block.entry_lines is None else block.entry_lines
                )
                pending.append((codes, block.docs, block.values, lines, block.non_utf8_line))
                held += len(codes)
                if held >= self.block_lines:
                    joined = _join(pending)
                    codes = joined[0]
                    last = int(np.searchsorted(codes, codes[-1]))  # where the last query starts
                    a = 0
                    while a + self.block_lines <= last:  # blocks of whole queries, the last one kept
                        b = int(np.searchsorted(codes, codes[a + self.block_lines - 1], side="right"))
                        yield self._columns(_slice(joined, a, b), reader)
                        a = b
                    pending = [_slice(joined, a, len(codes)) if a else joined]
                    held = len(pending[0][0])
            if pending:
                yield self._columns(_join(pending), reader)
            self.last_tag = reader.last_tag
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise TrecFormatError(name, None, "a readable run file", f"{type(exc).__name__}: {exc}") from exc
        finally:
            for f in to_close:
                f.close()
        if self.lines == 0:
            found = (
                "an empty file" if skipped == 0 else f"no run line, only {skipped} comment or blank line(s)"
            )
            raise TrecFormatError(name, None, f"run lines ({RUN_KIND.columns})", found)
        if self.example is not None and self.warn:
            qid, doc, same = self.example
            warnings.warn(
                duplicates_message(name, RUN_KIND, self.dropped, qid, doc, same),
                TrecFormatWarning,
                stacklevel=2,
            )

    @staticmethod
    def _check_grouped(codes: np.ndarray, last_code: int, block: Any, reader: Reader) -> None:
        back = np.flatnonzero(codes[1:] < codes[:-1]) + 1
        if codes[0] < last_code:
            back = np.concatenate(([0], back))
        if len(back):
            k = int(back[0])
            line = block.first_line + (k if block.entry_lines is None else int(block.entry_lines[k]))
            raise UngroupedRun(reader.name, reader.qnames[int(codes[k])], line)

    def _columns(self, piece: _Piece, reader: Reader) -> Columns:
        codes, docs, values, lines, non_utf8 = piece
        first = int(codes[0])
        local = (codes - first).astype(np.int32)
        names = reader.qnames[first : int(codes[-1]) + 1]
        found = find_duplicates(local, docs, len(names))
        per_query = None
        if found is not None:
            keep, dropped, at, same = found
            per_query = np.bincount(local[~keep], minlength=len(names))
            self.dropped += dropped
            if self.example is None:
                self.example = (names[int(local[at])], docs[at], [int(lines[p]) for p in same])
            local, docs, values = local[keep], docs[keep], values[keep]
        self.lines += len(codes)
        return Columns(
            object_array(names)[local],
            docs,
            values,
            unique_pairs=True,
            query_codes=local,
            query_names=names,
            kind="run",
            non_utf8_at=None if non_utf8 is None else f"{reader.name}:{non_utf8}",
            tag=self.tag,
            dropped=per_query,
        )


def _join(pieces: List[_Piece]) -> _Piece:
    if len(pieces) == 1:
        return pieces[0]
    docs = [p[1] for p in pieces]
    if any(d.dtype == object for d in docs) and not all(d.dtype == object for d in docs):
        docs = [ids_as_str(d) if d.dtype != object else d for d in docs]  # an id wider than 64 bytes
    bad = [p[4] for p in pieces if p[4] is not None]
    return (
        np.concatenate([p[0] for p in pieces]),
        np.concatenate(docs),
        np.concatenate([p[2] for p in pieces]),
        np.concatenate([p[3] for p in pieces]),
        min(bad) if bad else None,
    )


def _slice(piece: _Piece, a: int, b: int) -> _Piece:
    codes, docs, values, lines, non_utf8 = piece
    part_lines = lines[a:b]
    # the first line not valid UTF-8: lines before it are UTF-8, a part after it may hold more
    bad = non_utf8 if non_utf8 is not None and len(part_lines) and non_utf8 <= part_lines[-1] else None
    return codes[a:b].copy(), docs[a:b].copy(), values[a:b].copy(), part_lines.copy(), bad
