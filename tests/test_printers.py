"""The printers of the tool replicas keep their one interface (``ir_measures_pres/printers``'s
docstring): one module per tool, each with ``lines(values, ...)`` returning the tool's text, and
formatting only: a printer reads no file and ranks no run (its values come computed). Whether
their bytes are the tools' is the replica tests' work (tests/test_trec_eval_*.py,
test_ntcir_*.py, test_tar_*.py, test_diversity_*.py, test_sampled_*.py, test_statap.py).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import List

import pytest

PRINTERS = Path(__file__).resolve().parents[1] / "ir_measures_pres" / "printers"
#: the tools whose lines the package reproduces, one printer each
TOOLS = ("trec_eval", "ntcir", "tar", "diversity", "statap", "sample_eval")
#: the modules a printer must not import: reading files, ranking a run, making qrels
READING = ("data.readers", "data.ranking", "data.qrels", "data.datasets", "data.prels", "data.runblocks")
#: statAP keeps its documented shortcuts for a Python caller (files in, text out: docs/judgements.md)
SHORTCUTS = {"statap": {"data.readers", "data.prels"}}


def test_one_printer_per_tool_and_nothing_else() -> None:
    modules = sorted(p.stem for p in PRINTERS.glob("*.py") if p.stem != "__init__")
    assert modules == sorted(TOOLS)


@pytest.mark.parametrize("tool", TOOLS)
def test_each_printer_has_lines_returning_the_tools_text(tool: str) -> None:
    module = importlib.import_module(f"ir_measures_pres.printers.{tool}")
    lines = getattr(module, "lines", None)
    assert callable(lines), f"printers.{tool} has no lines()"
    assert "lines" in module.__all__
    signature = inspect.signature(lines)
    assert signature.return_annotation in (str, "str")
    assert list(signature.parameters)[0] in ("values", "run_rows", "result")
    assert lines.__doc__


def _imports(path: Path) -> List[str]:
    """The package modules ``path`` imports (relative to ``ir_measures_pres``), lazy ones too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            found.append((node.module or "").strip("."))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ir_measures_pres."):
            found.append(node.module.split(".", 1)[1])  # type: ignore[union-attr]
    return found


@pytest.mark.parametrize("tool", TOOLS)
def test_a_printer_reads_no_file_and_ranks_no_run(tool: str) -> None:
    allowed = SHORTCUTS.get(tool, set())
    imported = [m for m in _imports(PRINTERS / f"{tool}.py") if m in READING and m not in allowed]
    assert imported == [], f"printers.{tool} imports {imported}: its values should come computed"
