"""The strict TREC readers of ``ir_measures_pres.data.readers``.

Every expected value comes from outside the readers: a slow, line-by-line reference parser
written below straight from the format (trec_eval's ``get_trec_results.c`` / ``get_qrels.c``
rules plus this package's strictness), ir_measures' own readers on files they can read, and
Python's ``float``/``int`` for numbers. Every malformed-input case asserts the exact message.
"""

from __future__ import annotations

import gzip
import io
import math
import warnings
from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pytest
from conftest import DATA, shared_data
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ir_measures_pres.data.blocks as trec_io
import ir_measures_pres.data.duplicates as duplicates
from ir_measures_pres import InputError
from ir_measures_pres.data.inputs import Columns
from ir_measures_pres.data.qrels import Qrels
from ir_measures_pres.data.ranking import rank_run
from ir_measures_pres.data.readers import TrecFormatError, TrecFormatWarning, ids_as_str, read_qrels, read_run

TE = DATA / "trec_eval_test"

# --------------------------------------------------------------------------------------------
# the reference: one line at a time, as the format says
# --------------------------------------------------------------------------------------------


def reference(data: bytes, run: bool) -> List[Tuple[str, str, float]]:
    """Entries in file order after 'last line wins' (trec_eval's whitespace, '#' comments)."""
    entries: Dict[Tuple[str, str], Tuple[int, float]] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        tokens = raw.split()  # bytes.split: C isspace, as trec_eval
        if not tokens or tokens[0].startswith(b"#"):
            continue
        if run:
            assert len(tokens) >= 6, number
            value: float = float(tokens[4])
        else:
            assert len(tokens) == 4, number
            value = int(tokens[3])
        key = (tokens[0].decode("utf-8", "surrogateescape"), tokens[2].decode("utf-8", "surrogateescape"))
        entries.pop(key, None)  # the last line wins and takes the last line's place
        entries[key] = (number, value)
    ordered = sorted(entries.items(), key=lambda kv: kv[1][0])
    return [(q, d, v) for (q, d), (_, v) in ordered]


def as_list(cols: Columns) -> List[Tuple[str, str, float]]:
    assert cols.query_ids.dtype == object and cols.doc_ids.dtype == object
    assert all(type(x) is str for x in cols.query_ids.tolist() + cols.doc_ids.tolist())
    return list(zip(cols.query_ids.tolist(), cols.doc_ids.tolist(), cols.values.tolist()))


def read_bytes(data: bytes, run: bool = True) -> Columns:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrecFormatWarning)
        return (read_run if run else read_qrels)(io.BytesIO(data))


def message(data: bytes, run: bool = True, name: str = "x.txt", tmp_path: Path = None) -> str:
    """The exact error message for a file holding ``data``."""
    stream = io.BytesIO(data)
    stream.name = name  # type: ignore[attr-defined]
    with pytest.raises(TrecFormatError) as info:
        (read_run if run else read_qrels)(stream)
    assert isinstance(info.value, InputError)
    return str(info.value)


# --------------------------------------------------------------------------------------------
# the sample collections of trec_eval
# --------------------------------------------------------------------------------------------


def test_sample_run_equals_ir_measures_reader() -> None:
    cols = read_run(TE / "results.test")
    assert cols.values.dtype == np.float64
    expected = [(r.query_id, r.doc_id, r.score) for r in ir_measures.read_trec_run(str(TE / "results.test"))]
    assert as_list(cols) == expected
    assert len(cols) == 1500


def test_sample_qrels_equal_ir_measures_reader() -> None:
    cols = read_qrels(TE / "qrels.test")
    assert cols.values.dtype == np.int64
    expected = [
        (q.query_id, q.doc_id, q.relevance) for q in ir_measures.read_trec_qrels(str(TE / "qrels.test"))
    ]
    assert as_list(cols) == expected


def test_comment_lines_are_skipped_and_hash_inside_a_docno_is_kept() -> None:
    data = (TE / "qrels.test.with-comments").read_bytes()
    cols = read_qrels(TE / "qrels.test.with-comments")
    assert as_list(cols) == reference(data, run=False)
    assert "CR#93E-1860" in cols.doc_ids.tolist()
    assert len(cols) == 3681  # 3684 lines, 3 of them comments


def test_run_with_hash_in_docnos() -> None:
    data = (TE / "results.comment.test").read_bytes()
    assert as_list(read_run(TE / "results.comment.test")) == reference(data, run=True)


def test_text_after_the_sixth_column_belongs_to_the_tag() -> None:
    # trec_eval's own results.trunc has lines such as '... STANDARD more junk at'
    data = (TE / "results.trunc").read_bytes()
    assert any(len(line.split()) > 6 for line in data.splitlines())
    assert as_list(read_run(TE / "results.trunc")) == reference(data, run=True)


# --------------------------------------------------------------------------------------------
# layouts that must be read the same
# --------------------------------------------------------------------------------------------

PLAIN = b"q1 Q0 d1 1 3.5 t\nq1 Q0 d2 2 2.25 t\nq2 Q0 d1 1 -1 t\n"
EXPECTED = [("q1", "d1", 3.5), ("q1", "d2", 2.25), ("q2", "d1", -1.0)]


