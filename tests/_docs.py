"""Test-only reading of the examples of README.md and docs/**/*.md (tests/test_docs_examples.py).

The fenced blocks of a Markdown page, the expected outputs that follow a runnable block, the
numbers of a text at the precision it writes them, and the comparisons between what a page shows
and what its example prints. The convention these functions read is written once, in the
docstring of tests/test_docs_examples.py.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

#: the fence labels of a runnable block
RUNNABLE = ("python", "bash", "sh", "console")
#: every label a page may give a fence: the runnable ones, ``text`` (an expected output) and none
KNOWN_LABELS = (*RUNNABLE, "text", "")

_FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")
_HEADING = re.compile(r"^#{1,6} ")
_TABLE_RULE = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")

#: a number as the docs and the outputs write it: not inside a name (``P@10``, ``N1000``,
#: ``v8.1``); ``...`` right after it marks a truncated number, ``%`` a percentage
NUMBER = re.compile(
    r"(?<![\w@.\-])(?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?P<trunc>\.\.\.)?(?P<pct>\s?%)?(?![\w@])"
)
#: the sd of a percentage, ``75.8% ± 0.1``, is in percentage points too
_PCT_SD = re.compile(r"%\s*±\s*$")
#: a comment that shows a value starts as a printed value does: a bracket, a quote, a number or
#: ``Name(`` (``# {PRES@100: 0.99, ...}``, ``# Metric(query_id='q1', ...)``), not with prose
_SHOWS_VALUE = re.compile(r"^#\s*([{\[(\'\"]|-?\d|[A-Za-z_]\w*\()")
#: what a numeric table cell may hold besides its numbers: ``0.72 ± 0.10``, ``1 (0.8 %)``
_NUMERIC_REST = re.compile(r"^[\s±()%,*]*$")


# --------------------------------------------------------------------------------------------
# numbers
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    """A number as written: its value (a percentage as a fraction), its decimal places (of that
    fraction), whether it was written as an integer and whether ``...`` truncates it."""

    text: str
    value: Decimal
    places: int
    integer: bool
    truncated: bool

    def __str__(self) -> str:
        return self.text


def numbers(text: str) -> List[Num]:
    """The numbers of a text, in order (see :data:`NUMBER`)."""
    out = []
    for m in NUMBER.finditer(text):
        value = Decimal(m["num"])
        percent = m["pct"] is not None or bool(_PCT_SD.search(text[max(0, m.start() - 8) : m.start()]))
        if percent:
            value = value.scaleb(-2)
        exponent = value.as_tuple().exponent
        places = max(0, -exponent) if isinstance(exponent, int) else 0
        integer = not percent and "." not in m["num"] and "e" not in m["num"].lower()
        out.append(Num(m.group(0).strip(), value, places, integer, m["trunc"] is not None))
    return out


def shape(line: str) -> str:
    """A line with every number replaced by ``#`` and blanks collapsed: what must be equal."""
    return " ".join(NUMBER.sub("#", line).split())


def matches(doc: Num, out: Num) -> bool:
    """Whether the printed number ``out`` is the page's number ``doc`` at the page's precision.

    An integer must be equal (counts), and so must a number printed with the page's places. A
    number printed with more places must round to the page's (0.7774 matches 0.77742 and
    0.77736, not 0.7776; half a unit of the printed last place is allowed, as the printed number
    is rounded itself), or, written with ``...`` after it (``0.5632...``), round or be cut there.
    A number printed with fewer places must be within its rounding of the page's, unless it is
    printed as an integer (a count, not a rounded value: then equal).
    """
    if doc.integer or out.integer or out.places == doc.places:
        return out.value == doc.value
    unit, out_unit = Decimal(1).scaleb(-doc.places), Decimal(1).scaleb(-out.places)
    if out.places < doc.places:
        return abs(out.value - doc.value) <= out_unit / 2
    if doc.truncated and out.value.quantize(unit, rounding=ROUND_DOWN) == doc.value:
        return True
    return abs(out.value - doc.value) <= (unit + out_unit) / 2


def find_in_order(doc: Sequence[Num], out: Sequence[Num]) -> Optional[Num]:
    """The first number of ``doc`` that ``out`` does not hold in the same order, or None."""
    i = 0
    for wanted in doc:
        while i < len(out) and not matches(wanted, out[i]):
            i += 1
        if i == len(out):
            return wanted
        i += 1
    return None


def missing_anywhere(doc: Sequence[Num], out: Sequence[Num]) -> List[Num]:
    """The numbers of ``doc`` that match no number of ``out``."""
    return [wanted for wanted in doc if not any(matches(wanted, got) for got in out)]


