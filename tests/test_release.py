"""What a release carries is consistent (issue #44): the version written once, the licence and the
citation agreeing with pyproject.toml, the supported Pythons stated alike, and a command that
needs an extra naming it when the extra is missing.

The built wheel and sdist themselves are checked by ``.ci/run`` (``.ci/package.py``): their files,
their metadata, and the wheel installed alone on the lowest and highest supported Python.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ir_measures_pres

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "ir_measures_pres"

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")


def pyproject() -> dict:
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def cff_field(name: str) -> str:
    """A top-level scalar of CITATION.cff (``name: value``, quotes removed)."""
    text = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    found = re.findall(rf"^{re.escape(name)}:[ \t]*(.+)$", text, re.M)
    assert len(found) == 1, f"CITATION.cff: expected one top-level {name!r}, found {found}"
    return found[0].strip().strip("\"'")


def version_assignments() -> list:
    """(file, line, value) of every ``__version__ = ...`` in the package's source."""
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "__version__" for t in targets):
                    hits.append(
                        (path.relative_to(REPO).as_posix(), node.lineno, ast.literal_eval(node.value))
                    )
    return hits


def test_the_version_is_written_once_and_pyproject_reads_it():
    project = pyproject()["project"]
    assert "version" not in project, "pyproject.toml types the version: it is read from __version__"
    assert "version" in project["dynamic"]
    attr = pyproject()["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "ir_measures_pres.__version__"
    hits = version_assignments()
    assert [(f, v) for f, _, v in hits] == [("ir_measures_pres/__init__.py", ir_measures_pres.__version__)]
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]|rc|\.dev|\.post)?\d*", ir_measures_pres.__version__)


def test_the_citation_names_this_version_and_licence():
    assert cff_field("cff-version") == "1.2.0"
    assert cff_field("version") == ir_measures_pres.__version__
    assert cff_field("license") == pyproject()["project"]["license"] == "MIT"
    assert cff_field("type") == "software"
    assert "ir_measures_pres developers" in (REPO / "CITATION.cff").read_text(encoding="utf-8")


def test_the_licence_file_is_the_mit_text_shipped_by_pyproject():
    project = pyproject()["project"]
    assert project["license"] == "MIT"  # an SPDX expression (PEP 639), not a table
    assert project["license-files"][0] == "LICENSE"
    for name in project["license-files"]:
        assert (REPO / name).is_file(), name
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 ir_measures_pres developers\n")
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    # the bundled sample is trec_eval's test collection: NIST's notice travels with it
    assert (PACKAGE / "data" / "sample" / "trec_eval-NIST.md").read_bytes() == (
        REPO / "tests" / "data" / "LICENSES" / "trec_eval-NIST.md"
    ).read_bytes()
    # PEP 639: the SPDX expression is the licence metadata; setuptools refuses License:: classifiers
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]


def test_the_supported_pythons_are_stated_alike():
    project = pyproject()["project"]
    listed = sorted(
        (int(m.group(1)), int(m.group(2)))
        for c in project["classifiers"]
        if (m := re.fullmatch(r"Programming Language :: Python :: (\d+)\.(\d+)", c))
    )
    assert listed[0] == (3, 10) and listed == [(3, minor) for minor in range(10, listed[-1][1] + 1)]
    assert project["requires-python"] == f">={listed[0][0]}.{listed[0][1]}"
    assert "Typing :: Typed" in project["classifiers"] and (PACKAGE / "py.typed").is_file()
    assert pyproject()["tool"]["mypy"]["python_version"] == "3.10"
    setuptools = [r for r in pyproject()["build-system"]["requires"] if r.startswith("setuptools")]
    assert setuptools == ["setuptools>=77"]  # the first with PEP 639's license and license-files


#: a stand-in for an installation without the meta extra: its modules cannot be imported
_WITHOUT_META = (
    "import sys\n"
    "for name in ('pandas', 'scipy', 'matplotlib', 'statsmodels'):\n"
    "    sys.modules[name] = None\n"
    "from ir_measures_pres.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize(
    "command",
    [
        ["curves", "{q}", "{r}", "{r}", "--kind", "pr11"],
        ["compare", "{q}", "{r}", "{r}", "-m", "AP"],
        ["agreement", "{q}", "{r}", "{r}", "-m", "AP", "--plot-format", "none"],
    ],
    ids=lambda c: c[0],
)
def test_a_command_needing_the_meta_extra_says_so_in_one_line(command, tmp_path):
    """Before, ``curves`` without pandas printed "No module named 'pandas'", naming no extra."""
    from ir_measures_pres.demo import sample_paths

    qrels, results = sample_paths()
    run2 = tmp_path / "other.run"
    run2.write_bytes(Path(results).read_bytes())
    args = [a.format(q=qrels, r=results) for a in command]
    args[3] = str(run2)  # two runs with different names
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_META, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and done.stdout == ""
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "pip install 'ir_measures_pres[meta]'" in lines[0], lines[0]