@pytest.mark.parametrize(
    "data",
    [
        PLAIN,
        PLAIN.replace(b" ", b"\t"),  # tabs
        PLAIN.replace(b"\n", b"\r\n"),  # CRLF
        PLAIN.rstrip(b"\n"),  # no final newline
        PLAIN.replace(b"\n", b"\r\n").rstrip(b"\r\n"),
        b"\n# a comment\n   \n" + PLAIN.replace(b"\n", b"\n\n", 1) + b"  # indented comment\n\n",
        b"  " + PLAIN.replace(b" ", b"  \t "),  # leading and repeated blanks
        PLAIN.replace(b"Q0", b"AFS"),  # column 2 is not Q0
        PLAIN.replace(b" t\n", b" tag with  spaces\n"),  # anything after the 6th column
        b"q1 Q0 d1 0 3.5 t\nq1 Q0 d2 0 2.25 t\nq2 Q0 d1 0 -1 t\n",  # ranks from 0, all equal
    ],
)
def test_layouts(data: bytes) -> None:
    assert as_list(read_bytes(data)) == EXPECTED


def test_qrels_layouts() -> None:
    data = b"# judged\n1 0 a 2\r\n1\t0\tb\t-1\r\n\n2 0 a +0\n   2 0 c 1   "
    expected = [("1", "a", 2), ("1", "b", -1), ("2", "a", 0), ("2", "c", 1)]
    assert as_list(read_bytes(data, run=False)) == expected


@pytest.mark.parametrize(
    "token",
    [
        b"0",
        b"-0",
        b"7",
        b"0.1",
        b"-0.1",
        b".5",
        b"5.",
        b"+3",
        b"1e-05",
        b"1E+300",
        b"-2.5e-3",
        b"49.19109429178723",
        b"0.30000000000000004",
        b"123456789012345",
        b"1234567890123456789",
        b"0.000000000000000000001",
        b"626487.645259",
        b"-2.97316",
        b"1" * 70,
        # the exact path's edges: mantissas just below and at 2**53, 22 and 23 digits after the point
        b"9007199254740991",
        b"9007199254740992",
        b"9007199254740993",
        b"900719925474099.3",
        b"-0.9007199254740993",
        b"9.007199254740991",
        b"12345678901234567",
        b"0.0000000000000000000001",
        b"0.00000000000000000000001",
        b"1.0000000000000000000000",
    ],
)
def test_scores_parse_as_python_float(token: bytes) -> None:
    cols = read_bytes(b"q Q0 d 1 " + token + b" t\n")
    assert cols.values[0] == float(token)
    assert math.copysign(1.0, cols.values[0]) == math.copysign(1.0, float(token))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=30),
    st.sampled_from(["repr", ".4f", ".17g", ".16g", ".1f", ".15f", ".22f", "e"]),
)
def test_scores_are_exactly_float_of_the_token(values: List[float], spec: str) -> None:
    tokens = [repr(v) if spec == "repr" else format(v, spec) for v in values]
    # rounding to fewer digits can carry past the largest double ('1.797693134862316e+308' is
    # inf for float()): such a score is refused as not finite (test_malformed_run: 1e999), not read
    assume(all(math.isfinite(float(t)) for t in tokens))
    data = "".join(f"q Q0 d{i} {i} {t} run\n" for i, t in enumerate(tokens)).encode()
    assert read_bytes(data).values.tolist() == [float(t) for t in tokens]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=-(2**31), max_value=2**31 - 1), min_size=1, max_size=20))
def test_relevance_is_exactly_int_of_the_token(values: List[int]) -> None:
    data = "".join(f"q 0 d{i} {v}\n" for i, v in enumerate(values)).encode()
    assert read_bytes(data, run=False).values.tolist() == values


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(min_value=-(2**31), max_value=2**31 - 1), max_size=5),
    st.one_of(
        st.integers(min_value=2**31, max_value=2**70), st.integers(min_value=-(2**70), max_value=-(2**31) - 1)
    ),
)
def test_relevance_beyond_c_int_is_an_error_naming_its_line(values: List[int], outside: int) -> None:
    # trec_eval and pytrec_eval hold relevance in a C int: 4294967296 would wrap to 0 there
    data = "".join(f"q 0 d{i} {v}\n" for i, v in enumerate([*values, outside])).encode()
    with pytest.raises(TrecFormatError) as info:
        read_bytes(data, run=False)
    assert info.value.line == len(values) + 1
    assert str(outside) in info.value.found


def test_ids_keep_their_text() -> None:
    long_doc = "x" * 200
    data = f"q1 Q0 dé 1 1 t\nq1 Q0 {long_doc} 2 0.5 t\nq\u00e91 Q0 d\u00a0x 1 2 t\n".encode()
    expected = [("q1", "dé", 1.0), ("q1", long_doc, 0.5), ("q\u00e91", "d\u00a0x", 2.0)]
    assert as_list(read_bytes(data)) == expected
    # bytes that are not UTF-8 stay distinct ids
    cols = read_bytes(b"q Q0 d\xff 1 1 t\nq Q0 d\xfe 2 0.5 t\n")
    assert len(set(cols.doc_ids.tolist())) == 2


