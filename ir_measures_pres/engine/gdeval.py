"""What ir_measures' gdeval provider can take, checked before it runs.

ir_measures computes ``ERR@k`` (and ``nDCG(dcg='exp-log2')@k``) with its ``gdeval`` provider:
``gdeval.pl``, the TREC 2010 Web track's Perl script (version 1.2a, shipped inside ir_measures),
run on temporary copies of the qrels and the run that ir_measures writes itself (``QID 0 DOC
REL`` and ``QID Q0 DOC RANK SCORE run``, each value as ``str.format`` writes it). Read from the
script, what it does with them:

* a topic id is its text after the last ``-`` (``s/^.*\\-//``), which must be ASCII digits
  (``/^[0-9]+$/``): any other id stops the script ("format error on line N", a non-zero exit
  that ir_measures raises as a bare ``subprocess.CalledProcessError``, which the command line
  reported as an internal error, exit status 70);
* an id with a ``-`` passes, but as another topic: ``trec-1`` is ``1`` to it and its values come
  back under ``1``, so ``trec-1`` silently got the DEFAULT, 0;
* topics are sorted and grouped as numbers (``<``, ``!=``: exactly up to 64 bits, as doubles
  beyond), judgements looked up by the text: two ids that are one number (``7`` and ``07``)
  mix their lines, silently;
* a grade must be an integer (``/^-?[0-9]+$/``) of at most 4 (``$MAX_JUDGMENT``), else the
  script stops too.

So that such input is the package's :class:`~ir_measures_pres.data.inputs.InputError` (one line
and exit status 1 in the commands) naming what gdeval needs and what was found, never a bug's
message or a number under the wrong topic, every path of the package into gdeval checks its
input first: :class:`~.evaluation.Evaluation` (the main command, ``BlockEvaluator``,
``calc_intervals`` of files) and :class:`~.scores.Core` (``compare``, ``curves``, the meta
commands) check the qrels, whose queries are the only ones they hand over; ``calc_intervals`` of
objects, which hands ir_measures the whole run, the qrels and the run (:func:`checked_objects`).
Input gdeval takes is handed over as before: its numbers do not change.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..data.inputs import Columns, InputError, place
from .backend import default_provider_of

__all__ = [
    "GDEVAL",
    "MAX_GRADE",
    "check_columns",
    "check_judgements",
    "check_topics",
    "checked_objects",
    "first_bad_grade",
    "gdeval_measures",
]

#: the provider's name in ir_measures' registry (``--provider gdeval``)
GDEVAL = "gdeval"
#: gdeval.pl's ``$MAX_JUDGMENT``: a larger grade stops the script
MAX_GRADE = 4

_DIGITS = re.compile(r"[0-9]+")
_INTEGER = re.compile(r"-?[0-9]+")
#: Perl holds a number of up to 64 bits exactly (an integer), a larger one as a double
_UV_MAX = 2**64 - 1


def gdeval_measures(measures: Sequence[Any], provider: Optional[str] = None) -> List[Any]:
    """The measures of ``measures`` that go to gdeval: all of them when ``provider`` is
    ``'gdeval'`` (``--provider``), none for another provider, and with no provider those that
    ir_measures' default pipeline gives it (``ERR@k``, ``nDCG(dcg='exp-log2')@k``)."""
    if provider is not None:
        return list(measures) if provider == GDEVAL else []
    return [m for m in measures if default_provider_of(m) == GDEVAL]


def _needs(measures: Sequence[Any]) -> str:
    names = list(dict.fromkeys(str(m) for m in measures))
    verb = "is" if len(names) == 1 else "are"
    provider = "gdeval (ir_measures' provider, the Perl script gdeval.pl)"
    return f"{', '.join(names)} {verb} computed by {provider}, which needs"


def _perl_number(topic: str) -> Union[int, float]:
    """The number Perl reads from a topic id of digits (exact up to 64 bits, a double beyond;
    past 20 digits straight to the double, which ``int`` refuses beyond 4300 digits)."""
    if len(topic.lstrip("0")) > len(str(_UV_MAX)):
        return float(topic)
    value = int(topic)
    return value if value <= _UV_MAX else float(topic)


