"""The files of ``ir_measures_pres trec_eval`` read as trec_eval 10.0 reads them, and its errors.

The qrels and run files go through the package's strict readers (:mod:`ir_measures_pres.data.readers`),
with what trec_eval refuses beside them (a blank qrels line, two comment lines in a row: its
"Malformed line") and what it reads differently (a document listed twice past ``-M``); the
z-score, judgement-group and preference files are read line by line here. Every error is a
:class:`TrecEvalError`: one line and trec_eval's exit status.
"""

from __future__ import annotations

import re
import sys
import warnings
from typing import Any, Dict, List, Sequence, Tuple

from ..data.perl import DECIMAL
from ..runtime.pickling import MESSAGE, PicklesByParts

#: trec_eval's exit statuses
USAGE_STATUS, INPUT_STATUS, DUPLICATE_STATUS, NO_QUERIES_STATUS = 1, 2, 4, 7
#: trec_eval's status for a z-score file it cannot read: main() returns UNDEF (-1)
ZSCORE_STATUS = 255
#: trec_eval's "Can't calculate measure" (a duplicate document, or a measure the -R format lacks)
CALC_STATUS = DUPLICATE_STATUS


class TrecEvalError(PicklesByParts, Exception):
    """What stops the command: a one-line message and trec_eval's exit status."""

    PARTS = (MESSAGE, "status")

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def read_zscores(path: str) -> Dict[str, Dict[str, Tuple[float, float]]]:
    out: Dict[str, Dict[str, Tuple[float, float]]] = {}
    try:
        with open(path, "rb") as f:
            for number, raw in enumerate(f, start=1):
                line = raw.decode("utf-8", "surrogateescape").strip()
                if not line or line.startswith("#"):
                    continue
                fields = line.split()
                try:
                    if len(fields) != 4:
                        raise ValueError
                    mean, sd = float(fields[2]), float(fields[3])
                except ValueError:
                    raise TrecEvalError(
                        f"{path}:{number}: expected 'qid measure mean sd', found {line!r}", ZSCORE_STATUS
                    ) from None
                out.setdefault(fields[0], {}).setdefault(fields[1], (mean, sd))
    except OSError as error:
        raise TrecEvalError(f"cannot read z-score file '{path}': {error.strerror}", ZSCORE_STATUS) from None
    return out


def read_columns(path: str, kind: str) -> Tuple[Any, Dict[str, int]]:
    """A qrels or run file as the package's strict readers read it (a malformed line or an
    unreadable file is trec_eval's exit 2), and per query the lines that repeat a document (the
    readers keep the last; trec_eval stops on them, but only for a query it evaluates:
    :func:`_refuse_repeats`)."""
    from ..data.inputs import INPUT_ERRORS
    from ..data.readers import read_qrels, read_run

    if kind == "qrels":
        _check_qrels_lines(path)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cols = read_qrels(path) if kind == "qrels" else read_run(path)
    except INPUT_ERRORS as error:
        raise input_error(error, kind) from None
    if kind == "qrels" and getattr(cols, "strata", None) is not None:  # 5 columns, from standard input
        raise TrecEvalError(
            f"{path}:1: Malformed line: expected 4 fields 'qid iter docno rel', found 5", INPUT_STATUS
        )
    repeats = repeats_of(cols)
    warn_again(caught, repeats)
    return cols, repeats


def input_error(error: BaseException, kind: str) -> TrecEvalError:
    """A reader's error as trec_eval's: exit 2 (a file it cannot read or a malformed line), but 4
    for a run of comments and blank lines only, which trec_eval reads and then cannot evaluate
    ("Can't calculate measure")."""
    from ..data.inputs import input_error_text

    text = input_error_text(error)
    only_comments = kind == "run" and "comment or blank line" in text
    return TrecEvalError(text, DUPLICATE_STATUS if only_comments else INPUT_STATUS)


def _file_bytes(path: str) -> bytes:
    """The bytes of a judgement file (``-``: standard input), a gzipped one decompressed; raises
    the OSError or EOFError that stopped the reading."""
    import gzip

    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def _check_qrels_lines(path: str) -> None:
    """What trec_eval's get_qrels refuses and the package's reader does not ("Malformed line",
    exit 2), checked on the file's bytes: a blank or whitespace-only line; a line after a comment
    line that starts with '#' too (get_qrels skips one comment line, then reads a judgement:
    only a 4-field one would pass, as a judgement of query '#...', which is refused here too);
    a line of other than 4 fields (sampled judgements' 5 columns included). The message names
    the file's line; standard input is left to the reader."""
    if path == "-":
        return
    try:
        raw = _file_bytes(path)
    except (OSError, EOFError):
        return  # the reader says why, as for any file
    if not raw:
        return  # the reader's "empty file"
    body = raw[:-1] if raw.endswith(b"\n") else raw  # the last line's end is not a line
    problems = []
    # each search only where it can match (a whitespace-only line starts with whitespace or ends
    # at once; a second comment needs a '#'): the tests are substring searches, fast on a large file
    blank = _BLANK_LINE.search(body) if _may_hold_a_blank_line(body) else None
    if blank is not None:
        problems.append((blank.start(), "a blank line"))
    second = _SECOND_COMMENT.search(body) if b"#" in body else None
    if second is not None:
        text = "a second comment line in a row (trec_eval skips one comment line at a time)"
        problems.append((second.end() - 1, text))
    first = _FIRST_DATA_LINE.search(body)
    if first is not None and len(first.group(0).split()) == 5:  # sampled judgements' width
        problems.append((first.start(), "5 fields"))
    if problems:
        at, found = min(problems)
        number = raw.count(b"\n", 0, at) + 1
        raise TrecEvalError(
            f"{path}:{number}: Malformed line: expected 4 fields 'qid iter docno rel', found {found}",
            INPUT_STATUS,
        )


