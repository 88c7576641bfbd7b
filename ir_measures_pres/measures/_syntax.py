"""What is wrong with a measure token that Python's parser rejects, in a user's terms.

ir_measures reads ``Name(k=v)@c`` with Python's parser, whose messages ('invalid decimal
literal', 'values must be str, float, int, bool, etc.') say nothing of the measure. These
functions name the part that is not a value (the value after ``@``, a parameter, the brackets)
and offer the token with look-alike letters read as digits (``nDCG@1O`` -> ``nDCG@10``) when the
catalogue says it parses.
"""

from __future__ import annotations

import ast
import re
from typing import Callable, List

#: characters typed for digits: letter O for zero, l and I for one
_LOOK_ALIKE = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1"})
#: a number where one is expected (after '@', '=', '.', ...), possibly with look-alike letters
_NUMBER_LIKE = re.compile(r"(?:(?<=[@=:{,.(_ ])|^)[0-9OolI][0-9OolI.]*(?![A-Za-z_])")


def digits_for_letters(text: str) -> str:
    """``text`` with look-alike letters read as digits inside its numbers (``nDCG@1O`` ->
    ``nDCG@10``, ``beta=O.5`` -> ``beta=0.5``), names untouched."""
    return _NUMBER_LIKE.sub(lambda m: m.group().translate(_LOOK_ALIKE), text)


def syntax_problem(name: str, rest: str, parser_said: str, parses: Callable[[str], bool]) -> str:
    """What is wrong with ``rest``, the ``(...)@...`` part after a known measure ``name``, in
    the user's terms instead of Python's parser's ('invalid decimal literal'): the part that is
    not a value, and the token with look-alike letters read as digits when ``parses`` accepts
    it; what the parser said (``parser_said``) when the shape is right."""
    params, at, cut = rest.partition("@")
    problem = ""
    if at and not re.fullmatch(r"\d+(\.\d+)?", cut):
        if not cut:
            problem = f"nothing after '@' (e.g. {name}{params}@10)"
        elif re.fullmatch(r"-\d+(\.\d+)?", cut):
            problem = f"the value after '@' cannot be negative, found {cut!r}"
        else:
            problem = f"the value after '@' must be a number, found {cut!r}"
    elif params and not (params.startswith("(") and params.endswith(")")):
        problem = f"the parameters must be in brackets, found {params!r}"
    elif params:
        for pair in top_level_parts(params[1:-1]):
            key, eq, value = (part.strip() for part in pair.partition("="))
            if eq and not is_literal(value):
                problem = (
                    f"parameter {key!r}: {value!r} is not a value (a number, 'text', True/False or {{...}})"
                )
                break
    if not problem:
        return parser_said
    fixed = name + digits_for_letters(rest)
    if fixed != name + rest and parses(fixed):
        problem += f"; did you mean {fixed}?"
    return problem


def top_level_parts(text: str) -> List[str]:
    """``text`` split at the commas outside brackets and quotes: the ``k=v`` pairs of a measure's
    parameters, a dict's own commas kept (``gains={1:5,2:1}, beta=1`` gives two)."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def is_literal(text: str) -> bool:
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError):
        return False
    return True
