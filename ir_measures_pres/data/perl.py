"""Perl's ways with numbers that the replicas of Perl tools follow: the numeric comparison
``<=>`` of topic ids (the order a tool sorts, prints and adds its topics in) and ``print``'s
format of a number."""

from __future__ import annotations

import re
from typing import Tuple

__all__ = ["DECIMAL", "numeric_key", "perl_number", "perl_text"]

#: a decimal number, as Perl's numeric context and C's ``strtod``/``atof`` read one (sign, digits
#: with an optional point, optional exponent; no hex, inf or nan): the one pattern of the tool
#: replicas (trec_eval's measure parameters and judgement lines use it too)
DECIMAL = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"

#: the leading number Perl reads from a string (leading blanks allowed)
_LEADING_NUMBER = re.compile(r"\s*" + DECIMAL)


def perl_number(text: str) -> float:
    """A string as Perl's numeric context reads it: its leading number, else 0."""
    found = _LEADING_NUMBER.match(text)
    return float(found.group()) if found else 0.0


def numeric_key(topic: str) -> Tuple[float, str]:
    """A sort key of topic ids in Perl's ``sort { $a <=> $b }`` order: the leading number, ties
    (equal numbers, ids without one) by text, so that the order does not depend on the input's."""
    return (perl_number(topic), topic)


def perl_text(value: float) -> str:
    """A number as Perl's ``print`` writes it (``%.15g``)."""
    return "%.15g" % value
