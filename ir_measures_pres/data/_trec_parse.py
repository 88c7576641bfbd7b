"""The block parser of the TREC readers (:mod:`.readers`): one block of whole lines in, its
entries out, with no Python code run per line.

:class:`Reader` holds one file's reading: ``parse`` splits a block with numpy over its raw bytes
(token boundaries, per-line column counts, comment and blank lines, the line checks that raise
:class:`TrecFormatError`), cuts the needed columns out as fixed-width arrays (:class:`_Cutter`)
and parses the numbers (:func:`_parse_decimal`, exact for decimals of at most 15 digits; numpy's C
conversion for the other spellings); it reads nothing of the reader's state but its settings, so
blocks are parsed side by side, and ``number`` then completes them in file order (query id
codes, the run tag, the first line that is not valid UTF-8). A :class:`Kind` says what a line of
one kind of file holds (:mod:`.readers` defines the run and qrels kinds). Also here: the errors,
which :mod:`.readers` exports. Private to ``data/``: the public readers are
:func:`~.readers.read_qrels` and :func:`~.readers.read_run`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..runtime.pickling import PicklesByParts
from .inputs import RELEVANCE_MAX, RELEVANCE_MIN, InputError

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


# --------------------------------------------------------------------------------------------
# errors (public as ir_measures_pres.data.readers.TrecFormatError / TrecFormatWarning)
# --------------------------------------------------------------------------------------------


class TrecFormatError(PicklesByParts, InputError):
    """A qrels or run file that cannot be read without guessing.

    ``source`` is the file's display name, ``line`` the 1-based line number (None for a
    whole-file problem such as an empty file), ``expected`` and ``found`` say what was wrong.
    """

    # defined here, where the line checks raise it; named by its public module in tracebacks,
    # pickles and help(), as before the readers were split
    __module__ = "ir_measures_pres.data.readers"

    PARTS = ("source", "line", "expected", "found")

    def __init__(self, source: str, line: Optional[int], expected: str, found: str) -> None:
        self.source = source
        self.line = line
        self.expected = expected
        self.found = found
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: expected {expected}, found {found}")


class TrecFormatWarning(UserWarning):
    """Something in a TREC file that is read, but probably not what was meant (duplicates)."""

    __module__ = "ir_measures_pres.data.readers"


# --------------------------------------------------------------------------------------------
# file kinds
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """A kind of file (the run and the qrels of :mod:`.readers`): its columns and where a line's value is."""

    label: str  # "run" / "qrels"
    columns: str  # the column names, for messages
    min_tokens: int
    max_tokens: Optional[int]  # None: anything after the last named column is allowed
    value_col: int  # 0-based token index of the value
    value_name: str
    integer: bool
    #: 0-based token index of a column kept as text (sampled judgements' stratum), or None
    text_col: Optional[int] = None
    #: what a line of the other qrels width is, for the message naming it (see :meth:`Reader.parse`)
    other_width: Optional[Tuple[int, str]] = None


# --------------------------------------------------------------------------------------------
# the vectorised block parser
# --------------------------------------------------------------------------------------------


@dataclass
class Block:
    """What one block of lines gives: per entry (result or judgement line) its fields."""

    qid_codes: Optional[np.ndarray]  # int32 code of the query id (the reader's dictionary)
    docs: np.ndarray  # object array of str, or (bytes mode) an 'S' array
    values: np.ndarray  # float64 or int64
    first_line: int  # line number of the block's first line
    entry_lines: Optional[np.ndarray]  # local line index of each entry (None: entry i is line i)
    skipped: int  # comment and blank lines
    col2: Optional[np.ndarray] = None  # column 2 as str (file-order reading only)
    # what the parse leaves to the in-order step (:meth:`Reader.number`): the block's distinct
    # query ids in order of first appearance, the index into them of each run of equal ids and
    # the runs' lengths; the first entry's tag; the first line whose ids are not valid UTF-8
    query_names: Optional[List[str]] = None
    head_query: Optional[np.ndarray] = None
    head_length: Optional[np.ndarray] = None
    tag: Optional[str] = None
    #: the last entry's tag (trec_eval 10 reports the last line's)
    last_tag: Optional[str] = None
    non_utf8_line: Optional[int] = None
    #: the kind's text column (sampled judgements' stratum) as bytes, or None
    text: Optional[np.ndarray] = None


