"""The one sentence every command, ``compare``'s notes and :class:`~.scores.Core` give for a
run that lacks qrels topics (a run of another collection lacks them all and would otherwise
score 0 silently): which topics (the first few named, :func:`named_topics`), how many of how
many, and what they get (:data:`MISSING_RULES`; under the ``default`` rule, what each measure's
DEFAULT gives there).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Sequence, Union

__all__ = ["MISSING_RULES", "NAMED_TOPICS", "lacking_topics", "named_topics"]


#: what a topic a run lacks gets, per rule: what the measure gives an empty ranking of it (every
#: qrels topic counts, as trec_eval -c, ir_measures and PyTerrier), 0 (per-topic scores read
#: from files), or nothing
MISSING_RULES = {
    "default": "scored as an empty ranking on them (0 for most measures)",
    "zero": "given 0 there",
    "left out": "left out, as the tool leaves them",
}


#: the topics a warning names before it says how many more
NAMED_TOPICS = 5


def named_topics(topics: Sequence[str]) -> str:
    """The first few of ``topics`` and how many more: ``601, 602, 603, 604, 605 and 3 more``."""
    shown = ", ".join(topics[:NAMED_TOPICS])
    more = len(topics) - NAMED_TOPICS
    return f"{shown} and {more} more" if more > 0 else shown


def lacking_topics(
    run: str,
    missing: Union[int, Sequence[str]],
    topics: int,
    rule: str = "default",
    measures: Sequence[Any] = (),
) -> str:
    """The one sentence every command and ``compare``'s notes use for a run that lacks qrels
    topics (a run of another collection lacks them all and would otherwise score 0 silently):
    ``missing`` the topics (the first few are named) or their count, ``rule`` what they get
    (:data:`MISSING_RULES`); with the rule ``default``, ``measures`` (the measures scored) say
    what each one's DEFAULT does there."""
    if isinstance(missing, int):
        count, named = missing, ""
    else:
        count, named = len(missing), f" ({named_topics(list(missing))})"
    what = _defaults_rule(measures) if rule == "default" and measures else MISSING_RULES[rule]
    return f"run {run} lacks {count} of the {topics} topics{named}, {what}"


def _defaults_rule(measures: Sequence[Any]) -> str:
    """What the measures give a topic the run lacks: what an empty ranking scores (0 for most; a
    value of the topic's judgements for yaap, Utility ...: :func:`~..measures.summary.lacking_values`);
    NaN, left out of the mean, for the estimators undefined there (statAP's); grouped by what
    they give."""
    from ..measures.summary import MEAN, summary_of

    given: Dict[str, List[str]] = {}
    for m in measures:
        value = float(m.DEFAULT)
        if not math.isnan(value):
            text = MISSING_RULES["default"]
        elif summary_of(m) == MEAN:
            text = "nan there, left out of the mean"
        else:
            text = "nan there"
        given.setdefault(text, []).append(str(m))
    if len(given) == 1:
        return next(iter(given))
    return "; ".join(f"{', '.join(names)}: {text}" for text, names in given.items())