# --------------------------------------------------------------------------------------------
# pages: blocks, and what follows them
# --------------------------------------------------------------------------------------------


@dataclass
class Row:
    """A row of a Markdown table: its text cells (labels) and its numbers."""

    line: int
    labels: List[str]
    numbers: List[Num]


@dataclass
class Table:
    """A Markdown table: the page line of its header, its rows."""

    line: int
    rows: List[Row]


@dataclass
class Block:
    """A fenced block: ``page:line`` (its opening fence) names it."""

    page: str
    line: int
    label: str
    text: str
    #: ```text blocks right after it (line, text)
    outputs: List[Tuple[int, str]] = field(default_factory=list)
    #: Markdown tables in the prose right after it
    tables: List[Table] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def first_line(self) -> int:
        """The page line of the block's first line of code."""
        return self.line + 1


def _cell(text: str) -> str:
    return text.strip().replace("**", "").replace("`", "").strip()


def _table(lines: Sequence[Tuple[int, str]]) -> Table:
    """A Markdown table; a column whose header says ``(paper)`` quotes a paper and is left out."""
    header = [_cell(c) for c in lines[0][1].strip().strip("|").split("|")]
    quoted = {i for i, name in enumerate(header) if "(paper)" in name}
    rows = []
    for line_no, line in lines[1:]:
        if _TABLE_RULE.match(line):
            continue
        labels, nums = [], []
        for i, raw in enumerate(line.strip().strip("|").split("|")):
            cell = _cell(raw)
            if not cell or i in quoted:
                continue
            found = numbers(cell)
            if found and _NUMERIC_REST.match(NUMBER.sub("", cell)):
                nums.extend(found)
            else:
                labels.append(cell)
        rows.append(Row(line_no, labels, nums))
    return Table(lines[0][0], rows)