class Reader:
    """One file's reading: its settings (kind, display name, bytes ids, column 2) and what its
    blocks add up to (query id codes, first tag, first line not valid UTF-8). :meth:`parse`
    takes one block, in any thread; :meth:`number` completes the parsed blocks in file order."""

    def __init__(self, kind: Kind, name: str, as_bytes: bool = False, col2: bool = False) -> None:
        self.col2 = col2
        self.kind = kind
        self.name = name
        self.as_bytes = as_bytes
        # what the blocks add up to, made in file order by :meth:`number`
        self.qcodes: Dict[str, int] = {}
        self.qnames: List[str] = []
        #: line number of the first query or document id that is not valid UTF-8
        self.non_utf8_line: Optional[int] = None
        #: column 6 of the first run line (trec_eval 9's runid) and of the last (trec_eval 10's)
        self.first_tag: Optional[str] = None
        self.last_tag: Optional[str] = None

    # -- errors ------------------------------------------------------------------------------

    def error(self, first_line: int, line_idx: int, expected: str, found: str) -> TrecFormatError:
        return TrecFormatError(self.name, first_line + int(line_idx), expected, found)

    @staticmethod
    def line_text(chunk: bytes, nl: np.ndarray, line_idx: int) -> str:
        start = 0 if line_idx == 0 else int(nl[line_idx - 1]) + 1
        text = chunk[start : int(nl[line_idx])].rstrip(b"\r").decode("utf-8", "replace")
        return repr(text if len(text) <= 120 else text[:117] + "...")

    # -- one block -----------------------------------------------------------------------------

    def parse(self, chunk: bytes, first_line: int) -> Tuple[Block, int]:
        """Parse one block of whole lines; returns the block and its number of lines.

        Reads nothing of the reader's state but its settings, so blocks can be parsed side by
        side (:func:`.blocks.parsed_in_order`); :meth:`number` then completes them in file order."""
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
                # six columns where qrels were expected: a run given in the qrels' place
                hint = (
                    " (a run line: the qrels file comes first, QRELS RUN)"
                    if kind.label == "qrels" and kind.text_col is None and counts[i] == 6
                    else ""
                )
                if kind.other_width is not None and counts[i] == kind.other_width[0]:
                    hint = f" ({kind.other_width[1]})"
                raise self.error(
                    first_line,
                    i,
                    f"{at_least}{kind.min_tokens} columns ({kind.columns})",
                    f"{counts[i]}: {self.line_text(chunk, nl, i)}{hint}",
                )
            entry_lines = None if entry.all() else np.flatnonzero(entry)
            f = first if entry_lines is None else first[entry_lines]
        skipped = len(nl) - len(f)
        if not len(f):
            return Block(
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
                text=None if kind.text_col is None else np.zeros(0, "S8"),
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

        tag = last_tag = None
        if not kind.integer:  # a run: its first and last tags (trec_eval's runid)
            t, u = f[0] + 5, f[-1] + 5
            tag = chunk[int(starts[t]) : int(ends[t])].decode("utf-8", "replace")
            last_tag = chunk[int(starts[u]) : int(ends[u])].decode("utf-8", "replace")
        v = f + kind.value_col
        values = self._values(cut, starts[v], ends[v], first_line, local_line)
        non_utf8_line = None
        if not ascii_only:
            non_utf8_line = self._find_non_utf8(chunk, starts, ends, f, first_line, local_line)
        # column 2 as bytes (a handful of distinct codes: decoded once per distinct value later)
        col2 = cut.bytes_array(starts[f + 1], ends[f + 1]) if self.col2 else None
        block = Block(
            None, docs, values, first_line, entry_lines, skipped, col2, query_names, head_query, head_length
        )
        block.tag, block.last_tag, block.non_utf8_line = tag, last_tag, non_utf8_line
        if kind.text_col is not None:
            block.text = cut.bytes_array(starts[f + kind.text_col], ends[f + kind.text_col])
        return block, len(nl)

    def number(self, block: Block) -> None:
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
        if block.last_tag is not None:
            self.last_tag = block.last_tag
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
        them; only ir_measures' other providers cannot take them (see :meth:`.inputs.Columns.__iter__`)."""
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