def _may_hold_a_blank_line(body: bytes) -> bool:
    """Whether ``body`` may hold a line of whitespace only (:data:`_BLANK_LINE`): such a line
    starts (the text's start, or after a line feed) with whitespace or ends where it starts."""
    return (
        body[:1] in _BLANK_STARTS
        or body.endswith(b"\n")
        or any(b"\n" + start in body for start in _BLANK_STARTS)
    )


#: the first byte of a line that may be whitespace only: whitespace, or its own end
_BLANK_STARTS = (b" ", b"\t", b"\r", b"\v", b"\f", b"\n")
#: a line of nothing but whitespace; a '#' line right after a '#' line; the first non-'#' line
_BLANK_LINE = re.compile(rb"(?m)^[ \t\r\v\f]*$")
_SECOND_COMMENT = re.compile(rb"(?m)^#[^\n]*\n#")
_FIRST_DATA_LINE = re.compile(rb"(?m)^(?!#)[^\n]*")


def repeats_of(cols: Any) -> Dict[str, int]:
    """Per query of ``cols`` (a file's columns, or a block of them), the lines the reader
    dropped because they repeat a document (none: an empty dict)."""
    dropped = getattr(cols, "dropped", None)
    if dropped is None:
        return {}
    return {q: int(n) for q, n in zip(cols.query_names or [], dropped.tolist()) if n}


def warn_again(caught: Sequence[Any], repeats: Dict[str, int]) -> None:
    """Give again the warnings caught while a file was read, but the readers' notice of repeated
    documents when there were some: :func:`_refuse_repeats`' rule replaces it."""
    from ..data.readers import TrecFormatWarning

    for w in caught:
        if not (repeats and issubclass(w.category, TrecFormatWarning) and "duplicate" in str(w.message)):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def kept_lines(path: str, cols: Any, repeats: Dict[str, int], max_docs: int, evaluated: Any) -> Any:
    """``cols`` (a run file's columns, a repeated document's last line kept) where the queries of
    ``repeats`` have instead their top ``max(-M, 1)`` lines of the file in trec_eval's order (score
    descending, then document id descending, every line counted): trec_eval looks for a document
    listed twice only among the ``-M`` documents it keeps (form_res_rels.c), so a repeat past
    ``-M`` changes nothing and one among them is its "duplicate docs" (exit 4) for a query it
    evaluates (in ``evaluated``). One line is kept under ``-M 0``, which the lists then drop."""
    import numpy as np

    from ..data.arrays import ids_as_str
    from ..data.inputs import INPUT_ERRORS, Columns, input_error_text
    from ..data.readers import read_run_lines

    try:
        lines = read_run_lines(path)
    except INPUT_ERRORS as error:
        raise TrecEvalError(input_error_text(error), INPUT_STATUS) from None
    names = list(lines.query_names or [])
    codes = np.asarray(lines.query_codes)
    docs = np.asarray(lines.doc_ids)
    scores = np.asarray(lines.values, dtype=np.float64)
    repeated = [c for c, q in enumerate(names) if repeats.get(q)]
    keep = [np.flatnonzero(~np.isin(codes, repeated))]
    for c in repeated:
        at = np.flatnonzero(codes == c).tolist()
        at.sort(key=lambda i: docs[i], reverse=True)  # ties: document id descending (bytes)
        at.sort(key=lambda i: -scores[i])  # stable: score descending
        top = at[: max(max_docs, 1)]
        if names[c] in evaluated and len({docs[i] for i in top}) < len(top):
            raise TrecEvalError(
                f"duplicate docs: {path} lists a document of query {names[c]!r} more than once "
                f"among the {max(max_docs, 1)} it keeps",
                DUPLICATE_STATUS,
            )
        keep.append(np.array(top, dtype=np.int64))
    rows = np.sort(np.concatenate(keep))
    return Columns(
        np.asarray(lines.query_ids, dtype=object)[rows],
        ids_as_str(docs[rows]) if docs.dtype.kind == "S" else docs[rows],
        scores[rows],
        unique_pairs=True,
        query_codes=codes[rows],
        query_names=names,
        kind="run",
        last_tag=getattr(cols, "last_tag", None),
    )


