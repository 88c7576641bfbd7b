"""The package's floors (issue #19) and house rules (issue #42): layers that import only the
layers below them, no import circle (imports only a type checker reads included), no underscore
name imported from another module, no module over 600 lines, argparse only in ``cli/``, private
modules kept inside their subpackage, the measures' families each in a folder of ``measures/``
beside the catalogue, the tool printers on one shelf (``printers/``), the public module paths
importable, and no module at the root that only re-exports another's names under an old path (the
package was never released with them).

The imports are read from the source with :mod:`ast`, lazy imports inside functions included;
imports under ``if TYPE_CHECKING:`` are not run: they do not count for the floors, but they do
for the circles.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "ir_measures_pres"
ROOT = "ir_measures_pres"

#: each subpackage's floor: a module may import its own floor and the floors below it
FLOORS = {"data": 0, "measures": 1, "engine": 2, "plots": 3, "stats": 4, "meta": 5, "cli": 6}
#: the tool replicas' printers format what the measures compute, for the commands: beside the engine
FLOORS["printers"] = 2
#: how the package runs (the process pool, the progress bar): standard library only, below every floor
FLOORS["runtime"] = -1
#: the modules directly in the package (public names and register(), hooks) are the
#: front door, on the command line's floor: ``cli`` reads ``__version__`` there
TOP = 6


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: Dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _type_checking_nodes(tree: ast.AST) -> Set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:``."""
    skipped: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                skipped.update(id(n) for n in ast.walk(stmt))
    return skipped


