"""Input coercion: every qrels or run type ir_measures accepts, as columns.

Dicts of dicts, pandas DataFrames, iterables of namedtuples (``Qrel`` / ``ScoredDoc``) and the
readers' :class:`Columns` all become the same three columns (query ids, document ids, a value),
grouped by query. Relevance values are checked to be integral here, once, for every input type.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from operator import countOf
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Set, Tuple, Type

import numpy as np

from .arrays import ids_as_str, offsets_from_counts

__all__ = [
    "Columns",
    "file_stamp",
    "INPUT_ERRORS",
    "InputError",
    "InputFileError",
    "MissingInput",
    "SampledQrel",
    "as_columns",
    "input_file_error",
    "input_error_text",
    "predict_kind",
]


class InputError(ValueError):
    """Qrels or run input that cannot be evaluated without guessing."""


class InputFileError(OSError, InputError):
    """An input file that cannot be opened (a directory, not permitted): an :class:`InputError`,
    the package's one error type for bad input, with the ``OSError``'s ``errno``, ``strerror``
    and ``filename``."""


class MissingInput(FileNotFoundError, InputFileError):
    """An input file that does not exist: an :class:`InputError`, and the ``FileNotFoundError``
    ``open()`` raises."""


def input_file_error(error: OSError) -> InputFileError:
    """``error`` (``open()``'s) as the package's :class:`InputFileError` (:class:`MissingInput`
    for a missing file), the same ``errno``, ``strerror`` and ``filename``."""
    kind = MissingInput if isinstance(error, FileNotFoundError) else InputFileError
    return kind(error.errno, error.strerror, error.filename)


class SampledQrel(NamedTuple):
    """A line of sampled judgements (sample_eval.pl's qrels) as a namedtuple: ir_measures' ``Qrel``
    fields and the ``stratum``. What the readers' sampled qrels iterate as, and what the
    sampled-judgement measures read from an iterable of tuples (other providers see a ``Qrel``)."""

    query_id: str
    doc_id: str
    relevance: int
    stratum: str
    iteration: str = "0"


#: what goes wrong with a user's input (a file, a line, a value), not with this package: exit 1
INPUT_ERRORS: Tuple[Type[BaseException], ...] = (InputError, OSError, EOFError, ValueError)


def input_error_text(error: BaseException) -> str:
    """What was wrong with an input: a file and its line, or a missing file."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return str(error) or type(error).__name__


# --------------------------------------------------------------------------------------------
# columns from the input types ir_measures accepts
# --------------------------------------------------------------------------------------------


#: relevance values trec_eval and pytrec_eval can hold (C ``int``)
RELEVANCE_MIN, RELEVANCE_MAX = -(2**31), 2**31 - 1


def all_of_type(values: Iterable[Any], kind: type, count: int) -> bool:
    """Whether all ``count`` values are of type ``kind`` exactly (``type(v) is kind``; a subclass
    is not ``kind``), in one C-level pass: no Python bytecode runs per value, which on millions of
    ids is several times faster than ``all(type(v) is kind for v in values)``.

    ``countOf`` compares each ``type(v)`` with ``kind`` by identity first; only a type whose
    metaclass overrides ``__eq__`` to equal ``kind`` could be counted without being it."""
    return countOf(map(type, values), kind) == count


#: ids joined at a time by :func:`first_with_nul` (the joined text stays small and in cache)
NUL_CHUNK = 1 << 14


def first_with_nul(ids: Any) -> Optional[str]:
    """The first ``str`` id (in order) holding a NUL character, or None. The ids are joined a
    chunk at a time and the joined text searched (C-level); only a chunk holding a NUL is looked
    at id by id."""
    join = "".join
    for a in range(0, len(ids), NUL_CHUNK):
        part = ids[a : a + NUL_CHUNK]
        if "\x00" in join(part):
            return next(v for v in part if "\x00" in v)  # type: ignore[no-any-return]
    return None


def id_column(values: Any, what: str) -> np.ndarray:
    """An object array of ``str`` ids, checked: integer ids (a DataFrame's) become their decimal
    text; ``None``, NaN, floats and other objects are an :class:`InputError` naming the first one
    (``str(None)`` would silently become the id ``'None'``), and so is a NUL inside an id."""
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        return arr.astype(str).astype(object)
    arr = _typed_ids(arr, what)
    refuse_nul(arr, what)
    return arr


def _typed_ids(arr: np.ndarray, what: str) -> np.ndarray:
    """:func:`id_column` without the search for NULs: exact ``str`` ids as they are, integers
    as their text, anything else an :class:`InputError` naming the first."""
    if arr.dtype.kind in "iu":
        return arr.astype(str).astype(object)
    if arr.dtype.kind in "US":
        arr = arr.astype(str).astype(object)
    elif arr.dtype.kind != "O":
        first = arr[0] if len(arr) else None
        raise InputError(f"{what}s must be strings or integers, found {first!r} ({arr.dtype})")
    if not all_of_type(arr, str, len(arr)):
        arr = np.array([id_text(v, what) for v in arr], dtype=object)
    return arr


def refuse_nul(ids: Any, what: str) -> None:
    """An :class:`InputError` naming the first ``str`` id that holds a NUL character, if any."""
    bad = first_with_nul(ids)
    if bad is not None:
        raise InputError(f"{what}s must not hold a NUL character, found {bad!r}")


def query_column(values: Any, what: str) -> Tuple[np.ndarray, np.ndarray, List[str]]:
    """:func:`id_column` of a query id column, grouped: (the ids, each line's code, the names
    the codes number), the names in order of first appearance (as ``pandas.factorize`` gives).

    A query's lines are usually adjacent, and an exact ``str`` equal to the one before it is the
    same text: the NUL search and the numbering look at the first id of each run of equal ids
    only (the first id holding a NUL is always such a first one)."""
    arr = _typed_ids(np.asarray(values), what)
    n = len(arr)
    if not n:
        return arr, np.zeros(0, dtype=np.int64), []
    heads = np.concatenate(([0], np.flatnonzero(arr[1:] != arr[:-1]) + 1))
    head_ids = arr[heads].tolist()
    refuse_nul(head_ids, what)
    names = list(dict.fromkeys(head_ids))
    number = {q: i for i, q in enumerate(names)}
    head_codes = np.fromiter(map(number.__getitem__, head_ids), dtype=np.int64, count=len(head_ids))
    return arr, np.repeat(head_codes, np.diff(np.append(heads, n))), names


def check_bytes_ids(ids: np.ndarray, what: str) -> None:
    """A bytes id array (``'S'``) must hold no NUL inside an id: numpy pads ids with NULs, so such
    an id would not be the id it was (the readers reject NUL bytes with their line number)."""
    if ids.dtype.kind != "S" or not len(ids) or ids.dtype.itemsize < 2:
        return
    b = ids.view(np.uint8).reshape(len(ids), ids.dtype.itemsize)
    inner = ((b[:, :-1] == 0) & (b[:, 1:] != 0)).any(axis=1)
    i = _first_bad(inner)
    if i is not None:
        raise InputError(f"{what}s must not hold a NUL character, found {ids[i]!r}")


def id_text(value: Any, what: str) -> str:
    if isinstance(value, str):  # numpy's str_ included
        return str(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    raise InputError(f"{what}s must be strings or integers, found {value!r} ({type(value).__name__})")


def _is_number(value: Any) -> bool:
    """A Python or numpy number (bools count as 0 and 1), never text."""
    return isinstance(value, (int, float, np.integer, np.floating, np.bool_))


def object_array(values: List[Any]) -> np.ndarray:
    """A 1-d object array of the values as they are (``np.array`` would read text as numbers)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def place(kind: str, query: Any, doc: Any) -> str:
    """Where a bad value of Python input is, for messages: ``run query 'q', document 'd'``."""
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", "surrogateescape")
    return f"{kind} query {query!r}, document {doc!r}"


def line_where(kind: str, cols: "Columns", i: int) -> str:
    """:func:`place` of line ``i`` of columnar input."""
    return place(kind, cols.query_ids[i], cols.doc_ids[i])


def _first_bad(bad: np.ndarray) -> Optional[int]:
    return int(np.flatnonzero(bad)[0]) if bad.any() else None


def integral_labels(values: Any, where: Callable[[int], str]) -> np.ndarray:
    """Relevance values as int64, checked: integers (or floats with an integral value) within
    C ``int`` (what trec_eval and pytrec_eval hold: larger values would wrap around there).
    Anything else is an :class:`InputError` that says ``where(i)`` the first bad value is."""
    arr = np.asarray(values)
    expected = f"an integer relevance within {RELEVANCE_MIN}..{RELEVANCE_MAX}"
    if arr.dtype.kind == "b":
        return arr.astype(np.int64)
    if arr.dtype.kind == "O":  # mixed Python objects: numbers only, never text
        numbers = np.fromiter(map(_is_number, arr), dtype=bool, count=len(arr))
        i = _first_bad(~numbers)
        if i is not None:
            raise InputError(f"{where(i)}: expected {expected}, found {arr[i]!r}")
        given, arr = arr, np.fromiter(map(_float_or_inf, arr), dtype=np.float64, count=len(arr))
    else:
        given = arr
    if arr.dtype.kind in "iu":
        bad = (arr < RELEVANCE_MIN) | (arr > RELEVANCE_MAX)
    elif arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(arr) | (arr != np.round(arr)) | (arr < RELEVANCE_MIN) | (arr > RELEVANCE_MAX)
    else:
        bad = np.ones(len(arr), dtype=bool)
    i = _first_bad(bad)
    if i is not None:
        raise InputError(f"{where(i)}: expected {expected}, found {given[i]!r}")
    return arr.astype(np.int64)


def _float_or_inf(number: Any) -> float:
    """``float(number)``, or an infinity of its sign for an int beyond float64 (``10**400``),
    which the checks then refuse by name instead of an ``OverflowError``."""
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def finite_scores(values: Any, where: Callable[[int], str]) -> np.ndarray:
    """Run scores as float64, checked: finite numbers (text, ``None``, NaN and infinities are an
    :class:`InputError` naming ``where(i)``). Scores beyond float32's range are allowed: the
    ranking compares them as pytrec_eval does (see :func:`.ranking.ranking_scores`)."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "iufb":
        if arr.dtype.kind == "O":
            numbers = np.fromiter(map(_is_number, arr), dtype=bool, count=len(arr))
        else:
            numbers = np.zeros(len(arr), dtype=bool)
        i = _first_bad(~numbers)
        if i is not None:
            raise InputError(f"{where(i)}: expected a finite number as score, found {arr[i]!r}")
    with np.errstate(over="ignore"):
        if arr.dtype.kind == "O":
            scores = np.fromiter(map(_float_or_inf, arr), dtype=np.float64, count=len(arr))
        else:
            scores = arr.astype(np.float64, copy=False)  # no copy of float64 scores: none is changed
    i = _first_bad(~np.isfinite(scores))
    if i is not None:
        raise InputError(f"{where(i)}: expected a finite number as score, found {arr[i]!r}")
    return scores


def predict_kind(obj: Any, kind: str) -> str:
    """'dict', 'frame', 'columns' or 'tuples' for a qrels/run object, as ir_measures accepts them."""
    if isinstance(obj, dict):
        return "dict"
    if hasattr(obj, "itertuples") and hasattr(obj, "columns"):
        return "frame"
    if isinstance(obj, Columns):
        return "columns"
    if hasattr(obj, "__iter__") and not isinstance(obj, (str, bytes)):
        return "tuples"
    if isinstance(obj, (str, bytes, os.PathLike)):
        raise path_given(kind, os.fsdecode(obj))
    raise InputError(
        f"unsupported {kind} input of type {type(obj).__name__}: expected a dict of dicts, a pandas "
        "DataFrame or an iterable of namedtuples"
    )


@dataclass
class Columns:
    """Columnar qrels or run lines: query ids, doc ids and a value (relevance or score).

    Readers (:mod:`ir_measures_pres.data.readers`) produce these directly, so that a file never
    passes through Python objects per line.
    """

    query_ids: np.ndarray
    doc_ids: np.ndarray
    values: np.ndarray
    #: True when no (query, doc) pair repeats (a reader that already kept the last of each)
    unique_pairs: bool = False
    #: optional integer code of each line's query into ``query_names`` (spares a factorisation)
    query_codes: Optional[np.ndarray] = None
    query_names: Optional[List[str]] = None
    #: "run" or "qrels" (what iterating yields; empty: told by the values' type)
    kind: str = ""
    #: "FILE:LINE" of the first query or document id that is not valid UTF-8, if any
    non_utf8_at: Optional[str] = None
    #: a run file's tag (column 6 of its first line), as trec_eval's ``runid`` reports it
    tag: Optional[str] = None
    #: column 6 of a run file's last line (trec_eval 10's ``runid``: the last line's tag)
    last_tag: Optional[str] = None
    #: sampled judgements' stratum of each line (object array of ``str``), or None: 4-column qrels
    strata: Optional[np.ndarray] = None
    #: per query of ``query_names``, the duplicate lines a reader dropped (None: there were none);
    #: what a tool counting every line (sample_eval.pl's ``num_ret``) adds back
    dropped: Optional[np.ndarray] = None
    #: the file a reader read them from (None: standard input, a stream or objects), where a
    #: measure that reads more of the file than the columns keep finds it (the intents of TREC
    #: diversity qrels, :mod:`ir_measures_pres.measures.diversity.scoring`)
    path: Optional[str] = None

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[Any]:
        """The lines as ir_measures namedtuples (``Qrel`` or ``ScoredDoc``), so that every
        ir_measures provider takes what the readers return. Ids that are not valid UTF-8 cannot
        go there (pytrec_eval would crash on them): that is an :class:`InputError` naming the line.
        """
        from ir_measures import Qrel, ScoredDoc

        if self.non_utf8_at is not None:
            raise InputError(
                f"{self.non_utf8_at}: expected ids in UTF-8, found an id that is not: ir_measures' "
                "providers (pytrec_eval ...) cannot take it. The ir_measures_pres command and its "
                "own measures evaluate such files as trec_eval does (ids compared as bytes)."
            )
        qrels = self.kind == "qrels" or (not self.kind and np.asarray(self.values).dtype.kind in "iu")
        make = Qrel if qrels else ScoredDoc
        docs = ids_as_str(self.doc_ids).tolist()
        fields = [np.asarray(self.query_ids).tolist(), docs, np.asarray(self.values).tolist()]
        if qrels and self.strata is not None:  # sampled judgements: the stratum travels along
            return map(SampledQrel, *fields, self.strata.tolist())
        return map(make, *fields)


def frame_columns(df: Any, value_col: str, kind: str, check_docs: bool = True) -> Columns:
    """Columns of a DataFrame, ids checked (queries numbered by :func:`query_column`).

    ``check_docs=False`` leaves an object column of document ids as it is, unchecked: for a
    caller that checks it itself before using it (the ranking of a run, which passes over every
    query's ids anyway, see :func:`.ranking.rank_run`); other dtypes are checked here."""
    missing = [c for c in ("query_id", "doc_id", value_col) if c not in df.columns]
    if missing:
        raise InputError(f"{kind} DataFrame is missing columns {missing} (found {list(df.columns)})")
    qids, codes, names = _frame_query_column(df["query_id"], f"{kind} query id")
    docs = np.asarray(df["doc_id"].to_numpy())
    if check_docs or docs.dtype.kind != "O":
        docs = id_column(docs, f"{kind} document id")
    return Columns(qids, docs, df[value_col].to_numpy(), query_codes=codes, query_names=names)


def _frame_query_column(column: Any, what: str) -> Tuple[np.ndarray, np.ndarray, List[str]]:
    """:func:`query_column` of a DataFrame's query id column. A column of pandas' string dtype
    (pyarrow-backed by default since pandas 3) is numbered by ``pandas.factorize`` in C++, its
    few distinct ids checked, and the lines given those ids' ``str`` objects: not one Python
    string made per line (0.24 s for 5M lines). A missing id (NA) takes the general path,
    which names it."""
    import pandas as pd

    if isinstance(column.dtype, pd.StringDtype):
        codes, uniques = pd.factorize(column)  # numbered in order of first appearance
        names = list(uniques)
        if len(codes) and codes.min() >= 0 and all_of_type(names, str, len(names)):
            refuse_nul(names, what)
            return object_array(names)[codes], np.asarray(codes, dtype=np.int64), names
    return query_column(column.to_numpy(), what)


def path_given(kind: str, path: str) -> InputError:
    """The error for a path where the qrels or the run themselves are expected (``calc_aggregate(
    measures, "qrels.txt", run)``): say so, and how to read the file."""
    reader = "read_trec_qrels" if kind == "qrels" else "read_trec_run"
    return InputError(
        f"a path string was given as the {kind} ({path!r}), where the {kind} "
        f"{'themselves are' if kind == 'qrels' else 'itself is'} expected: "
        f"read the file first, e.g. ir_measures.{reader}({path!r})"
    )


def _tuple_columns(items: Iterable[Any], value_col: str, kind: str) -> Columns:
    qids: List[str] = []
    docs: List[str] = []
    vals: List[Any] = []
    strata: Optional[List[Any]] = None  # qrels items with a ``stratum`` field (SampledQrel)
    items = iter(items)
    for item in items:
        if not qids and isinstance(item, str) and len(item) == 1:
            # a string iterated (ir_measures tees the qrels): a path given for the qrels
            raise path_given(kind, item + "".join(c for c, _ in zip(items, range(4096))))
        try:
            qids.append(item.query_id)
            docs.append(item.doc_id)
            vals.append(getattr(item, value_col))
        except AttributeError:
            raise InputError(
                f"{kind} items must be namedtuples with fields query_id, doc_id, {value_col}; found {item!r}"
            ) from None
        if strata is not None:
            strata.append(getattr(item, "stratum", None))
        elif len(qids) == 1 and value_col == "relevance" and hasattr(item, "stratum"):
            strata = [item.stratum]
    return Columns(
        id_column(object_array(qids), f"{kind} query id"),
        id_column(object_array(docs), f"{kind} document id"),
        np.asarray(vals) if all_numbers(vals) else object_array(vals),
        strata=None if strata is None else id_column(object_array(strata), f"{kind} stratum"),
    )


#: the types :func:`all_numbers` lets numpy convert (exact types: a subclass may be anything)
_PLAIN_NUMBERS = frozenset((int, float, bool))


def all_numbers(values: List[Any]) -> bool:
    """Whether numpy may turn these into a numeric array without reading text as numbers (every
    value's type is exactly int, float or bool; one C-level pass)."""
    return _PLAIN_NUMBERS.issuperset(map(type, values))


def as_columns(obj: Any, kind: str, value_col: str, what: str) -> Columns:
    """Columns of a DataFrame, a namedtuple iterable or already-columnar input."""
    if kind == "frame":
        return frame_columns(obj, value_col, what)
    if kind == "columns":
        return obj  # type: ignore[no-any-return]
    return _tuple_columns(obj, value_col, what)


def query_set(cols: Columns) -> Set[str]:
    """The distinct query ids of ``cols`` (the readers' ``query_names``: no pass over the lines)."""
    names = cols.query_names
    return set(names if names is not None else np.asarray(cols.query_ids).tolist())


def group_lines(cols: Columns) -> Tuple[List[str], Optional[np.ndarray], np.ndarray]:
    """Stable grouping of lines by query: (query ids, line order or None when the lines are
    already grouped, offsets)."""
    if cols.query_codes is not None and cols.query_names is not None:
        return _group_codes(np.asarray(cols.query_codes, dtype=np.int64), list(cols.query_names))
    try:
        import pandas as pd

        codes, uniques = pd.factorize(cols.query_ids)
        uniques = list(uniques)
    except ImportError:  # a core install without pandas: namedtuple or columnar inputs
        uniques_arr, first, codes = np.unique(
            cols.query_ids.astype(str), return_index=True, return_inverse=True
        )
        by_first = np.argsort(first)
        remap = np.empty_like(by_first)
        remap[by_first] = np.arange(len(by_first))
        codes = remap[codes]
        uniques = [str(u) for u in uniques_arr[by_first]]
    return _group_codes(np.asarray(codes, dtype=np.int64), uniques)


def _group_codes(codes: np.ndarray, uniques: List[str]) -> Tuple[List[str], Optional[np.ndarray], np.ndarray]:
    order = None
    if len(codes) and not np.all(codes[1:] >= codes[:-1]):
        order = np.argsort(codes, kind="stable")
    offsets = offsets_from_counts(np.bincount(codes, minlength=len(uniques)))
    return uniques, order, offsets


def take(values: np.ndarray, order: Optional[np.ndarray]) -> np.ndarray:
    """``values`` in ``order`` (None: the order they are in, no copy)."""
    return values if order is None else values[order]


def is_utf8(ids: Iterable[str]) -> bool:
    """Whether every id is valid UTF-8 text (no surrogate escape of a byte that is not)."""
    try:
        "".join(ids).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def as_latin1(text: str) -> str:
    """The id's bytes read as Latin-1: what pytrec_eval can take for an id that is not UTF-8 (a
    bijection, and its UTF-8 keeps the byte order trec_eval compares)."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def needs_latin1(qrels: Columns, run: Optional[Columns] = None) -> bool:
    """True when an id of either file is not valid UTF-8: ir_measures' other providers then get
    every id decoded as Latin-1 (see :func:`backend_qrels`)."""
    return qrels.non_utf8_at is not None or (run is not None and run.non_utf8_at is not None)


def backend_qrels(qrels: Columns, latin1: bool = False) -> Dict[str, Dict[str, Any]]:
    """Qrels as ``{query: {doc: value}}`` for ir_measures' other providers (pytrec_eval).

    pytrec_eval crashes on ids that are not valid UTF-8. When the readers found such an id in
    either file (:func:`needs_latin1`), every id of both is handed over decoded as Latin-1
    instead: a bijection from bytes to code points below 256 whose UTF-8 keeps the byte order,
    so pytrec_eval matches and orders the ids exactly as trec_eval does the bytes.
    """
    return _nested(_query_text(qrels.query_ids, latin1, {}), _doc_text(qrels.doc_ids, latin1), qrels.values)


def backend_run(
    qrels: Columns, run: Columns, latin1: bool = False, wanted: Optional[Set[str]] = None
) -> Tuple[Dict[str, Dict[str, Any]], Dict[str, str]]:
    """The run as ``{query: {doc: score}}`` for the same providers, reduced to the queries of the
    qrels (the others are ignored anyway), ids as :func:`backend_qrels` hands them over; and a
    map from the query ids handed over back to the readers' (empty unless ``latin1``).
    ``wanted``: the qrels' query ids, when the caller keeps them (a run read in blocks)."""
    back: Dict[str, str] = {}
    if wanted is None:
        wanted = set(qrels.query_names if qrels.query_names is not None else qrels.query_ids.tolist())
    if run.query_codes is not None and run.query_names is not None:  # a reader's: one test per query
        keep_query = np.fromiter(
            map(wanted.__contains__, run.query_names), dtype=bool, count=len(run.query_names)
        )
        keep = keep_query[run.query_codes]
    else:
        keep = np.fromiter(map(wanted.__contains__, run.query_ids.tolist()), dtype=bool, count=len(run))
    qids = _query_text(run.query_ids[keep], latin1, back)
    return _nested(qids, _doc_text(run.doc_ids[keep], latin1), run.values[keep]), back


def _doc_text(ids: np.ndarray, latin1: bool) -> np.ndarray:
    if not latin1:
        return ids_as_str(ids)
    raw = (
        ids.tolist()
        if ids.dtype.kind == "S"
        else [i.encode("utf-8", "surrogateescape") for i in ids.tolist()]
    )
    return object_array([b.decode("latin-1") for b in raw])


def _query_text(ids: np.ndarray, latin1: bool, back: Dict[str, str]) -> np.ndarray:
    if not latin1:
        return np.asarray(ids)
    names = {q: as_latin1(q) for q in set(ids.tolist())}
    back.update({v: k for k, v in names.items()})
    return object_array([names[q] for q in ids.tolist()])


def _nested(qids: np.ndarray, docs: np.ndarray, values: np.ndarray) -> Dict[str, Dict[str, Any]]:
    """``{qid: {doc: value}}`` from lines grouped by query (the last line of a pair wins): a loop
    over runs of equal query ids, not over lines."""
    out: Dict[str, Dict[str, Any]] = {}
    n = len(qids)
    if n == 0:
        return out
    heads = np.concatenate(([0], np.flatnonzero(qids[1:] != qids[:-1]) + 1, [n])).tolist()
    docs_list, values_list = docs.tolist(), values.tolist()
    for a, b in zip(heads[:-1], heads[1:]):
        out.setdefault(qids[a], {}).update(zip(docs_list[a:b], values_list[a:b]))
    return out


def file_stamp(path: str) -> Tuple[int, int]:
    """(modification time in ns, size) of the file at ``path``, (0, 0) when it cannot be read
    (its reader then says what is wrong): the key under which a measure's file parameter
    (statAP's ``prels=``, the diversity measures' ``probs=``/``dqrels=``) is read once while
    the file stays the same."""
    try:
        info = os.stat(path)
        return (info.st_mtime_ns, info.st_size)
    except OSError:
        return (0, 0)
