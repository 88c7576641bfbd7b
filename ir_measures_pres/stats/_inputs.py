"""What a comparison reads besides the runs it scores itself, and what it records of its inputs.

:func:`score_table` turns the per-topic scores :func:`~.comparison.compare_scores` accepts (a
:class:`~ir_measures_pres.engine.scores.Scores`, a nested mapping, a long DataFrame, ``trec_eval
-q`` files) into one ``{run: {measure: {qid: value}}}`` table; :func:`metadata` gives the
versions of the packages and the SHA-256 of the input files, which the JSON output carries.
Private to ``stats/``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from ..data.inputs import InputError, input_file_error

PathLike = Union[str, "os.PathLike[str]"]


def score_table(scores: Any) -> Dict[str, Dict[str, Dict[str, float]]]:
    from ..data.runfiles import run_name
    from ..engine.scores import Scores

    if isinstance(scores, Scores):
        return {
            r: {
                m: dict(zip(scores.query_ids, scores.values[i, j].tolist()))
                for i, m in enumerate(scores.measures)
            }
            for j, r in enumerate(scores.runs)
        }
    if isinstance(scores, (str, os.PathLike)):
        scores = [scores]
    if isinstance(scores, Mapping):
        first = next(iter(scores.values()), None)
        if isinstance(first, Mapping):
            return {
                str(r): {str(m): {str(q): float(v) for q, v in d.items()} for m, d in ms.items()}
                for r, ms in scores.items()
            }
        return {str(r): _read_trec_eval_q(p) for r, p in scores.items()}
    if hasattr(scores, "columns"):
        return _frame_table(scores)
    out: Dict[str, Dict[str, Dict[str, float]]] = {}
    for p in scores:
        name = run_name(p)
        if name in out:
            raise ValueError(f"two score files have the same name: {name}")
        out[name] = _read_trec_eval_q(p)
    return out


def _frame_table(df: Any) -> Dict[str, Dict[str, Dict[str, float]]]:
    cols = set(df.columns)

    def pick(options: Sequence[str], what: str) -> str:
        for c in options:
            if c in cols:
                return c
        raise ValueError(
            f"the score table has no {what} column (one of {list(options)}); it has {sorted(cols)}"
        )

    run = pick(("name", "run", "system"), "run")
    qid = pick(("qid", "query_id"), "query id")
    measure = pick(("measure",), "measure")
    value = pick(("value",), "value")
    out: Dict[str, Dict[str, Dict[str, float]]] = {}
    for r, m, q, v in zip(df[run].tolist(), df[measure].tolist(), df[qid].tolist(), df[value].tolist()):
        if str(q) == "all":
            continue
        d = out.setdefault(str(r), {}).setdefault(str(m), {})
        if str(q) in d:
            raise ValueError(f"two scores for run {r}, measure {m}, query {q}")
        d[str(q)] = float(v)
    return out


def _read_trec_eval_q(path: PathLike) -> Dict[str, Dict[str, float]]:
    import gzip

    p = Path(path)
    opener: Any = gzip.open if p.name.endswith(".gz") else open
    out: Dict[str, Dict[str, float]] = {}
    try:
        f = opener(p, "rt", encoding="utf-8")
    except OSError as error:  # a missing file is an InputError, as the package's readers raise it
        raise input_file_error(error) from None
    with f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 3:
                raise InputError(
                    f"{p}:{lineno}: expected 'measure qid value' (trec_eval -q), got {line.strip()!r}"
                )
            m, q, v = parts
            if q == "all":
                continue
            try:
                value = float(v)
            except ValueError:
                continue  # runid and other text rows
            d = out.setdefault(m, {})
            if q in d:
                raise ValueError(f"{p}:{lineno}: a second value of {m} for query {q}")
            d[q] = value
    if not out:
        raise ValueError(f"{p}: no per-query scores (run trec_eval with -q)")
    return out


def metadata(qrels: Any, runs: Sequence[Tuple[str, Any]]) -> Dict[str, Any]:
    import platform
    from importlib import metadata as im

    versions: Dict[str, Optional[str]] = {"python": platform.python_version()}
    for pkg in ("ir_measures_pres", "ir_measures", "pytrec-eval-terrier", "numpy", "scipy", "statsmodels"):
        try:
            versions[pkg] = im.version(pkg)
        except im.PackageNotFoundError:
            versions[pkg] = None
    return {
        "versions": versions,
        "sha256": {
            "qrels": _sha256(qrels),
            "runs": {name: _sha256(r) for name, r in runs},
        },
    }


def _sha256(obj: Any) -> Optional[str]:
    """SHA-256 of a file's bytes; None for an in-memory object."""
    if isinstance(obj, (str, os.PathLike)) and Path(obj).is_file():
        h = hashlib.sha256()
        with open(obj, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    return None