def test_control_characters_other_than_whitespace_stay_in_ids() -> None:
    # trec_eval splits on isspace() only: \x1c..\x1f and \x01 belong to the token
    data = b"q Q0 a\x1fb 1 1 t\nq Q0 a\x01b 2 0.5 t\n"
    assert as_list(read_bytes(data)) == [("q", "a\x1fb", 1.0), ("q", "a\x01b", 0.5)]


def test_vertical_tab_and_form_feed_separate_columns() -> None:
    assert as_list(read_bytes(b"q\x0bQ0\x0cd 1 1 t\n")) == [("q", "d", 1.0)]


# --------------------------------------------------------------------------------------------
# sources: paths, gzip, stdin, file objects
# --------------------------------------------------------------------------------------------


def test_gzip_is_recognised_by_content(tmp_path: Path) -> None:
    data = (TE / "results.test").read_bytes()
    for name in ("run.gz", "run.txt"):  # the magic bytes decide, not the name
        path = tmp_path / name
        path.write_bytes(gzip.compress(data))
        assert as_list(read_run(path)) == as_list(read_run(TE / "results.test"))
        assert as_list(read_run(str(path))) == as_list(read_run(TE / "results.test"))


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BufferedReader(io.BytesIO(PLAIN)))
    monkeypatch.setattr("sys.stdin", fake)
    assert as_list(read_run("-")) == EXPECTED


def test_missing_file() -> None:
    with pytest.raises(FileNotFoundError):
        read_run(TE / "no-such-file")


def test_not_a_gzip_stream(tmp_path: Path) -> None:
    path = tmp_path / "broken.gz"
    path.write_bytes(gzip.compress(PLAIN)[:20])
    with pytest.raises(TrecFormatError, match=r"broken\.gz: expected a readable run file, found EOFError"):
        read_run(path)


# --------------------------------------------------------------------------------------------
# malformed input: the exact messages
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, expected",
    [
        (
            b"q Q0 d1 1 2.0 t\nq Q0 d2 2 1.0\n",
            "x.txt:2: expected at least 6 columns (qid iter docno rank score tag), found 5: 'q Q0 d2 2 1.0'",
        ),
        (
            b"# header\n\nq Q0 d1 1\r\n",
            "x.txt:3: expected at least 6 columns (qid iter docno rank score tag), found 4: 'q Q0 d1 1'",
        ),
        (b"q Q0 d1 1 abc t\n", "x.txt:1: expected a number in column 5 (score), found 'abc'"),
        (b"q Q0 d1 1 2,5 t\n", "x.txt:1: expected a number in column 5 (score), found '2,5'"),
        (b"q Q0 d1 1 1_000 t\n", "x.txt:1: expected a number in column 5 (score), found '1_000'"),
        (b"q Q0 d1 1 0x10 t\n", "x.txt:1: expected a number in column 5 (score), found '0x10'"),
        (
            b"q Q0 d1 1 1 t\nq Q0 d2 2 NaN t\n",
            "x.txt:2: expected a finite number in column 5 (score), found 'NaN'",
        ),
        (b"q Q0 d1 1 inf t\n", "x.txt:1: expected a finite number in column 5 (score), found 'inf'"),
        (
            b"q Q0 d1 1 -Infinity t\n",
            "x.txt:1: expected a finite number in column 5 (score), found '-Infinity'",
        ),
        (
            b"q Q0 d1 1 1e999 t\n",
            "x.txt:1: expected a finite number in column 5 (score), found '1e999'",
        ),
        (b"q Q0 d1 1 1 t\nq Q0 d\x002 2 1 t\n", "x.txt:2: expected text, found a NUL byte"),
        (
            b"q Q0 d1 1 1 t\rq Q0 d2 2 1 t\n",
            "x.txt:1: expected lines ending with LF or CRLF, found a lone carriage return (CR) inside a line",
        ),
        (b"", "x.txt: expected run lines (qid iter docno rank score tag), found an empty file"),
        (
            b"# only\n\n   \n# comments\n",
            "x.txt: expected run lines (qid iter docno rank score tag), found no run line, only 4 comment or "
            "blank line(s)",
        ),
    ],
)
def test_malformed_run(data: bytes, expected: str) -> None:
    assert message(data) == expected


