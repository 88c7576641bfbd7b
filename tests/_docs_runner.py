"""Runs the Python example of a docs page as an interactive session shows it (tests/test_docs_examples.py).

``python _docs_runner.py SEGMENTS.json``: the segments are blocks of one page, run in order in one
namespace (a block that continues an earlier one of its page gets that block first). In a segment
marked ``show`` every top-level statement is preceded on standard output by a marker line
``\\x1f<page line>\\x1f``, and an expression statement prints the repr of its value when that is
not None, as the interactive interpreter does: so that a comment such as ``# {PRES@100: 0.99}``
under ``ir_measures.calc_aggregate(...)`` can be compared with what the statement gives.
Tracebacks name the page and its line numbers. Standard library only.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

MARK = "\x1f"


def main(path: str) -> None:
    namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
    for segment in json.loads(Path(path).read_text(encoding="utf-8")):
        tree = ast.parse(segment["code"], filename=segment["page"])
        ast.increment_lineno(tree, segment["line"] - 1)
        for stmt in tree.body:
            if segment["show"]:
                sys.stdout.flush()
                print(f"\n{MARK}{stmt.lineno}{MARK}", flush=True)
            if segment["show"] and isinstance(stmt, ast.Expr):
                value = eval(compile(ast.Expression(stmt.value), segment["page"], "eval"), namespace)
                if value is not None:
                    print(repr(value))
            else:
                exec(compile(ast.Module([stmt], type_ignores=[]), segment["page"], "exec"), namespace)
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
