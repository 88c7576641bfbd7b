"""trec_eval's output lines (``--format trec`` of the CLI).

trec_eval prints ``printf("%-22s\\t%s\\t%6.4f\\n", name, qid, value)`` (counts as ``%ld``). The
names come from the measure catalogue (:func:`ir_measures_pres.measures.catalogue.trec_names`), which also
reads them back as measure arguments.
"""

from __future__ import annotations

from typing import Any

#: measures whose values trec_eval prints as integers (``%ld``)
INTEGER_MEASURES = frozenset({"NumRet", "NumRel", "NumQ", "NumNonRelJudgedRet"})


def format_value(measure: Any, value: float, places: int = 4) -> str:
    """A value as trec_eval prints it: ``%6.4f`` (``places`` decimals), counts as integers."""
    if getattr(measure, "NAME", None) in INTEGER_MEASURES:
        return str(int(round(value)))
    return f"{value:6.{places}f}"


def format_line(name: str, qid: str, value_text: str) -> str:
    """One output line, ``%-22s\\t%s\\t<value>`` as trec_eval prints it."""
    return f"{name:<22}\t{qid}\t{value_text}"
