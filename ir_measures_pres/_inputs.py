"""Input coercion: every qrels or run type ir_measures accepts, as columns.

Dicts of dicts, pandas DataFrames, iterables of namedtuples (``Qrel`` / ``ScoredDoc``) and the
readers' :class:`Columns` all become the same three columns (query ids, document ids, a value),
grouped by query. Relevance values are checked to be integral here, once, for every input type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Tuple

import numpy as np

from ._arrays import offsets_from_counts

__all__ = ["Columns", "InputError", "as_columns", "predict_kind"]


class InputError(ValueError):
    """Qrels or run input that cannot be evaluated without guessing."""


# --------------------------------------------------------------------------------------------
# columns from the input types ir_measures accepts
# --------------------------------------------------------------------------------------------


def _str_column(values: Any) -> np.ndarray:
    """An object array of ``str`` ids (integer ids of a DataFrame become their decimal text)."""
    arr = np.asarray(values)
    if arr.dtype.kind in "iuUS":
        return arr.astype(str).astype(object)
    if arr.dtype.kind == "f":
        raise InputError("query and document ids must be strings or integers, found floats")
    arr = arr.astype(object, copy=False)
    if len(arr) and not all(type(v) is str for v in (arr[0], arr[-1])):
        arr = np.array([str(v) for v in arr], dtype=object)
    return arr


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
    raise InputError(
        f"unsupported {kind} input of type {type(obj).__name__}: expected a dict of dicts, a pandas "
        "DataFrame or an iterable of namedtuples"
    )


@dataclass
class Columns:
    """Columnar qrels or run lines: query ids, doc ids and a value (relevance or score).

    Readers (:mod:`ir_measures_pres.readers`) produce these directly, so that a file never
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

    def __len__(self) -> int:
        return len(self.values)


def _frame_columns(df: Any, value_col: str, kind: str) -> Columns:
    missing = [c for c in ("query_id", "doc_id", value_col) if c not in df.columns]
    if missing:
        raise InputError(f"{kind} DataFrame is missing columns {missing} (found {list(df.columns)})")
    return Columns(
        _str_column(df["query_id"].to_numpy()),
        _str_column(df["doc_id"].to_numpy()),
        df[value_col].to_numpy(),
    )


def _tuple_columns(items: Iterable[Any], value_col: str, kind: str) -> Columns:
    qids: List[str] = []
    docs: List[str] = []
    vals: List[Any] = []
    for item in items:
        try:
            qids.append(item.query_id)
            docs.append(item.doc_id)
            vals.append(getattr(item, value_col))
        except AttributeError:
            raise InputError(
                f"{kind} items must be namedtuples with fields query_id, doc_id, {value_col}; found {item!r}"
            ) from None
    return Columns(
        _str_column(np.array(qids, dtype=object)), _str_column(np.array(docs, dtype=object)), np.asarray(vals)
    )


def as_columns(obj: Any, kind: str, value_col: str, what: str) -> Columns:
    """Columns of a DataFrame, a namedtuple iterable or already-columnar input."""
    if kind == "frame":
        return _frame_columns(obj, value_col, what)
    if kind == "columns":
        return obj  # type: ignore[no-any-return]
    return _tuple_columns(obj, value_col, what)


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


def integral_labels(values: np.ndarray, kind: str = "qrels") -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64, copy=False)
    if arr.dtype.kind == "b":
        return arr.astype(np.int64)
    try:
        farr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{kind} relevance values must be integers") from None
    bad = ~np.isfinite(farr) | (farr != np.round(farr))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{kind} relevance values must be integers; found {arr[i]!r}")
    return farr.astype(np.int64)


def take(values: np.ndarray, order: Optional[np.ndarray]) -> np.ndarray:
    """``values`` in ``order`` (None: the order they are in, no copy)."""
    return values if order is None else values[order]