@pytest.mark.parametrize(
    "data, expected",
    [
        (
            b"1 0 d1 1\n1 0 d2\n",
            "x.txt:2: expected 4 columns (qid iter docno relevance), found 3: '1 0 d2'",
        ),
        # a first line of 5 columns is sampled judgements (qid iter docno stratum relevance)
        (b"1 0 d1 1 extra\n", "x.txt:1: expected an integer in column 5 (relevance), found 'extra'"),
        (
            b"1 0 d1 1\n1 0 d2 1 1\n",
            "x.txt:2: expected 4 columns (qid iter docno relevance), found 5: '1 0 d2 1 1' (a line of "
            "sampled judgements (qid iter docno stratum relevance) in a 4-column qrels file: the "
            "file's first line has 4 columns)",
        ),
        (
            b"# sampled\n1 0 d1 s1 1\n1 0 d2 1\n",
            "x.txt:3: expected 5 columns (qid iter docno stratum relevance), found 4: '1 0 d2 1' (a "
            "4-column line (qid iter docno relevance) in a file of sampled judgements: the file's "
            "first line has 5 columns)",
        ),
        (
            b"1 0 d1 s1 1\n1 0 d2 s1 1 x\n",
            "x.txt:2: expected 5 columns (qid iter docno stratum relevance), found 6: '1 0 d2 s1 1 x'",
        ),
        (b"1 0 d1 s1 1.5\n", "x.txt:1: expected an integer in column 5 (relevance), found '1.5'"),
        (b"1 0 d1 1.0\n", "x.txt:1: expected an integer in column 4 (relevance), found '1.0'"),
        (b"1 0 d1 yes\n", "x.txt:1: expected an integer in column 4 (relevance), found 'yes'"),
        (b"1 0 d1 1_0\n", "x.txt:1: expected an integer in column 4 (relevance), found '1_0'"),
        (
            b"1 0 d1 99999999999999999999\n",
            "x.txt:1: expected an integer in column 4 (relevance), found '99999999999999999999'",
        ),
        (b"", "x.txt: expected qrels lines (qid iter docno relevance), found an empty file"),
    ],
)
def test_malformed_qrels(data: bytes, expected: str) -> None:
    assert message(data, run=False) == expected


def test_error_attributes_and_path_in_message(tmp_path: Path) -> None:
    path = tmp_path / "bad.run"
    path.write_bytes(PLAIN + b"q3 Q0 d1 1 oops t\n")
    with pytest.raises(TrecFormatError) as info:
        read_run(path)
    error = info.value
    assert (error.source, error.line, error.expected, error.found) == (
        str(path),
        4,
        "a number in column 5 (score)",
        "'oops'",
    )
    assert str(error) == f"{path}:4: expected a number in column 5 (score), found 'oops'"


def test_long_lines_are_shortened_in_messages() -> None:
    line = b"q Q0 " + b"d" * 300
    text = message(line + b"\n")
    assert text.startswith("x.txt:1: expected at least 6 columns")
    assert text.endswith("found 3: '" + "q Q0 " + "d" * 112 + "...'")


# --------------------------------------------------------------------------------------------
# duplicates: one warning, the last line wins
# --------------------------------------------------------------------------------------------


def test_duplicate_run_lines_warn_once_and_the_last_wins() -> None:
    data = b"q1 Q0 a 1 1 t\nq1 Q0 b 2 2 t\n# c\nq1 Q0 a 3 3 t\nq2 Q0 a 1 1 t\nq1 Q0 b 4 5 t\nq1 Q0 a 5 6 t\n"
    stream = io.BytesIO(data)
    stream.name = "dup.run"  # type: ignore[attr-defined]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cols = read_run(stream)
    assert [str(w.message) for w in caught] == [
        "dup.run: 3 duplicate (query, document) result line(s) dropped, the last line of each is used "
        "(as in ir_measures); first: query 'q1', document 'a' on lines 1, 4, 7"
    ]
    assert caught[0].category is TrecFormatWarning
    expected = [("q2", "a", 1.0), ("q1", "b", 5.0), ("q1", "a", 6.0)]
    assert as_list(cols) == reference(data, run=True) == expected
    # ir_measures' dict conversion keeps the same values
    as_dict: Dict[str, Dict[str, float]] = {}
    for r in ir_measures.read_trec_run(data.decode().replace("# c\n", "")):
        as_dict.setdefault(r.query_id, {})[r.doc_id] = r.score
    flat = {(q, d): v for q in as_dict for d, v in as_dict[q].items()}
    assert {(q, d): v for q, d, v in as_list(cols)} == flat


def test_duplicate_judgements_warn() -> None:
    data = b"1 0 a 1\n1 0 a 0\n"
    stream = io.BytesIO(data)
    stream.name = "q.txt"  # type: ignore[attr-defined]
    with pytest.warns(TrecFormatWarning) as caught:
        cols = read_qrels(stream)
    assert str(caught[0].message) == (
        "q.txt: 1 duplicate (query, document) judgement line(s) dropped, the last line of each is used "
        "(as in ir_measures); first: query '1', document 'a' on lines 1, 2"
    )
    assert as_list(cols) == [("1", "a", 0)]


def test_no_warning_without_duplicates() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_run(TE / "results.test")


def test_interleaved_queries_are_kept_in_file_order() -> None:
    data = b"a Q0 x 1 1 t\nb Q0 x 1 1 t\na Q0 y 2 0.5 t\nb Q0 y 2 2 t\na Q0 x 3 0 t\n"
    assert as_list(read_bytes(data)) == reference(data, run=True)


# --------------------------------------------------------------------------------------------
# block boundaries: the file is read in blocks; nothing may depend on where they fall
# --------------------------------------------------------------------------------------------

