"""Every example of README.md and docs/**/*.md runs, and prints the numbers its page shows (issue #20).

The expected values are the pages themselves: a number a page shows that the example no longer
prints fails here. Each fenced block that is an example is one test, named ``page:line`` (the line
of its opening fence). How a page is read (tests/_docs.py):

* ```python blocks run in a fresh interpreter (tests/_docs_runner.py), statement by statement as
  an interactive session shows them: an expression statement prints the repr of its value. A
  comment written like a printed value (it starts with a bracket, a quote, a number or
  ``Name(``) shows what the statement on its line prints or, on lines of its own, what the
  statement just above them prints (``calc_aggregate(...)`` then ``# {PRES@100: 0.99, ...}``):
  each of its numbers must be in that statement's output. Comments in words (``# the long table
  (pandas)``) are not compared.
* ```bash and ```sh blocks: each line (joined at a trailing backslash) is a command,
  ``ir_measures_pres ...``, ``python -m ir_measures_pres...`` (both run as ``python -m`` with the
  interpreter of the tests) or a variable assignment; ``pip install ... &&`` in front of one is the
  installation and is not run. ```console blocks: the ``$ `` lines are the commands and the lines
  up to the next ``$ `` what the command prints.
* What a page shows an example printing: in a console block, the lines under each command; a
  ```text block after the example; the Markdown tables in the prose after it. What follows an
  example ends at the next heading or the next fence that is not ```text. An unlabelled fence is
  neither run nor compared (synopses, illustrations), and no other label may appear
  (test_every_fence_is_read).
* Comparing: a shown line must be printed, in the page's order (``...`` lines skipped), equal to
  a printed line once numbers and runs of blanks are set aside, and with its numbers at the
  page's precision: 0.7774 matches 0.77742, ``0.5632...`` may also be cut there, an integer is
  exact, ``62.5 %`` is 0.625 (``matches`` in tests/_docs.py). In a table only the cells that hold
  numbers are compared. A row whose text cells (``PRES@1000``, ``AP@1000``) the output prints on
  lines with numbers must find its numbers in order on those lines; a row of numbers only, in
  order on one line; a row whose text the output does not print (``AP – R``), each number
  somewhere in the output. A column headed ``(paper)`` quotes a paper and is not compared.
* Every example must exit with status 0, except a console command whose shown output holds an
  ``ir_measures_pres: error:`` line: it must exit with another status.

Examples run in a temporary folder where the file names they use exist: FILES maps the names of
each page (and of single blocks) to the bundled sample collection, tests/data or ../shared/data,
ENV sets the variables the pages use (``$DATA``, ``$R``), CONTINUES lists the blocks a block
continues (run first, in the same folder and, for Python, the same interpreter), SKIP the few
blocks that cannot run here, each with its reason. A block that reads ../shared/data skips
without it (conftest.py, or fails with IR_MEASURES_PRES_REQUIRE_SHARED=1).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple, Union

import pytest
from _docs import (
    KNOWN_LABELS,
    RUNNABLE,
    Block,
    Num,
    Shown,
    Table,
    commands,
    expected_comments,
    find_in_order,
    is_synopsis,
    matches,
    missing_anywhere,
    numbers,
    read_page,
    shape,
    shown_commands,
)
from conftest import DATA, SHARED_DATA, needs_shared, shared_path

import ir_measures_pres

REPO = Path(__file__).resolve().parents[1]
RUNNER = Path(__file__).resolve().parent / "_docs_runner.py"
#: the folder that holds the package the tests import: the examples' interpreters import it too
PACKAGE_ROOT = Path(ir_measures_pres.__file__).resolve().parents[1]
PAGES = ["README.md", *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs").rglob("*.md"))]
BLOCKS: List[Block] = [block for page in PAGES for block in read_page(REPO / page, page)]
BY_ID: Dict[str, Block] = {block.id: block for block in BLOCKS}

SAMPLE = REPO / "ir_measures_pres" / "data" / "sample"
TREC_EVAL = DATA / "trec_eval_test"
TAR = DATA / "clef-tar-2017"
ROBUST = shared_path("real", "trec-robust-2003")

# --------------------------------------------------------------------------------------------
# the files the examples name
# --------------------------------------------------------------------------------------------

Maker = Callable[[Path], None]


def gzipped(source: Path) -> Maker:
    """A gzipped copy of ``source`` (for a name ending in ``.gz``)."""

    def make(dest: Path) -> None:
        dest.write_bytes(gzip.compress(source.read_bytes(), mtime=0))

    return make


def mirror(source: Path, dest: Path) -> None:
    """``source`` at ``dest``: a file as a link to it, a folder as a folder of such links (so
    that an example that writes into a folder it was given cannot write into the data)."""
    if source.is_dir():
        dest.mkdir()
        for child in sorted(source.iterdir()):
            mirror(child, dest / child.name)
    else:
        dest.symlink_to(source)


def folder(**runs: Path) -> Maker:
    """A folder of runs, ``name -> file``."""

    def make(dest: Path) -> None:
        dest.mkdir()
        for name, source in runs.items():
            (dest / name).symlink_to(source)

    return make


def with_2018_flags(source: Path) -> Maker:
    """A CLEF 2017 run (gzipped) with column 2 made a 2018 threshold flag: 0 on every line (no
    threshold set), for the examples of the 2018 tool, which reads flags where 2017 read codes."""

    def make(dest: Path) -> None:
        lines = gzip.decompress(source.read_bytes()).decode().splitlines()
        rewritten = (" ".join([cols[0], "0", *cols[2:]]) for cols in (line.split() for line in lines))
        dest.write_text("".join(line + "\n" for line in rewritten))

    return make


#: the sample collection's run and trec_eval's truncated copy of it, as two runs of one folder
SAMPLE_RUNS = folder(bm25=SAMPLE / "results.test", trunc=TREC_EVAL / "results.trunc")
#: a CLEF TAR run, its screening order in column 2's codes (2017); the abstract-level qrels
TAR_RUN = TAR / "runs" / "waterloo.A-thresh-normal.gz"
TAR_QRELS = TAR / "qrels" / "qrel_abs_test.txt"
README_TAR: Dict[str, Union[Path, Maker]] = {
    "qrel_abs_test.txt": TAR_QRELS,
    "qrels.txt": TAR_QRELS,
    "run.txt": TAR_RUN,
    "run_2018.txt": with_2018_flags(TAR_RUN),
}

#: placeholder name (relative to the example's folder) -> the file: per page, then per block
FILES: Dict[str, Dict[str, Union[Path, Maker]]] = {
    "README.md": {
        "qrels.txt": SAMPLE / "qrels.test",
        "run.txt": SAMPLE / "results.test",
        "run.txt.gz": gzipped(SAMPLE / "results.test"),
        "runs": SAMPLE_RUNS,
    },
    # the TAR section: a CLEF 2017 run (and the same with 2018 flags) and its qrels
    "README.md:127": README_TAR,
    "README.md:135": README_TAR,
    # the sampled-judgements section: the reference draw from TREC Robust 2003, one of its runs
    "README.md:176": {
        "qrels.sampled": shared_path("sampled-judgements", "qrels.sampled"),
        "run.txt": ROBUST / "runs" / "input.aplrob03a.gz",
    },
    "docs/trec_eval.md": {"qrels.test": TREC_EVAL / "qrels.test", "results.test": TREC_EVAL / "results.test"},
    # sampled --tool statap: the reference draw's prels and one of the Robust runs
    "README.md:186": {
        "prels": shared_path("sampled-judgements", "prels"),
        "run.txt": ROBUST / "runs" / "input.aplrob03a.gz",
    },
    "docs/cli.md": {
        "qrels.txt": SAMPLE / "qrels.test",
        "robust03_qrels.txt": ROBUST / "qrels" / "robust03_qrels.txt",
        "runs": ROBUST / "runs",
        "bm25.run": SAMPLE / "results.test",
        "dense.run.gz": gzipped(TREC_EVAL / "results.trunc"),
        "hybrid.run": SAMPLE / "results.test",
    },
    # runs larger than memory: the sample's run, and a folder of two runs (one not grouped by query)
    "docs/streaming.md": {
        "qrels.txt": SAMPLE / "qrels.test",
        "run.txt": SAMPLE / "results.test",
        "runs": SAMPLE_RUNS,
    },
    # intervals over topics and bounds: the sample collection, and TREC Robust 2003's runs for the
    # figures
    "docs/uncertainty.md": {
        "qrels.test": SAMPLE / "qrels.test",
        "results.test": SAMPLE / "results.test",
        "robust03_qrels.txt": ROBUST / "qrels" / "robust03_qrels.txt",
        "runs": ROBUST / "runs",
    },
    # the Python example; the worked comparison makes its own runs/ and finds the sample's qrels
    "docs/compare.md:19": {"qrels.txt": SAMPLE / "qrels.test", "runs": SAMPLE_RUNS},
    "docs/tar.md": {
        "qrel_abs_test.txt": TAR_QRELS,
        "waterloo.A-thresh-normal.txt": TAR_RUN,
        "run_task1.txt": with_2018_flags(TAR_RUN),
    },
    # the textbook's worked example (tests/data/textbook)
    "docs/textbook.md": {
        name: DATA / "textbook" / name for name in ("qrels.txt", "chapter.run", "reversed.run", "known.txt")
    },
    # NTCIREVAL: the CLEF TAR 2017 graded qrels and one run (as tests/data/ntcireval-full)
    "docs/ntcir.md": {
        "qrels.txt": TAR / "qrels" / "test.clef2017.qrels",
        "amc.run.gz": TAR / "runs" / "amc.run.gz",
    },
    # NTCIREVAL's diversity scripts: set A (tests/data/ntcireval-diversity)
    "docs/diversity.md": {
        name: DATA / "ntcireval-diversity" / "setA" / name
        for name in ("setA.DINprob", "setA.Dqrels.gz", "setA-divgood.gz")
    },
    # the meta-evaluation pages' Python examples: the CLEF TAR 2017 runs (tests/data)
    "docs/meta/agreement.md": {"qrels.txt": TAR_QRELS, "runs": TAR / "runs"},
    "docs/meta/discriminative-power.md": {"qrels.txt": TAR_QRELS, "runs": TAR / "runs"},
    "docs/meta/robustness.md": {"qrels.txt": TAR_QRELS, "runs": TAR / "runs"},
    # --size 25 needs 50 topics: TREC Robust 2003's 100
    "docs/meta/sensitivity.md": {
        "qrels.txt": ROBUST / "qrels" / "robust03_qrels.txt",
        "runs": ROBUST / "runs",
    },
    # sampled judgements: the reference draw from TREC Robust 2003 and one of its runs
    "docs/judgements.md": {
        "qrels.sampled": shared_path("sampled-judgements", "qrels.sampled"),
        "input.aplrob03a.gz": ROBUST / "runs" / "input.aplrob03a.gz",
    },
    # sampled --tool statap: the reference draw's prels and two of the Robust runs
    "docs/judgements.md:259": {
        "prels": shared_path("sampled-judgements", "prels"),
        "input.uwmtCR0.gz": ROBUST / "runs" / "input.uwmtCR0.gz",
    },
    # commands written for the clone's folder, with ../shared beside it
    "docs/meta/reproducing-the-papers.md": {
        "tests/data/clef-tar-2017": TAR,
        "../shared/data/real/trec-robust-2003": ROBUST,
    },
}

#: environment variables the pages use: per page, then per block
ENV: Dict[str, Dict[str, Union[str, Path]]] = {
    # "DATA is the project's shared data folder (../shared/data/real beside the clone)"
    "docs/meta/agreement.md": {"DATA": SHARED_DATA / "real"},
    "docs/meta/discriminative-power.md": {"DATA": SHARED_DATA / "real"},
    "docs/meta/robustness.md": {"DATA": SHARED_DATA / "real"},
    # R is set by the sensitivity block; the discriminative-power block below it uses it
    "docs/meta/reproducing-the-papers.md": {"R": "../shared/data/real/trec-robust-2003"},
}

#: block -> the blocks of its page it continues (names they define, files they write)
CONTINUES: Dict[str, List[str]] = {
    "docs/compare.md:61": ["docs/compare.md:36"],  # runs/ made by make_runs.py
    "docs/compare.md:102": ["docs/compare.md:36", "docs/compare.md:61"],  # runs/, $QRELS
    "docs/compare.md:144": ["docs/compare.md:36", "docs/compare.md:61"],  # runs/, $QRELS
    "docs/tar.md:61": ["docs/tar.md:39"],  # run
    "docs/tar.md:166": ["docs/tar.md:39", "docs/tar.md:61"],  # ir_measures, qrels
    "docs/pyterrier.md:140": ["docs/pyterrier.md:37"],  # pt, run, qrels, PRES
    "docs/uncertainty.md:388": ["docs/uncertainty.md:290"],  # qrels, run
    "docs/uncertainty.md:410": ["docs/uncertainty.md:188"],  # runs, ap, plot_intervals
}

#: the blocks that are not run, and why
SKIP: Dict[str, str] = {
    "README.md:24": "installs the test extra and runs the whole test suite, this file included",
    "README.md:198": "bm25 and monot5 stand for PyTerrier retrieval pipelines, which need Java (Terrier) "
    "and a T5 model from the network; docs/pyterrier.md runs the same pt.Experiment call on result frames",
    "docs/pyterrier.md:8": "installs the pyterrier extra (pip): no command of the package",
}
if not all(importlib.util.find_spec(m) for m in ("dask", "distributed", "pyarrow")):
    for _block in BLOCKS:  # docs/streaming.md's Dask recipe
        if _block.page == "docs/streaming.md" and "import dask" in _block.text:
            SKIP[_block.id] = "the Dask recipe needs the dask extra (pip install 'ir_measures_pres[dask]')"


def env_of(block: Block) -> Dict[str, Union[str, Path]]:
    """The entries of ENV (its page's, then its own) whose variables the block uses."""
    table = {**ENV.get(block.page, {}), **ENV.get(block.id, {})}
    return {name: value for name, value in table.items() if f"${name}" in block.text}


def files_of(block: Block) -> Dict[str, Union[Path, Maker]]:
    """The entries of FILES (its page's, then its own) whose names the block or the values of its
    variables write."""
    table = {**FILES.get(block.page, {}), **FILES.get(block.id, {})}
    text = "\n".join([block.text, *map(str, env_of(block).values())])
    return {name: source for name, source in table.items() if name in text}


def _shared_parts(value: object) -> Tuple[str, ...]:
    if isinstance(value, Path) and value.is_relative_to(SHARED_DATA):
        return value.relative_to(SHARED_DATA).parts[:2]
    return ()


def _marks(block: Block) -> list:
    if block.id in SKIP:
        return [pytest.mark.skip(reason=f"{block.id}: {SKIP[block.id]}")]
    blocks = [BY_ID[b] for b in CONTINUES.get(block.id, [])] + [block]
    values = [v for b in blocks for v in [*files_of(b).values(), *env_of(b).values()]]
    return [needs_shared(*parts) for parts in sorted({_shared_parts(v) for v in values} - {()})]


def _prepare(block: Block, tmp_path: Path) -> Tuple[Path, Dict[str, str]]:
    """The example's folder, with the files of FILES, and its environment."""
    work = tmp_path / "work"
    work.mkdir()
    for b in [BY_ID[c] for c in CONTINUES.get(block.id, [])] + [block]:
        for name, source in files_of(b).items():
            dest = Path(os.path.normpath(work / name))
            assert dest.is_relative_to(tmp_path), name
            if dest.exists() or dest.is_symlink():
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(source, Path):
                mirror(source, dest)
            else:
                source(dest)
    env = dict(os.environ)
    env.pop("IR_MEASURES_PRES_REQUIRE_SHARED", None)
    env.update(
        PYTHONPATH=os.pathsep.join([str(PACKAGE_ROOT), *filter(None, [env.get("PYTHONPATH")])]),
        MPLBACKEND="Agg",
        PYTHONUNBUFFERED="1",
        PYTHONIOENCODING="utf-8",
    )
    for b in [BY_ID[c] for c in CONTINUES.get(block.id, [])] + [block]:
        env.update({k: str(v) for k, v in env_of(b).items()})
    return work, env


# --------------------------------------------------------------------------------------------
# running
# --------------------------------------------------------------------------------------------

MARK = "\x1f"
_STATEMENT = re.compile(rf"\n?{MARK}(\d+){MARK}\n")
_STATUS = re.compile(rf"\n?{MARK}status (\d+){MARK}\n")
TIMEOUT = 600


def run_python(blocks: Sequence[Block], work: Path, env: Dict[str, str]) -> Tuple[Dict[int, str], str, str]:
    """Runs Python blocks in one interpreter, the last one shown: (output of each of its
    statements by page line, its whole output, standard error)."""
    segments = [
        {"page": b.page, "line": b.first_line, "code": b.text, "show": b is blocks[-1]} for b in blocks
    ]
    (work.parent / "segments.json").write_text(json.dumps(segments), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(RUNNER), str(work.parent / "segments.json")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{blocks[-1].id} failed (status {done.returncode}):\n{done.stderr}"
    parts = _STATEMENT.split(done.stdout)
    by_statement = {int(line): text for line, text in zip(parts[1::2], parts[2::2])}
    return by_statement, "".join(by_statement.values()), done.stderr


def run_commands(
    prefix: Sequence[str], block_commands: Sequence[str], work: Path, env: Dict[str, str]
) -> List[Tuple[int, str]]:
    """Runs command lines in one bash (so that assignments carry over), standard error merged
    into standard output: the (exit status, output) of each of ``block_commands``."""
    script = [
        f'python() {{ "{sys.executable}" "$@"; }}',
        'ir_measures_pres() { python -m ir_measures_pres "$@"; }',
        "set -o pipefail",
        *prefix,
    ]
    for command in block_commands:
        script += [
            f"printf '\\n{MARK}0{MARK}\\n'",
            f"{{ {command}\n}} 2>&1",
            f"printf '\\n{MARK}status %s{MARK}\\n' $?",
        ]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, f"bash failed (status {done.returncode}):\n{done.stderr}"
    chunks = _STATEMENT.split(done.stdout)[2::2]
    out = []
    for chunk in chunks:
        text, status, _ = _STATUS.split(chunk)
        out.append((int(status), text))
    assert len(out) == len(block_commands), done.stdout
    return out


# --------------------------------------------------------------------------------------------
# comparing
# --------------------------------------------------------------------------------------------


def _line_matches(want: str, got: str) -> bool:
    want_numbers, got_numbers = numbers(want), numbers(got)
    return (
        shape(want) == shape(got)
        and len(want_numbers) == len(got_numbers)
        and all(matches(w, g) for w, g in zip(want_numbers, got_numbers))
    )


def check_lines(where: str, shown: Sequence[str], printed: str) -> None:
    """Every shown line (but ``...``) is printed, in the shown order."""
    lines = [line for line in printed.splitlines() if line.strip()]
    i = 0
    for want in shown:
        if not want.strip() or want.strip() == "...":
            continue
        while i < len(lines) and not _line_matches(want, lines[i]):
            i += 1
        assert i < len(lines), f"{where} shows {want!r}, not printed (in this order):\n{printed}"
        i += 1


def _prints(label: str, line: str) -> bool:
    return re.search(rf"(?<![\w@.]){re.escape(label)}(?![\w@])", line) is not None


def check_table(where: str, table: Table, printed: str) -> None:
    """Every row of a table after an example agrees with the output (see the module docstring)."""
    lines = printed.splitlines()
    everything = numbers(printed)
    for row in table.rows:
        if not row.numbers:
            continue
        at = f"{where}, table row at line {row.line}"
        if not row.labels:
            assert any(find_in_order(row.numbers, numbers(line)) is None for line in lines), (
                f"{at}: no printed line holds {[str(n) for n in row.numbers]} in order:\n{printed}"
            )
            continue
        carrying = [line for line in lines if numbers(line) and all(_prints(x, line) for x in row.labels)]
        if carrying:
            wrong = find_in_order(row.numbers, [n for line in carrying for n in numbers(line)])
            assert wrong is None, (
                f"{at}: {row.labels} {[str(n) for n in row.numbers]}: {wrong} is not printed, "
                "in this order, on the lines that name them:\n" + "\n".join(carrying)
            )
        else:
            missing: List[Num] = missing_anywhere(row.numbers, everything)
            assert not missing, f"{at}: {[str(n) for n in missing]} printed nowhere:\n{printed}"


def check_comments(block: Block, by_statement: Dict[int, str]) -> None:
    for statement, comments in expected_comments(block).items():
        printed = by_statement.get(statement, "")
        for line, comment in comments:
            missing = missing_anywhere(numbers(comment), numbers(printed))
            assert not missing, (
                f"{block.page}:{line}: {[str(n) for n in missing]} of {comment!r} not in what the "
                f"statement at line {statement} prints:\n{printed}"
            )


# --------------------------------------------------------------------------------------------
# the tests
# --------------------------------------------------------------------------------------------

EXAMPLES = [pytest.param(b, id=b.id, marks=_marks(b)) for b in BLOCKS if b.label in RUNNABLE]


def _python_example(block: Block, before: Sequence[Block], work: Path, env: Dict[str, str]) -> str:
    """Runs a Python example after the blocks it continues and checks its comments: its output."""
    for b in before:
        if b.label != "python":
            run_commands([c.text for c in commands(b)], [], work, env)
    by_statement, printed, errors = run_python(
        [*(b for b in before if b.label == "python"), block], work, env
    )
    check_comments(block, by_statement)
    return printed + errors


def _command_example(block: Block, before: Sequence[Block], work: Path, env: Dict[str, str]) -> str:
    """Runs a command block after the blocks it continues and checks each command's exit status
    and console lines: the output of its commands."""
    for b in before:
        if b.label == "python":
            run_python([b], work, env)
    cmds = commands(block)
    shell_before = [c.text for b in before if b.label != "python" for c in commands(b)]
    results = run_commands(shell_before, [c.text for c in cmds], work, env)
    for command, (status, output) in zip(cmds, results):
        where = f"{block.page}:{command.line}"
        if any("ir_measures_pres: error:" in line for line in command.expected):
            assert status != 0, f"{where}: the page shows an error, the command exited 0:\n{output}"
        else:
            assert status == 0, f"{where}: exit status {status}:\n{output}"
        check_lines(where, command.expected, output)
    return "".join(output for _, output in results)


@pytest.mark.parametrize("block", EXAMPLES)
def test_example(block: Block, tmp_path: Path) -> None:
    """The example runs (exit status 0, or an error where its page shows one) and prints every
    number its page shows for it: its comments, console lines, ```text blocks and tables."""
    work, env = _prepare(block, tmp_path)
    before = [BY_ID[c] for c in CONTINUES.get(block.id, [])]
    run = _python_example if block.label == "python" else _command_example
    printed = run(block, before, work, env)
    for line, text in block.outputs:
        check_lines(f"{block.page}:{line}", text.splitlines(), printed)
    for table in block.tables:
        check_table(f"{block.page}:{table.line}", table, printed)


#: an unlabelled fence that looks like an example: a ``$ `` prompt, or the command without the
#: upper-case placeholders of a synopsis (``ir_measures_pres tar QRELS RUN ...``)
_LOOKS_RUNNABLE = re.compile(r"^(\$ |ir_measures_pres (?!.*\b[A-Z]{3,}\b))")


# --------------------------------------------------------------------------------------------
# command lines shown outside the examples (prose, unlabelled fences)
# --------------------------------------------------------------------------------------------

#: the files a shown command line names (the placeholders QRELS and RUN, and docs/cli.md's
#: short names), made in its folder: the sample collection and trec_eval's -q outputs of it
SHOWN_FILES: Dict[str, Union[Path, Maker]] = {
    "QRELS": SAMPLE / "qrels.test",
    "RUN": SAMPLE / "results.test",
    "qrels": SAMPLE / "qrels.test",
    "run": SAMPLE / "results.test",
    "run.gz": gzipped(SAMPLE / "results.test"),
    "qrels.txt": SAMPLE / "qrels.test",
    "run.txt": SAMPLE / "results.test",
    "bm25.eval": TREC_EVAL / "out.test.aq",
    "dense.eval": TREC_EVAL / "out.test.aqc",
}

#: shown command lines that are not run (``page:line``), and why
SHOWN_NOT_RUN: Dict[str, str] = {
    "docs/cli.md:28": "an ir_datasets id: ir_datasets downloads its qrels, and the tests use no network",
    "docs/compare.md:277": "an ir_datasets id: ir_datasets downloads its qrels, and the tests use no network",
}

SHOWN = [s for page in PAGES for s in shown_commands(REPO / page, page)]
SHOWN_RUN = [s for s in SHOWN if not is_synopsis(s.text)]


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(
            s,
            id=s.id,
            marks=[pytest.mark.skip(reason=SHOWN_NOT_RUN[f"{s.page}:{s.line}"])]
            if f"{s.page}:{s.line}" in SHOWN_NOT_RUN
            else [],
        )
        for s in SHOWN_RUN
    ],
)
def test_shown_command(shown: Shown, tmp_path: Path) -> None:
    """A command line the prose or an unlabelled fence shows, not a synopsis (tests/_docs.py
    ``is_synopsis``), runs with exit status 0 on the files its names stand for (SHOWN_FILES)."""
    work = tmp_path / "work"
    work.mkdir()
    for name, source in SHOWN_FILES.items():
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", shown.text):
            if isinstance(source, Path):
                mirror(source, work / name)
            else:
                source(work / name)
    env = dict(os.environ)
    env.update(PYTHONPATH=os.pathsep.join([str(PACKAGE_ROOT), *filter(None, [env.get("PYTHONPATH")])]))
    ((status, output),) = run_commands([], [shown.text], work, env)
    assert status == 0, f"{shown.page}:{shown.line}: {shown.text!r} exited {status}:\n{output}"