def read_page(path: Path, name: str) -> List[Block]:
    """Every fenced block of a page, with the ```text blocks and tables after each runnable one.

    What follows a runnable block runs to the next heading or the next fence that is not
    ```text.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: List[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{name}:{i + 1}: fence not closed")
        blocks.append(Block(name, i + 1, m[1], "\n".join(lines[i + 1 : end]) + "\n"))
        i = end + 1
    for block in blocks:
        if block.label in RUNNABLE:
            _attach(block, lines, blocks)
    return blocks


def _attach(block: Block, lines: Sequence[str], blocks: Sequence[Block]) -> None:
    by_line = {b.line: b for b in blocks}
    i = block.line  # 0-based index of the line after the opening fence
    while lines[i].strip() != "```":
        i += 1
    i += 1
    table: List[Tuple[int, str]] = []
    while i < len(lines):
        line = lines[i]
        if line.startswith("|"):
            table.append((i + 1, line))
            i += 1
            continue
        if table:
            block.tables.append(_table(table))
            table = []
        if _HEADING.match(line):
            break
        if _FENCE.match(line):
            following = by_line[i + 1]
            if following.label != "text":
                break
            block.outputs.append((following.line, following.text))
            i += following.text.count("\n") + 2
            continue
        i += 1
    if table:
        block.tables.append(_table(table))


# --------------------------------------------------------------------------------------------
# command blocks
# --------------------------------------------------------------------------------------------


@dataclass
class Command:
    """A command line of a bash/sh/console block, and for console blocks the lines it prints."""

    line: int
    text: str
    expected: List[str] = field(default_factory=list)


#: a command the test runs: the package's command, the package run as a module, an assignment
_COMMAND = re.compile(r"^(ir_measures_pres(\s|$)|python -m ir_measures_pres[\w.]*(\s|$)|[A-Za-z_]\w*=)")
#: ``pip install ... &&`` in front of a command: the installation, not run
_INSTALL = re.compile(r"^pip install [^&]*&&\s*")


def _logical_lines(lines: Sequence[Tuple[int, str]]) -> Iterator[Tuple[int, str]]:
    """Lines joined where one ends with a backslash, with the page line of the first."""
    start, parts = 0, []
    for line_no, line in lines:
        if not parts:
            start = line_no
        parts.append(line)
        if not line.endswith("\\"):
            yield start, "\n".join(parts)
            parts = []
    if parts:
        yield start, "\n".join(parts)


def commands(block: Block) -> List[Command]:
    """The command lines of a bash, sh or console block (a console block: the ``$ `` lines, the
    lines up to the next ``$ `` being what the command prints). Raises ValueError on a line that
    is not a command the test knows how to run."""
    numbered = [(block.first_line + k, line) for k, line in enumerate(block.text.splitlines())]
    out: List[Command] = []
    if block.label == "console":
        prompt: List[Tuple[int, str]] = []
        for line_no, line in numbered:
            if line.startswith("$ ") or (prompt and prompt[-1][1].endswith("\\")):
                prompt.append((line_no, line[2:] if line.startswith("$ ") else line))
                if not line.endswith("\\"):
                    ((start, text),) = _logical_lines(prompt)
                    out.append(Command(start, text))
                    prompt = []
            elif out:
                out[-1].expected.append(line)
            elif line.strip():
                raise ValueError(f"{block.page}:{line_no}: console output before any $ command")
    else:
        for line_no, text in _logical_lines(numbered):
            if text.strip() and not text.lstrip().startswith("#"):
                out.append(Command(line_no, _INSTALL.sub("", text.strip())))
    for command in out:
        if not _COMMAND.match(command.text):
            raise ValueError(f"{block.page}:{command.line}: not a command of the package: {command.text!r}")
    return out


# --------------------------------------------------------------------------------------------
# command lines outside the examples: in the prose (`...`) and in unlabelled fences
# --------------------------------------------------------------------------------------------


@dataclass
class Shown:
    """A command line a page shows outside its examples: a code span of the prose, or a line of
    an unlabelled fence (a synopsis, or a command written with placeholder file names)."""

    page: str
    line: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}:{self.text}"


#: a code span holding the command (after a pipe too: ``zcat run.gz | ir_measures_pres ...``)
_SPAN = re.compile(r"`((?:[^`|]*\|\s*)?(?:python -m )?ir_measures_pres[\w.]*\s[^`]*)`")
#: an unlabelled fence's line that is the command (``ir_measures_pres: error: ...`` is output)
_FENCED = re.compile(r"^\s*(?:python -m )?ir_measures_pres[\w.]*\s")
#: what makes a shown command a synopsis: optional parts (``[-q]``, ``{a,b}``, ``...``, ``a|b``)
#: and placeholders other than files' (``QRELS``, ``RUN`` and ``PRELS`` are files the test makes)
SYNOPSIS_WORDS = ("MEASURE", "MEASURES", "RUN_OR_DIR", "RUN_A", "RUN_B", "LEVEL", "FILE", "DIR")
_SYNOPSIS = re.compile(r"\[|\{|\.\.\.|\w\|\w|\b(" + "|".join(SYNOPSIS_WORDS) + r")\b")


def shown_commands(path: Path, name: str) -> List[Shown]:
    """Every command line of a page outside its runnable blocks: the code spans of its prose and
    the command lines of its unlabelled fences (a table's ``\\|`` read as ``|``)."""
    out: List[Shown] = []
    fence: Optional[str] = None
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = _FENCE.match(line)
        if m:
            fence = None if fence is not None else m[1]
            continue
        if fence is None:
            out += [Shown(name, line_no, span.replace("\\|", "|")) for span in _SPAN.findall(line)]
        elif fence == "" and _FENCED.match(line):
            out.append(Shown(name, line_no, line.split("  #")[0].strip()))
    return out


def is_synopsis(text: str) -> bool:
    """Whether a shown command line is a synopsis (optional parts, placeholders other than files'),
    or only names a command (``ir_measures_pres curves``): not a command to run."""
    words = text.split()
    return bool(_SYNOPSIS.search(text)) or len(words) <= 2 + (words[0] == "python")


# --------------------------------------------------------------------------------------------
# Python blocks: the comments that hold expected values
# --------------------------------------------------------------------------------------------


def expected_comments(block: Block) -> Dict[int, List[Tuple[int, str]]]:
    """Comments that show a value (:data:`_SHOWS_VALUE`), by the page line of the top-level
    statement they belong to: the statement on the comment's line, or for a comment on lines of
    its own, the statement that ends on the line just above them."""
    body = ast.parse(block.text).body
    at_line = {}
    for stmt in body:
        for k in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
            at_line[k] = stmt.lineno
    ends = {(stmt.end_lineno or stmt.lineno): stmt.lineno for stmt in body}
    source = block.text.splitlines()
    own_line_owner: Dict[int, int] = {}
    out: Dict[int, List[Tuple[int, str]]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(block.text).readline):
        if tok.type != tokenize.COMMENT:
            continue
        row = tok.start[0]
        if source[row - 1][: tok.start[1]].strip():
            owner: Optional[int] = at_line.get(row)
        else:
            owner = own_line_owner.get(row - 1, ends.get(row - 1))
            if owner is not None:
                own_line_owner[row] = owner
        if owner is not None and _SHOWS_VALUE.match(tok.string) and numbers(tok.string):
            out.setdefault(owner + block.line, []).append((row + block.line, tok.string))
    return out
