"""Run files named by a user: a run's name from its file, the run files of a folder, a command
line's files and folders with exclusions."""

from __future__ import annotations

import errno
import os
from collections import Counter
from pathlib import Path
from typing import List, Sequence, Union

from .inputs import MissingInput

PathLike = Union[str, "os.PathLike[str]"]


def run_name(path: PathLike) -> str:
    """A run's name from its file name: ``input.uwmtCR0.gz`` -> ``input.uwmtCR0``."""
    name = Path(path).name
    return name[:-3] if name.endswith(".gz") else name


def list_run_files(directory: PathLike) -> List[Path]:
    """The run files of a directory: regular, non-hidden files, sorted by name."""
    d = Path(directory)
    files = sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise ValueError(f"no run files in {d}")
    return files


def run_files(items: Sequence[PathLike], exclude: Sequence[str] = ()) -> List[Path]:
    """The run files named on a command line: files as given, directories expanded
    (:func:`list_run_files`), those whose name matches an ``exclude`` glob left out."""
    import fnmatch

    files: List[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            files.extend(list_run_files(p))
        elif p.exists():
            files.append(p)
        else:
            # the main command's words for a missing run (its reader's OSError): "X: No such file ..."
            raise MissingInput(errno.ENOENT, os.strerror(errno.ENOENT), str(item))
    return [f for f in files if not any(fnmatch.fnmatch(f.name, g) for g in exclude)]


def run_labels(runs: Sequence[str]) -> List[str]:
    """Each run's label in a command's output: its file name without ``.gz`` (:func:`run_name`),
    ``<stdin>`` for ``-``, the path as given where two runs would share a name."""
    names = ["<stdin>" if r == "-" else run_name(r) for r in runs]
    counts = Counter(names)
    return [n if counts[n] == 1 else r for n, r in zip(names, runs)]