def test_shown_commands_are_read() -> None:
    """Every page's shown command lines are found (the table of docs/cli.md's trec_eval
    equivalents among them), and SHOWN_NOT_RUN names lines that are shown and would run."""
    assert any(s.page == "docs/cli.md" and "P.5,10,20" in s.text for s in SHOWN_RUN)
    runnable = {f"{s.page}:{s.line}" for s in SHOWN_RUN}
    assert set(SHOWN_NOT_RUN) <= runnable and all(SHOWN_NOT_RUN.values())


def test_every_fence_is_read() -> None:
    """Every fence of the pages has a label the test reads (an example in ```shell would
    otherwise go untested), no unlabelled fence looks like an example, every ```text block
    follows an example, and every command block holds commands the test can run."""
    assert [b.id for b in BLOCKS if b.label not in KNOWN_LABELS] == []
    assert [b.id for b in BLOCKS if b.label == "" and _LOOKS_RUNNABLE.match(b.text)] == []
    shown = {line for b in BLOCKS for line, _ in b.outputs}
    assert [b.id for b in BLOCKS if b.label == "text" and b.line not in shown] == []
    for block in BLOCKS:
        if block.label in RUNNABLE and block.label != "python" and block.id not in SKIP:
            assert commands(block), block.id


def test_tables_name_blocks_that_exist() -> None:
    """FILES, ENV, CONTINUES and SKIP name pages and runnable blocks that exist (their line
    numbers move when a page changes); every skip says why; a block continues earlier ones."""
    runnable = {b.id for b in BLOCKS if b.label in RUNNABLE}
    for key in [*FILES, *ENV]:
        assert key in PAGES or key in runnable, key
    for key, before in CONTINUES.items():
        assert key in runnable and all(b in runnable and BY_ID[b].page == BY_ID[key].page for b in before), (
            key
        )
        assert all(BY_ID[b].line < BY_ID[key].line for b in before), key
    assert all(key in runnable and reason for key, reason in SKIP.items())
    assert len(SKIP) <= 5