def _source_of(name: str, node: ast.ImportFrom) -> str:
    """The module an ``ImportFrom`` in ``name`` reads from, relative levels resolved."""
    if not node.level:
        return node.module or ""
    here = name.split(".") if is_package(name) else name.split(".")[:-1]
    base = here[: len(here) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _module_of(target: str) -> str:
    """The package's module ``target`` names, or the one it is a name of."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target


def _is_private(attribute: str) -> bool:
    """An underscore name, not a conventional dunder one (``__version__``, ``__all__``)."""
    return attribute.startswith("_") and not (attribute.startswith("__") and attribute.endswith("__"))


def imports_of(name: str, type_only: bool = False) -> List[Tuple[str, int]]:
    """(module of the package, line) for each import in ``name``'s source; ``type_only``: those
    under ``if TYPE_CHECKING:`` too."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(), str(path))
    skipped = set() if type_only else _type_checking_nodes(tree)
    found: List[Tuple[str, int]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _source_of(name, node)
            # ``from X import y`` imports the module X.y when there is one, else a name of X
            targets = [
                f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source for a in node.names
            ]
        else:
            continue
        for target in targets:
            target = _module_of(target)
            if target.startswith(ROOT) and target != name:
                found.append((target, node.lineno))
    return found


def private_names_of(name: str) -> List[str]:
    """Each underscore name ``name`` takes from another module of the package: ``from X import
    _y`` (``_y`` a name, not a module: private modules have their own rule) and ``X._y`` where
    ``X`` is a module it imported."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(), str(path))
    found: List[str] = []
    modules: Dict[str, str] = {}  # local name -> the package's module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES:
                    modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            source = _source_of(name, node)
            for a in node.names:
                if f"{source}.{a.name}" in MODULES:
                    modules[a.asname or a.name] = f"{source}.{a.name}"
                elif source.startswith(ROOT) and _is_private(a.name) and _module_of(source) != name:
                    found.append(f"{name}:{node.lineno}: from {source} import {a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            bound = modules.get(ast.unparse(node.value))
            if bound is not None and bound != name:
                found.append(f"{name}:{node.lineno}: {bound}.{node.attr}")
    return found


GRAPH = {name: imports_of(name) for name in MODULES}
#: the imports a type checker reads too: a circle through them is a circle all the same
FULL_GRAPH = {name: imports_of(name, type_only=True) for name in MODULES}


def floor_of(name: str) -> int:
    parts = name.split(".")
    if len(parts) == 1 or (len(parts) == 2 and not is_package(name) and parts[1] not in FLOORS):
        return TOP
    return FLOORS[parts[1]]


def test_the_floors_are_the_subpackages() -> None:
    subpackages = {
        n.split(".")[1] for n in MODULES if n.count(".") >= 1 and is_package(".".join(n.split(".")[:2]))
    }
    assert subpackages == set(FLOORS)


def test_no_import_cycle() -> None:
    """No circle, imports under ``if TYPE_CHECKING:`` included: a type-only circle is two modules
    that still need each other to be read; the shared piece goes down into a module both use."""
    state: Dict[str, int] = {}  # 1: on the path, 2: done
    path: List[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target, line in FULL_GRAPH[name]:
            if state.get(target) == 1:
                cycle = path[path.index(target) :] + [target]
                pytest.fail(f"import cycle: {' -> '.join(cycle)} ({MODULES[name].name}:{line})")
            if target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in MODULES:
        if name not in state:
            visit(name)


def test_no_underscore_name_taken_from_another_module() -> None:
    """An underscore name is its module's own: a name another module needs is made public (or
    moved to the module both use), so that a module's private names can change without a search."""
    taken = [use for name in MODULES for use in private_names_of(name)]
    assert taken == []


def test_each_floor_imports_only_the_floors_below() -> None:
    upward = [
        f"{name} imports {target} (line {line})"
        for name, edges in GRAPH.items()
        if not name.endswith("__main__")  # ``python -m`` entry points start a command
        for target, line in edges
        if floor_of(target) > floor_of(name)
    ]
    assert upward == []


def test_private_modules_stay_in_their_subpackage() -> None:
    outside = [
        f"{name} imports {target} (line {line})"
        for name, edges in GRAPH.items()
        for target, line in edges
        if target.rpartition(".")[2].startswith("_")
        and target.count(".") >= 2
        and not name.startswith(target.rpartition(".")[0] + ".")
        and name != target.rpartition(".")[0]
    ]
    assert outside == []


#: the most lines a module may have: room to grow under the 700 a module must never reach
MAX_LINES = 600


def test_no_module_over_600_lines() -> None:
    long = {name: n for name, p in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


#: ``measures/``'s own modules: the catalogue (the table of entries, their names and syntax, the
#: measure base class, directions, summaries, the bounds' specs); every family is a folder
CATALOGUE = {
    "__init__",
    "_syntax",
    "base",
    "bounds_spec",
    "catalogue",
    "direction",
    "entry",
    "summary",
    "table",
}


def test_measures_holds_the_catalogue_and_one_folder_per_family() -> None:
    """A family (a tool's or a paper's measures) is a subpackage of ``measures/`` whose
    ``__init__`` says what it is and which tool it reproduces; nothing else sits beside the
    catalogue, so a newcomer finds each family from the tree."""
    measures = PACKAGE / "measures"
    assert {p.stem for p in measures.glob("*.py")} - CATALOGUE == set()
    families = sorted(p for p in measures.iterdir() if p.is_dir() and any(p.rglob("*.py")))
    assert families
    undocumented = []
    for family in families:
        for folder in [family, *(p for p in family.rglob("*") if p.is_dir() and any(p.glob("*.py")))]:
            init = folder / "__init__.py"
            if not init.is_file() or not ast.get_docstring(ast.parse(init.read_text())):
                undocumented.append(str(folder.relative_to(PACKAGE)))
    assert undocumented == []


#: the tools whose output the package reproduces line for line: one printer module each
TOOLS = {"trec_eval", "ntcir", "tar", "diversity", "statap", "sample_eval"}


def test_the_tool_printers_are_on_one_shelf() -> None:
    """Each tool's lines are printed by one module of ``printers/`` named after the tool (what
    they share sits in ``printers/__init__`` or a private module there); no printer elsewhere
    (a ``lines.py`` of a family, a ``*_print.py`` of the command line)."""
    elsewhere = sorted(
        name
        for name, path in MODULES.items()
        if not name.startswith(f"{ROOT}.printers.")
        and (path.name == "lines.py" or path.stem.endswith("_print"))
    )
    assert elsewhere == []
    shelf = {p.stem for p in (PACKAGE / "printers").glob("*.py") if not p.stem.startswith("_")}
    assert shelf == TOOLS
    assert not [p for p in (PACKAGE / "printers").iterdir() if p.is_dir() and p.name != "__pycache__"]


def test_at_most_ten_modules_directly_in_the_package() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 10, top


def test_argparse_only_in_cli() -> None:
    users = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (isinstance(node, ast.Import) and any(a.name == "argparse" for a in node.names)) or (
                isinstance(node, ast.ImportFrom) and node.module == "argparse"
            ):
                users.append(name)
    assert users and all(u.startswith(f"{ROOT}.cli.") or u == f"{ROOT}.cli" for u in users), users


@pytest.mark.parametrize(
    "module,names",
    [
        ("ir_measures_pres.data.readers", ["read_qrels", "read_run", "FileOrderColumns", "TrecFormatError"]),
        (
            "ir_measures_pres.measures.catalogue",
            ["MEASURES", "parse_measures", "trec_names", "MeasureNameError"],
        ),
        ("ir_measures_pres.stats.comparison", ["compare", "compare_scores", "Comparison"]),
        ("ir_measures_pres.stats", ["wilcoxon", "kendall_tau", "require", "paired_t", "correct"]),
        ("ir_measures_pres.cli", ["main"]),
        ("ir_measures_pres.pyterrier", ["AVAILABLE", "ERROR"]),
        ("ir_measures_pres._entry_points", ["provider"]),
        ("ir_measures_pres.demo", ["main"]),
    ],
)
def test_public_paths_import(module: str, names: List[str]) -> None:
    loaded = importlib.import_module(module)
    assert all(hasattr(loaded, n) for n in names)


@pytest.mark.parametrize("old", ["readers", "io", "catalogue", "comparison"])
def test_no_old_path_at_the_root(old: str) -> None:
    """``ir_measures_pres.readers`` was a second path to ``data.readers`` (``.io``,
    ``.catalogue``, ``.comparison`` likewise): one thing, one path."""
    assert f"{ROOT}.{old}" not in MODULES
    assert not (PACKAGE / old).is_dir()


def test_public_names_unchanged() -> None:
    import ir_measures_pres
    import ir_measures_pres.meta

    expected_top = {
        "PRES", "R_norm", "Rnorm", "QMeasure", "Q_measure", "OMeasure", "O_measure", "PMeasure",
        "P_measure", "PPlusMeasure", "P_plus", "Bpref10", "Bpref_10", "MEASURES", "MeasureNameError",
        "register", "PresProvider", "MeasureParameterError", "InputError", "__version__", "compare",
        "compare_scores", "Comparison",
        # issue #23: runs larger than memory (docs/streaming.md)
        "BlockEvaluator", "iter_calc_blocks",
        # issue #28: a dead worker is an exception, never a hang (docs/cli.md)
        "WorkerLost",
        # issue #30: every mean with its interval over topics (docs/uncertainty.md)
        "Interval", "calc_intervals",
        # issue #30: bounds over unjudged documents (docs/uncertainty.md)
        "calc_bounds", "BoundsError",
    }  # fmt: skip
    assert set(ir_measures_pres.__all__) == expected_top
    assert all(getattr(ir_measures_pres, n) is not None for n in expected_top)
    assert all(getattr(ir_measures_pres.meta, n) is not None for n in ir_measures_pres.meta.__all__)