lines = st.one_of(
    st.tuples(
        st.sampled_from(["q1", "q2", "long-query-id", "é"]),
        st.sampled_from(["Q0", "0", "AF"]),
        st.sampled_from(["d1", "d2", "d3", "D" * 80, "x#y", "ü"]),
        st.integers(0, 9),
        st.one_of(
            st.floats(allow_nan=False, allow_infinity=False).map(repr),
            st.integers(-5, 5).map(str),
            st.sampled_from(["1e-3", ".5", "+2"]),
        ),
        st.sampled_from(["t", "t extra words", "t\t"]),
    ).map(lambda t: " ".join(map(str, t))),
    st.sampled_from(["", "# comment", "   ", "\t# indented comment"]),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(lines, min_size=1, max_size=40),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.integers(1, 200),
)
def test_any_block_size_reads_like_the_reference(body: List[str], eol: str, final: bool, block: int) -> None:
    data = (eol.join(body) + (eol if final else "")).encode()
    expected = reference(data, run=True)
    old = trec_io.BLOCK_SIZE
    trec_io.BLOCK_SIZE = block
    try:
        if not expected:
            with pytest.raises(TrecFormatError, match="expected run lines"):
                read_bytes(data)
        else:
            assert as_list(read_bytes(data)) == expected
    finally:
        trec_io.BLOCK_SIZE = old