@pytest.mark.parametrize(
    "doc,printed,expected",
    [
        ("0.7774", "0.77742", True),
        ("0.7774", "0.77736", True),
        ("0.7774", "0.7776", False),
        ("0.99", "0.9900000001", True),
        ("0.5632...", "0.56329", True),
        ("0.5632...", "0.56316", True),
        ("0.5632...", "0.5634", False),
        ("115", "117", False),
        ("3", "3.0", True),
        ("62.5 %", "0.6250", True),
        ("0.6%", "0.0056", True),
        ("0.831", "0.8305", True),
        ("-0.0164", "-0.0165", False),
        ("0.9445", "0.9444444444444444", False),
        ("0.9444", "0.94", True),
        ("0.9494", "0.94", False),
        ("0.898", "1", False),
        ("1.0", "1", True),
    ],
)
def test_numbers_match_at_the_pages_precision(doc: str, printed: str, expected: bool) -> None:
    """The comparison of the module docstring on its own examples."""
    (want,), (got,) = numbers(doc), numbers(printed)
    assert matches(want, got) is expected


def test_numbers_inside_names_are_not_numbers() -> None:
    """``P@10``, ``N1000``, ``v8.1`` hold no number; a percentage's sd is in percentage points."""
    found = numbers("P@10 nDCG@10 N1000 v8.1 -0.1572 75.8% ± 0.1")
    assert [n.text for n in found] == ["-0.1572", "75.8%", "0.1"]
    assert [n.value for n in found[1:]] == [Decimal("0.758"), Decimal("0.001")]