def _read_fields(path: str, count: int, what: str) -> List[Tuple[int, List[str]]]:
    """(line number, fields) of the lines of a judgement file of ``count`` whitespace-separated
    fields (the last a number), read line by line (such files hold judgements, not runs);
    blank lines and lines starting with '#' are skipped; a malformed line is exit 2."""
    try:
        raw = _file_bytes(path)
    except (OSError, EOFError) as error:
        raise TrecEvalError(f"{path}: {getattr(error, 'strerror', None) or error}", INPUT_STATUS) from None
    out = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) != count or not _NUMBER.fullmatch(fields[-1]):
            text = line.decode("utf-8", "replace").strip()
            raise TrecEvalError(f"{path}:{number}: expected '{what}', found {text!r}", INPUT_STATUS)
        out.append((number, [f.decode("utf-8", "surrogateescape") for f in fields]))
    if not out:
        raise TrecEvalError(f"{path}: no judgements", INPUT_STATUS)
    return out


_NUMBER = re.compile(DECIMAL.encode())


def read_qrels_jg(path: str) -> Tuple[List[Tuple[str, str]], Any]:
    """A ``-R qrels_jg`` file, ``qid jg docno rel`` lines: the (query, group) pairs in trec_eval's
    order and qrels with one query per pair, named by its index (``lists.build_jg_lists``)."""
    import numpy as np

    from ..data.inputs import Columns
    from ..data.qrels import Qrels

    seen: Dict[Tuple[str, str], Dict[str, int]] = {}
    for number, (qid, jg, doc, rel) in _read_fields(path, 4, "qid jg docno rel"):
        if not re.fullmatch(r"[+-]?\d+", rel):
            raise TrecEvalError(
                f"{path}:{number}: expected an integer relevance, found {rel!r}", INPUT_STATUS
            )
        docs = seen.setdefault((qid, jg), {})
        if doc in docs:
            raise TrecEvalError(
                f"{path}:{number}: duplicate docs {doc!r} in query {qid!r}, group {jg!r}", INPUT_STATUS
            )
        docs[doc] = int(rel)
    key = lambda p: (p[0].encode("utf-8", "surrogateescape"), p[1].encode("utf-8", "surrogateescape"))  # noqa: E731
    pairs = sorted(seen, key=key)
    qids: List[str] = []
    docs_out: List[str] = []
    rels: List[int] = []
    for i, pair in enumerate(pairs):
        for doc, level in seen[pair].items():
            qids.append(f"{i:012d}")
            docs_out.append(doc)
            rels.append(level)
    cols = Columns(
        np.array(qids, dtype=object),
        np.array(docs_out, dtype=object),
        np.array(rels, dtype=np.int64),
        True,
        kind="qrels",
    )
    return pairs, Qrels.from_columns(cols)


def read_prefs(path: str, rel_format: str) -> Dict[str, Tuple[Any, Any, Any, Any]]:
    """A ``-R prefs`` file (``qid jg jsg docno rel_level``) or, for ``-R qrels_prefs``, a qrels
    file read as one (column 2 the judgement group, one sub-group ``0``): per query, the arrays
    (jg, jsg, docno, level)."""
    import numpy as np

    width, what = (
        (5, "qid jg jsg docno rel_level") if rel_format == "prefs" else (4, "qid jg docno rel_level")
    )
    per_query: Dict[str, List[Tuple[str, str, str, float]]] = {}
    for _, fields in _read_fields(path, width, what):
        qid, jg = fields[0], fields[1]
        jsg = fields[2] if width == 5 else "0"
        per_query.setdefault(qid, []).append((jg, jsg, fields[-2], float(fields[-1])))
    out = {}
    for qid, rows in per_query.items():
        columns = list(zip(*rows))
        out[qid] = (
            np.array(columns[0], dtype=object),
            np.array(columns[1], dtype=object),
            np.array(columns[2], dtype=object),
            np.array(columns[3], dtype=np.float64),
        )
    return out


def run_by_query(cols: Any) -> Dict[str, Tuple[Any, Any]]:
    """A run's (docnos, scores) per query."""
    import numpy as np

    codes = np.asarray(cols.query_codes)
    if not len(codes):
        return {}
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.concatenate([[0], np.flatnonzero(np.diff(sorted_codes)) + 1])
    ends = np.append(starts[1:], len(sorted_codes))
    docs = np.asarray(cols.doc_ids, dtype=object)[order]
    scores = np.asarray(cols.values, dtype=np.float64)[order]
    return {
        cols.query_names[int(sorted_codes[a])]: (docs[a:b], scores[a:b])
        for a, b in zip(starts.tolist(), ends.tolist())
    }