@pytest.mark.parametrize("block", [7, 64, 1 << 23])
def test_line_numbers_across_blocks(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trec_io, "BLOCK_SIZE", block)
    body = b"".join(b"q Q0 d%d %d 1.5 t\n" % (i, i) if i % 7 else b"# c\n" for i in range(300))
    assert (
        message(body + b"q Q0 dx 1 nan t\n")
        == "x.txt:301: expected a finite number in column 5 (score), found 'nan'"
    )
    with pytest.warns(TrecFormatWarning, match=r"first: query 'q', document 'd1' on lines 2, 301"):
        read_run(io.BytesIO(body + b"q Q0 d1 1 1 t\n"))


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_blocks_parsed_side_by_side_are_numbered_in_file_order(
    threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks are parsed by several threads and completed in file order: the query codes follow
    first appearance, the first tag, the first non-UTF-8 line and the first of two bad lines are
    the file's first, whatever block a thread finishes first."""
    monkeypatch.setattr(trec_io, "BLOCK_SIZE", 64)
    monkeypatch.setattr(trec_io, "PARSE_THREADS", threads)
    lines = [b"q%d Q0 d%d %d 1.5 tag%d\n" % (q, i, i, q) for q in (9, 10, 2, 30, 1) for i in range(6)]
    cols = read_run(io.BytesIO(b"".join(lines)), doc_ids="bytes")
    assert cols.query_names == ["q9", "q10", "q2", "q30", "q1"]  # the file's order, not sorted
    assert cols.query_codes.tolist() == [k for k in range(5) for _ in range(6)]
    assert cols.tag == "tag9"
    bad = lines[:]
    bad[7] = b"q10 Q0 \xff 1 1.5 t\n"  # line 8: not UTF-8
    bad[20] = b"q30 Q0 \xfe 1 1.5 t\n"
    assert read_run(io.BytesIO(b"".join(bad)), doc_ids="bytes").non_utf8_at == "<stream>:8"
    bad[12] = b"q2 Q0 d 1 x t\n"  # line 13, then line 26: two bad scores in different blocks
    bad[25] = b"q1 Q0 d 1 y t\n"
    with pytest.raises(TrecFormatError) as info:
        read_run(io.BytesIO(b"".join(bad)))
    assert info.value.line == 13


# --------------------------------------------------------------------------------------------
# the columns feed the core directly
# --------------------------------------------------------------------------------------------


def test_columns_feed_the_core() -> None:
    qrels = Qrels.from_any(read_qrels(TE / "qrels.test"))
    ranked = rank_run(read_run(TE / "results.test"), qrels)
    assert ranked.num_queries == 3
    assert sorted(qrels.query_ids) == ["301", "302", "303"]


# --------------------------------------------------------------------------------------------
# real participant runs: CLEF 2017 TAR (gzipped, odd columns, CRLF, duplicates, ties) and the
# TREC 2003 Robust runs, each against the line-by-line reference
# --------------------------------------------------------------------------------------------


def _real_files() -> List[str]:
    return [
        f"clef-tar-2017/runs/{p}"
        for p in (
            "amc.run.gz",
            "ecnu.run2.gz",
            "ecnu.run3.gz",
            "iiit.run1.gz",
            "padua.ims_iafapc_m10p10f0t150p2m10.gz",
            "padua.ims_iafapc_m10p20f0t150p2m10.gz",
            "padua.ims_iafapc_m10p20f0t300p2m10.gz",
            "padua.ims_iafapc_m10p5f0t0p2m10.gz",
            "qut.result_bool_es_test.gz",
            "qut.result_pico_es_test.gz",
            "uos.sis.AL30Q_BM25.gz",
            "uos.sis.TMAL30Q_BM25.gz",
            "waterloo.A-rank-cost.gz",
            "waterloo.A-rank-normal.gz",
            "waterloo.A-thresh-cost.gz",
            "waterloo.A-thresh-normal.gz",
            "waterloo.B-rank-cost.gz",
            "waterloo.B-rank-normal.gz",
            "waterloo.B-thresh-cost.gz",
            "waterloo.B-thresh-normal.gz",
        )
    ]


@pytest.mark.parametrize("name", _real_files())
def test_clef_tar_2017_runs(name: str) -> None:
    path = DATA / name
    data = gzip.decompress(path.read_bytes())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cols = read_run(path)
    assert as_list(cols) == reference(data, run=True)
    if name.endswith("TMAL30Q_BM25.gz"):  # the README: 311 duplicate (topic, docno) lines
        assert len(caught) == 1 and "311 duplicate" in str(caught[0].message)
    else:
        assert not caught


@pytest.mark.parametrize("name", ["test.clef2017.qrels", "qrel_abs_test.txt", "qrel_content_test.txt"])
def test_clef_tar_2017_qrels(name: str) -> None:
    path = DATA / "clef-tar-2017" / "qrels" / name
    cols = read_qrels(path)
    assert as_list(cols) == reference(path.read_bytes(), run=False)
    assert len(cols) == 117_562


def test_trec_robust_2003_runs() -> None:
    folder = shared_data("real", "trec-robust-2003")
    runs = sorted((folder / "runs").glob("input.*.gz"))
    assert len(runs) == 17
    for path in runs[:6]:  # the others are read through the CLI test (official MAP)
        assert as_list(read_run(path)) == reference(gzip.decompress(path.read_bytes()), run=True)
    qrels = folder / "qrels" / "robust03_qrels.txt"
    assert as_list(read_qrels(qrels)) == reference(qrels.read_bytes(), run=False)


# --------------------------------------------------------------------------------------------
# document ids as bytes (doc_ids="bytes"): the same columns as str ids, decoded
# --------------------------------------------------------------------------------------------


def _outcome(path: object, reader: object, mode: str) -> Tuple[object, List[str]]:
    """(columns or the error message, warning messages) of one reading (of a path, or of bytes
    given as a new stream each time)."""
    source = path
    if isinstance(path, bytes):
        source = io.BytesIO(path)
        source.name = "data.txt"  # type: ignore[attr-defined]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: object = reader(source, doc_ids=mode)  # type: ignore[operator]
        except TrecFormatError as error:
            result = str(error)
    return result, [str(w.message) for w in caught]


def assert_same_columns(as_str: Columns, as_bytes: Columns) -> None:
    """Bytes-mode columns equal str-mode ones once decoded (and are a bytes array when they can be)."""
    widest = max(len(d.encode("utf-8", "surrogateescape")) for d in as_str.doc_ids.tolist())
    if widest <= 64:
        assert as_bytes.doc_ids.dtype.kind == "S"
        assert [
            d.decode("utf-8", "surrogateescape") for d in as_bytes.doc_ids.tolist()
        ] == as_str.doc_ids.tolist()
    else:  # an id too wide for a fixed-width array: str ids, as in str mode
        assert as_bytes.doc_ids.dtype == object
    assert ids_as_str(as_bytes.doc_ids).tolist() == as_str.doc_ids.tolist()
    assert as_bytes.query_ids.tolist() == as_str.query_ids.tolist()
    assert as_bytes.values.dtype == as_str.values.dtype
    assert as_bytes.values.tolist() == as_str.values.tolist()
    assert as_bytes.query_codes.tolist() == as_str.query_codes.tolist()
    assert as_bytes.query_names == as_str.query_names
    assert as_bytes.unique_pairs and as_str.unique_pairs


def assert_same_outcome(path: object) -> int:
    """Both readers, both modes: same columns (or the same error) and the same warnings; returns
    how many readings succeeded."""
    read = 0
    for reader in (read_run, read_qrels):
        as_str, warned_str = _outcome(path, reader, "str")
        as_bytes, warned_bytes = _outcome(path, reader, "bytes")
        assert warned_bytes == warned_str
        if isinstance(as_str, str):
            assert as_bytes == as_str
        else:
            assert isinstance(as_bytes, Columns)
            assert_same_columns(as_str, as_bytes)  # type: ignore[arg-type]
            read += 1
    return read


def _files(root: Path) -> List[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", _files(DATA))
def test_bytes_and_str_ids_agree_on_every_test_data_file(name: str) -> None:
    assert_same_outcome(DATA / name)


def test_bytes_and_str_ids_agree_on_every_real_file() -> None:
    # CLEF TAR 2017 is in tests/data (the test above); the Robust 2003 runs stay in ../shared
    real = shared_data("real", "trec-robust-2003")
    names = _files(real)
    assert len(names) == 20
    read = sum(assert_same_outcome(real / name) for name in names)
    assert read == 18  # 17 runs (as runs) + 1 qrels file (as qrels)


def _messy(tmp_path: Path) -> Path:
    """Non-ASCII and non-UTF-8 ids, ties, duplicates, CRLF, comments, interleaved queries."""
    rows = [
        "# a run written by hand",
        "",
        "q1 Q0 dé 1 2.5 t",
        "q1 Q0 文書-1 2 2.5 t",
        "q1 Q0 😀x 3 2.5 t",
        "q1 Q0 de 4 1 t",
        "qé Q0 dé 1 3 t",
        "  # indented comment",
        "q1 Q0 dé 5 0.5 t",  # duplicate (q1, dé)
        "qé Q0 Ω 2 3 t",
        "q1 Q0 e\u0301 6 0.25 t",
        "qé Q0 dé 3 -1 t",  # duplicate (qé, dé)
    ]
    data = "\r\n".join(rows).encode("utf-8") + b"\r\n"
    data += b"q1 Q0 bad\xffutf8 7 0.1 t\r\nq1 Q0 bad\xfeutf8 8 0.1 t\r\n"
    path = tmp_path / "messy.run"
    path.write_bytes(data)
    return path


def test_bytes_mode_non_ascii_ids_duplicates_crlf_gzip(tmp_path: Path) -> None:
    path = _messy(tmp_path)
    data = path.read_bytes()
    gz = tmp_path / "messy.run.gz"
    gz.write_bytes(gzip.compress(data))
    for source in (path, gz):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cols = read_run(source, doc_ids="bytes")
        assert cols.doc_ids.dtype.kind == "S"
        assert list(
            zip(cols.query_ids.tolist(), ids_as_str(cols.doc_ids).tolist(), cols.values.tolist())
        ) == reference(data, run=True)
        assert "bad\xffutf8".encode("latin-1") in cols.doc_ids.tolist()  # the raw bytes
        assert "😀x".encode() in cols.doc_ids.tolist()
        assert [str(w.message) for w in caught] == [
            f"{source}: 2 duplicate (query, document) result line(s) dropped, the last line of each is "
            "used (as in ir_measures); first: query 'q1', document 'dé' on lines 3, 9"
        ]
        assert_same_outcome(source)


def test_ids_wider_than_the_fixed_width_limit_fall_back_to_str() -> None:
    data = b"q Q0 short 1 1 t\nq Q0 " + b"L" * 65 + b" 2 0.5 t\nq Q0 short 3 0.1 t\n"
    with pytest.warns(TrecFormatWarning, match="first: query 'q', document 'short' on lines 1, 3"):
        cols = read_run(io.BytesIO(data), doc_ids="bytes")
    assert cols.doc_ids.dtype == object
    assert cols.doc_ids.tolist() == ["L" * 65, "short"]
    # 64 bytes still fit
    cols = read_run(io.BytesIO(b"q Q0 " + b"M" * 64 + b" 1 1 t\n"), doc_ids="bytes")
    assert cols.doc_ids.dtype == np.dtype("S64") and cols.doc_ids.tolist() == [b"M" * 64]


def test_blocks_of_different_widths_and_empty_blocks_join_as_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trec_io, "BLOCK_SIZE", 40)
    short = [b"q1 Q0 d%d %d 1 t\n" % (i, i) for i in range(5)]
    comments = [b"# a block of comments only, longer than one block\n", b"#\n"]
    wide = [b"q2 Q0 a-rather-long-document-id-%d 1 1 t\n" % i for i in range(3)]
    data = b"".join(short + comments + wide + comments)
    cols = read_run(io.BytesIO(data), doc_ids="bytes")
    assert cols.doc_ids.dtype == np.dtype("S32")  # 27 bytes, in 8-byte words
    assert cols.doc_ids.tolist() == [b"d%d" % i for i in range(5)] + [
        b"a-rather-long-document-id-%d" % i for i in range(3)
    ]
    assert_same_columns(read_run(io.BytesIO(data)), cols)


ids = st.text(alphabet=["a", "b", "Z", "0", "-", "é", "文", "😀"], min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["q1", "q2", "q3-long-query", "é"]), ids, st.integers(-3, 3)),
        min_size=1,
        max_size=60,
    ),
    st.integers(16, 400),
    st.sampled_from([2, 3, 1 << 15]),
)
def test_bytes_mode_duplicates_match_str_mode(
    rows: List[Tuple[str, str, int]], block: int, chunk: int
) -> None:
    """Few distinct ids, so many duplicates; interleaved queries; any block size and
    duplicate-filter chunk size."""
    data = "".join(f"{q} 0 {d} {v}\n" for q, d, v in rows).encode()
    old = trec_io.BLOCK_SIZE, duplicates.DUP_CHUNK
    trec_io.BLOCK_SIZE, duplicates.DUP_CHUNK = block, chunk
    try:
        assert assert_same_outcome(data) == 1  # read as qrels (and refused as a run)
    finally:
        trec_io.BLOCK_SIZE, duplicates.DUP_CHUNK = old