def check_topics(measures: Sequence[Any], named: Sequence[Tuple[str, Iterable[str]]]) -> None:
    """An :class:`InputError` for the first topic id gdeval cannot take (``named``: where the ids
    are, a file's name or ``qrels``/``run``, and the ids, in order), or for two ids it reads as
    one number."""
    seen: Dict[Union[int, float], str] = {}
    for where, topics in named:
        for topic in topics:
            if _DIGITS.fullmatch(topic) is None:
                tail = topic.rpartition("-")[2]
                hint = f" (gdeval would read it as topic {tail!r})" if _DIGITS.fullmatch(tail) else ""
                raise InputError(
                    f"{where}: {_needs(measures)} numeric topic ids (digits 0-9 only), found {topic!r}{hint}"
                )
            first = seen.setdefault(_perl_number(topic), topic)
            if first != topic:
                raise InputError(
                    f"{where}: {_needs(measures)} topic ids that are different numbers (it reads them "
                    f"as numbers), found {first!r} and {topic!r}"
                )


def first_bad_grade(grades: Any) -> Optional[int]:
    """The index of the first grade gdeval stops on, or None: as ``str.format`` writes it (what
    ir_measures hands gdeval), not an integer of at most :data:`MAX_GRADE` (``1.0`` and ``True``
    are not integers there)."""
    grades = np.asarray(grades)
    if grades.dtype.kind in "iu":
        above = np.flatnonzero(grades > MAX_GRADE)
        return int(above[0]) if len(above) else None
    for i, value in enumerate(grades.tolist()):
        text = f"{value}"
        if _INTEGER.fullmatch(text) is None or int(text) > MAX_GRADE:
            return i
    return None


def check_judgements(
    measures: Sequence[Any], topics: Iterable[str], grades: Any, where: str, at: Callable[[int], str]
) -> None:
    """Qrels for gdeval: their distinct topic ids (:func:`check_topics`), then their grades
    (:func:`first_bad_grade`; ``at(i)``: where grade ``i`` is, for the message)."""
    check_topics(measures, [(where, topics)])
    i = first_bad_grade(grades)
    if i is not None:
        raise _bad_grade(measures, where, np.asarray(grades).tolist()[i], at(i))


def _bad_grade(measures: Sequence[Any], where: str, grade: Any, at: str) -> InputError:
    return InputError(
        f"{where}: {_needs(measures)} integer relevance grades of at most {MAX_GRADE}, "
        f"found {grade!r} at {at}"
    )


def check_columns(measures: Sequence[Any], provider: Optional[str], qrels: Columns) -> None:
    """The readers' (or any) qrels :class:`Columns`, for the measures of ``measures`` that go to
    gdeval with ``provider`` (None: ir_measures' default pipeline); none: nothing is checked."""
    chosen = gdeval_measures(measures, provider)
    if not chosen or not isinstance(qrels, Columns):  # other objects: ir_measures' own types
        return
    names = qrels.query_names
    if names is None:
        names = list(dict.fromkeys(np.asarray(qrels.query_ids).tolist()))
    check_judgements(
        chosen,
        names,
        qrels.values,
        qrels.path or "qrels",
        lambda i: place("qrels", qrels.query_ids[i], qrels.doc_ids[i]),
    )


def _reusable(obj: Any) -> Any:
    """An iterator (it can be read once) as a list, anything else as it is."""
    return list(obj) if iter(obj) is obj else obj


def checked_objects(
    measures: Sequence[Any],
    provider: Optional[str],
    qrels: Any,
    run: Any,
    names: Tuple[str, str] = ("qrels", "run"),
) -> Tuple[Any, Any]:
    """Qrels and a run of any type ir_measures takes, about to go to ir_measures itself
    (``iter_calc``), which writes every line of both for gdeval: their topic ids and the qrels'
    grades checked for the measures that go to gdeval; returned with an iterator made a list,
    so that checking it does not use it up. ``names``: what the messages call them (the files'
    names)."""
    chosen = gdeval_measures(measures, provider)
    if not chosen:
        return qrels, run
    from ir_measures.util import QrelsConverter, RunConverter

    qrels, run = _reusable(qrels), _reusable(run)
    judgements = list(QrelsConverter(qrels).as_namedtuple_iter())
    qrels_topics = dict.fromkeys(f"{j.query_id}" for j in judgements)
    run_topics = dict.fromkeys(f"{d.query_id}" for d in RunConverter(run).as_namedtuple_iter())
    check_topics(chosen, [(names[0], qrels_topics), (names[1], run_topics)])
    i = first_bad_grade(np.asarray([j.relevance for j in judgements], dtype=object))
    if i is not None:
        j = judgements[i]
        raise _bad_grade(chosen, names[0], j.relevance, place("qrels", j.query_id, j.doc_id))
    return qrels, run
