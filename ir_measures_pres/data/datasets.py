"""Qrels named on a command line: a file, or an ir_datasets id.

ir_measures' command-line rule: a path that exists (or ``-``, standard input) is a file; any
other name is looked up in ir_datasets (an optional dependency), whose qrels come back as
ir_measures ``Qrel`` tuples. Whatever goes wrong in the look-up (not installed, unknown id, a
dataset without qrels, a download that fails offline) is an :class:`~.inputs.InputError` that
names ir_datasets (in ir_measures' CLI's words where it has them): the user's input could not
be had, the package did not fail (exit status 1, not 70).
"""

from __future__ import annotations

import os
from typing import Any, List, Union

from .inputs import Columns, InputError, as_columns


def qrels_source(name: str) -> Union[str, List[Any]]:
    """``name`` when it is a file (or ``-``), else the qrels of the ir_datasets id ``name``. A
    folder is refused: it is the runs, given before the qrels."""
    if os.path.isdir(name):
        raise InputError(
            f"{name}: a folder, where the qrels file was expected (the qrels come first: QRELS RUN ...)"
        )
    if name == "-" or os.path.exists(name):
        return name
    try:
        import ir_datasets
    except ImportError:
        raise InputError(
            f"{name} not found. (Skipping ir_datasets lookup. To use this feature, install ir_datasets.)"
        ) from None
    try:
        dataset = ir_datasets.load(name)
    except KeyError:
        raise InputError(f"{name} not found. (checked file and ir_datasets)") from None
    if not dataset.has_qrels():
        raise InputError(f"ir_datasets ID {name} found but does not provide qrels.")
    try:
        return list(dataset.qrels_iter())
    except Exception as error:  # noqa: BLE001 - offline, a broken download: the input, not a bug
        raise InputError(
            f"{name}: ir_datasets could not provide the qrels ({type(error).__name__}: {error})"
        ) from None


def qrels_columns(name: str, sampled: bool = False) -> Columns:
    """The qrels a command line names, as columns: a file read with its document ids as bytes
    (what the commands' rankings join with), or an ir_datasets id's Qrel tuples, checked as
    every in-memory input is. ``sampled``: they must be sampled judgements, with a stratum per
    line (a 5-column file); an :class:`~.inputs.InputError` in the command line's words if not."""
    from .readers import read_qrels

    source = qrels_source(name)
    if isinstance(source, str):
        return read_qrels(source, doc_ids="bytes", sampled=sampled)
    cols = as_columns(source, "tuples", "relevance", "qrels")
    if sampled and cols.strata is None:
        raise InputError(
            f"{name}: expected sampled judgements, 5 columns (topic iter docno stratum rel), "
            "found qrels without a stratum"
        )
    return cols