def test_the_duplicate_filter_decides_speed_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a hash that maps every line to one key, every line is a candidate: the exact
    comparison alone must give the same result."""
    path = _messy(tmp_path)
    data = b"".join(b"q%d 0 d%d %d\n" % (i % 3, i % 17, i % 5) for i in range(200))  # 149 duplicates
    readings = [(source, reader) for source in (path, data) for reader in (read_run, read_qrels)]
    expected = [_outcome(source, reader, "str") for source, reader in readings]
    monkeypatch.setattr(duplicates, "doc_keys", lambda docs, query: np.zeros(len(docs), dtype=np.uint64))
    monkeypatch.setattr(duplicates, "DUP_CHUNK", 16)
    found = [_outcome(source, reader, "bytes") for source, reader in readings]
    for (want, want_warned), (got, got_warned) in zip(expected, found):
        assert got_warned == want_warned
        if isinstance(want, str):
            assert got == want
        else:
            assert_same_columns(want, got)  # type: ignore[arg-type]
    assert "149 duplicate" in found[3][1][0]


def test_a_parse_error_before_a_read_error_is_the_one_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"".join(b"q Q0 d%d %d 1.5 t\n" % (i, i) for i in range(400))
    cut = body.index(b"\n", 500) + 1
    data = body[:cut] + b"q Q0 bad 1 x t\n" + body[cut:]
    broken = gzip.compress(data)[:-4]  # the trailer cut: every line reads, then the end fails
    monkeypatch.setattr(trec_io, "BLOCK_SIZE", 64)
    line = data[: data.index(b"bad")].count(b"\n") + 1
    assert message(broken) == f"x.txt:{line}: expected a number in column 5 (score), found 'x'"
    assert "expected a readable run file, found EOFError" in message(broken[:40])  # the read error alone


def test_doc_ids_mode_is_checked_and_str_ids_pass_through() -> None:
    with pytest.raises(ValueError, match="doc_ids must be 'str' or 'bytes', not 'utf8'"):
        read_run(io.BytesIO(PLAIN), doc_ids="utf8")
    as_str = np.array(["a", "é"], dtype=object)
    assert ids_as_str(as_str) is as_str
    raw = np.array(["dé".encode(), b"x\xff", b"plain"])
    assert ids_as_str(raw).tolist() == ["dé", "x\udcff", "plain"]
    assert ids_as_str(np.array([b"ab", b"c"])).tolist() == ["ab", "c"]  # the ASCII path


def test_qrels_read_as_bytes_feed_the_core() -> None:
    from ir_measures_pres import PRES
    from ir_measures_pres.engine.provider import PresProvider

    run = read_run(TE / "results.test", doc_ids="bytes")
    as_str = PresProvider().evaluator([PRES @ 100], read_qrels(TE / "qrels.test")).iter_calc(run)
    as_bytes = PresProvider().evaluator([PRES @ 100], read_qrels(TE / "qrels.test", doc_ids="bytes"))
    assert list(as_bytes.iter_calc(run)) == list(as_str)


def test_meta_evaluation_scores_do_not_depend_on_the_id_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """The meta-evaluation core reads runs with bytes ids: same scores as with str ids, for a
    plugin measure, a vectorised standard one and one through ir_measures (fallback), against
    the full and a reduced qrels."""
    import ir_measures_pres.engine.scores as core_module

    folder = shared_data("real", "trec-robust-2003")
    runs = sorted((folder / "runs").glob("input.*.gz"))[:4]
    qrels = folder / "qrels" / "robust03_qrels.txt"
    scores = {}
    for mode in ("bytes", "str"):
        if mode == "str":
            monkeypatch.setattr(core_module, "_readers", lambda: (read_qrels, read_run))
        core = core_module.Core(qrels, runs, "PRES@1000 AP infAP", progress=False)
        keep = np.arange(len(core.line_labels)) % 3 != 0
        scores[mode] = (core.evaluate(), core.evaluate(keep))
        assert core.ranked[0].docs.dtype.kind == ("S" if mode == "bytes" else "O")
    assert all(np.array_equal(a, b) for a, b in zip(scores["bytes"], scores["str"]))


@pytest.mark.parametrize(
    "data, first",
    [
        # each query contiguous, not in sorted order: the first query of the file is the example
        (b"q2 0 a 1\nq2 0 a 0\nq1 0 b 1\nq1 0 b 2\n", "query 'q2', document 'a' on lines 1, 2"),
        # interleaved queries: the example follows the query codes (the order in which the
        # queries first appear), as for str ids
        (b"q2 0 a 1\nq1 0 b 1\nq2 0 x 0\nq1 0 b 2\nq2 0 a 0\n", "query 'q2', document 'a' on lines 1, 5"),
        (b"z 0 d 1\ny 0 d 1\nz 0 d 2\ny 0 d 2\ny 0 d 3\n", "query 'z', document 'd' on lines 1, 3"),
    ],
)
def test_the_duplicate_example_is_the_same_for_bytes_and_str_ids(data: bytes, first: str) -> None:
    for mode in ("str", "bytes"):
        _, warned = _outcome(data, read_qrels, mode)
        assert len(warned) == 1 and warned[0].endswith("first: " + first), (mode, warned)
    assert assert_same_outcome(data) == 1
