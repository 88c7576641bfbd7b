"""Bad input never crashes and never lies: the API side of the validation boundary.

Every input type (dicts, DataFrames, namedtuples, the readers' columns, files) goes through the
same checks. A bad value is an :class:`InputError` that says where it is; a valid but odd value
(ids that are not UTF-8, scores beyond float32, a byte order mark) gives the number a naive
reference written here from the formula and trec_eval's rules gives. Random bytes, whitespace,
line endings and truncated gzip fed to the readers either read as that reference reads them or
raise our error type, never another exception.
"""

from __future__ import annotations

import gzip
import io
import math
import threading
import warnings
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres import PRES, Bpref10, InputError, PPlusMeasure, QMeasure
from ir_measures_pres.data.readers import TrecFormatError, read_qrels, read_run

AP_OURS = QMeasure(beta=0.0)  # Q-measure with beta = 0 is AP (Sakai 2007)


def naive_ap(qrels: Dict[bytes, int], run: List[Tuple[bytes, float]]) -> float:
    """AP of one query from the formula, in trec_eval 9's order (float32 score desc, id bytes
    desc): (1/R) * sum over relevant ranks r of (relevant in the top r) / r."""
    with np.errstate(over="ignore"):  # beyond float32: +-inf, as C's (float) cast gives
        ranked = sorted(run, key=lambda x: (np.float32(x[1]), x[0]), reverse=True)
    relevant = sum(1 for v in qrels.values() if v >= 1)
    found, total = 0, 0.0
    for rank, (doc, _) in enumerate(ranked, start=1):
        if qrels.get(doc, 0) >= 1:
            found += 1
            total += found / rank
    return total / relevant if relevant else 0.0


def calc(measure, qrels, run) -> float:
    return ir_measures.calc_aggregate([measure], qrels, run)[measure]


# -- values that are wrong or ambiguous: an error naming where ----------------------------------


@pytest.mark.parametrize(
    "qrels, words",
    [
        ({"q": {"a": 1.7}}, ["query 'q', document 'a'", "integer relevance", "1.7"]),
        ({"q": {"a": "2"}}, ["query 'q', document 'a'", "integer relevance", "'2'"]),
        ({"q": {"a": 4294967296}}, ["query 'q', document 'a'", "-2147483648..2147483647", "4294967296"]),
        ({"q": {"a": float("nan")}}, ["document 'a'", "nan"]),
        ({"q": {"a": None}}, ["document 'a'", "None"]),
        ({"q": {None: 1}}, ["document id", "None"]),
        ({"q": {"a\x00b": 1}}, ["NUL", "a\\x00b"]),
        ({"q": [("a", 1)]}, ["query 'q'", "dict"]),
    ],
)
def test_bad_dict_qrels_are_errors_naming_the_value(qrels, words):
    with pytest.raises(InputError) as info:
        calc(PRES @ 10, qrels, {"q": {"a": 1.0}})
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    "run, words",
    [
        ({"q": {"a": None}}, ["run query 'q', document 'a'", "finite number"]),
        ({"q": {"a": float("inf")}}, ["document 'a'", "inf"]),
        ({"q": {"a": "x"}}, ["document 'a'", "'x'"]),
        ({"q": {None: 1.0}}, ["document id", "None"]),
        ({"q": [1.0]}, ["query 'q'", "dict"]),
    ],
)
def test_bad_dict_runs_are_errors_naming_the_value(run, words):
    with pytest.raises(InputError) as info:
        calc(PRES @ 10, {"q": {"a": 1}}, run)
    for word in words:
        assert word in str(info.value)


def test_dataframe_none_and_nan_ids_are_errors_not_the_ids_none_and_nan():
    # str(None) would make the id 'None': the relevant document lost, PRES 0.9 -> 0.4 in the issue
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    for bad in (None, float("nan")):
        qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", bad], "relevance": [0, 1]})
        with pytest.raises(InputError, match="document id"):
            calc(PRES @ 10, qrels, run)
    frame = pd.DataFrame({"query_id": ["q", None], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    with pytest.raises(InputError, match="query id"):
        calc(PRES @ 10, {"q": {"a": 1}}, frame)


def test_dataframe_and_namedtuple_relevance_obey_the_same_rule_as_dicts():
    for value in (1.5, "1", 2**31):
        frame = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "relevance": [value]})
        with pytest.raises(InputError, match="integer relevance"):
            calc(PRES @ 10, frame, {"q": {"a": 1.0}})
        with pytest.raises(InputError, match="integer relevance"):
            calc(PRES @ 10, [ir_measures.Qrel("q", "a", value)], {"q": {"a": 1.0}})
    # integral floats are integers
    frame = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "relevance": [1.0]})
    assert calc(PRES @ 10, frame, {"q": {"a": 1.0}}) == 1.0


# -- valid but odd: the number trec_eval's rules give ----------------------------------------


def test_scores_beyond_float32_tie_and_the_id_decides():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1e39, "b": 3e38 * 10}}  # both +inf in float32
    expected = naive_ap({b"a": 1, b"b": 0}, [(b"a", 1e39), (b"b", 3e39)])
    assert expected == 0.5  # b (the larger id) first
    assert calc(AP_OURS, qrels, run) == expected


def test_ids_that_are_not_utf8_are_ordered_by_their_bytes(tmp_path):
    # U+E000 is EE 80 80 in UTF-8, a lone F0 byte its surrogate escape U+DCF0: as code points
    # U+E000 sorts last, as bytes F0 does; trec_eval compares bytes
    (tmp_path / "q").write_bytes(b"q 0 d\xf0 1\nq 0 d\xee\x80\x80 0\n")
    (tmp_path / "r").write_bytes(b"q Q0 d\xee\x80\x80 1 5 t\nq Q0 d\xf0 2 5 t\n")
    expected = naive_ap({b"d\xf0": 1, b"d\xee\x80\x80": 0}, [(b"d\xee\x80\x80", 5.0), (b"d\xf0", 5.0)])
    assert expected == 1.0
    for mode in ("str", "bytes"):
        qrels = read_qrels(tmp_path / "q", doc_ids=mode)
        run = read_run(tmp_path / "r", doc_ids=mode)
        got = ir_measures_pres.PresProvider().evaluator([AP_OURS], qrels).calc_aggregate(run)
        assert got == {AP_OURS: expected}, mode


def test_reader_results_work_with_the_standard_measures_too(tmp_path):
    (tmp_path / "q").write_bytes(b"q 0 a 1\nq 0 b 0\nq 0 c 2\n")
    (tmp_path / "r").write_bytes(b"q Q0 b 1 3 t\nq Q0 a 2 2 t\nq Q0 c 3 1 t\n")
    qrels, run = read_qrels(tmp_path / "q"), read_run(tmp_path / "r")
    got = ir_measures.calc_aggregate([ir_measures.AP, ir_measures.nDCG @ 3, PRES @ 10], qrels, run)
    # AP: relevant at ranks 2 and 3: (1/2 + 2/3) / 2
    assert got[ir_measures.AP] == pytest.approx((1 / 2 + 2 / 3) / 2)
    # nDCG@3 with gains = labels: (1/log2(3) + 2/log2(4)) / (2/log2(2) + 1/log2(3))
    ndcg = (1 / math.log2(3) + 2 / 2) / (2 + 1 / math.log2(3))
    assert got[ir_measures.nDCG @ 3] == pytest.approx(ndcg)
    # PRES, n = 2 found at 2 and 3: 1 - ((2 + 3)/2 - 3/2) / 10
    assert got[PRES @ 10] == pytest.approx(0.9)


def test_reader_results_with_non_utf8_ids_refuse_other_providers_naming_the_line(tmp_path):
    (tmp_path / "q").write_bytes(b"q 0 a 1\n")
    (tmp_path / "r").write_bytes(b"q Q0 a 1 1 t\nq Q0 d\xff 2 0.5 t\n")
    run = read_run(tmp_path / "r")
    with pytest.raises(InputError, match=r"r:2: expected ids in UTF-8"):
        ir_measures.calc_aggregate([ir_measures.AP], read_qrels(tmp_path / "q"), run)


def test_a_byte_order_mark_is_not_part_of_the_first_query(tmp_path):
    (tmp_path / "q").write_bytes(b"\xef\xbb\xbfq1 0 a 1\nq2 0 b 1\n")
    (tmp_path / "r").write_bytes(b"\xef\xbb\xbfq1 Q0 a 1 1 t\nq2 Q0 c 1 1 t\n")
    qrels = read_qrels(tmp_path / "q")
    assert list(qrels.query_names) == ["q1", "q2"]
    # q1 found at rank 1 (1.0), q2 not found (0.0): mean 0.5; a phantom query would change it
    assert calc(PRES @ 10, qrels, read_run(tmp_path / "r")) == 0.5


# -- reused evaluators --------------------------------------------------------------------------


def test_an_evaluator_used_by_many_threads_gives_the_serial_results():
    rng = np.random.default_rng(7)
    docs = [f"d{i}" for i in range(300)]
    qrels = {f"q{q}": {d: int(rng.integers(-1, 3)) for d in rng.choice(docs, 60)} for q in range(20)}
    runs = [
        {f"q{q}": {d: float(rng.integers(0, 30)) for d in rng.choice(docs, 100)} for q in range(20)}
        for _ in range(8)
    ]
    measures = [PRES @ 50, QMeasure, PPlusMeasure @ 10, Bpref10]
    evaluator = ir_measures_pres.PresProvider().evaluator(measures, qrels)
    serial = [evaluator.calc_aggregate(run) for run in runs]
    assert [evaluator.calc_aggregate(run) for run in runs] == serial  # repeated calls change nothing
    results: List = [None] * (4 * len(runs))
    barrier = threading.Barrier(len(results))

    def work(i: int) -> None:
        barrier.wait()
        results[i] = (
            evaluator.calc_aggregate(runs[i % len(runs)]),
            list(evaluator.iter_calc(runs[i % len(runs)])),
        )

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(results))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, (agg, metrics) in enumerate(results):
        assert agg == serial[i % len(runs)]
        assert metrics == list(evaluator.iter_calc(runs[i % len(runs)]))


# -- fuzzing the readers ------------------------------------------------------------------------

_TOKEN = st.sampled_from(["q1", "q2", "0", "Q0", "d1", "d2", "d\xe9", "1", "-1", "2", "0.5", "1e3", "x", "#"])
_SPACE = st.sampled_from([" ", "\t", "  ", "\x0b", "\x0c"])
_END = st.sampled_from(["\n", "\r\n", ""])


_QUERY = st.sampled_from(["q1", "q2", "q\xe9", "#q"])
_DOC = st.sampled_from(["d1", "d2", "d\xe9", "D1"])


@st.composite
def _lines(draw, run: bool) -> bytes:
    """A file of mostly well-formed lines with random separators and endings, sometimes with
    random tokens or random bytes mixed in."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 3)):  # a well-formed line, mostly
            value = draw(st.sampled_from(["1", "0.5", "-2", "1e3", "3.25"] if run else ["0", "1", "2", "-1"]))
            tokens = [draw(_QUERY), "Q0" if run else "0", draw(_DOC)]
            tokens += ["1", value, "tag"] if run else [value]
        else:
            tokens = draw(st.lists(_TOKEN, min_size=0, max_size=7))
        sep = draw(_SPACE)
        lines.append(sep.join(tokens) + draw(_END))
    text = "".join(lines).encode()
    if not draw(st.integers(0, 3)):
        raw = draw(st.binary(max_size=20))
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + raw + text[cut:]
    return text


def _naive_read(data: bytes, run: bool) -> List[Tuple[str, str, float]]:
    """The documented reading, line by line (raises ValueError where the readers must refuse):
    trec_eval's whitespace-split columns (qrels exactly 4, or exactly 5 when the first judgement
    line has 5: sampled judgements, the relevance in column 5; runs at least 6), blank and '#'
    lines skipped, LF or CRLF endings, no NUL byte, integer relevance within C int, finite
    decimal scores (no '_' digit separators), the last line of a duplicate (query, doc) kept, a
    UTF-8 byte order mark at the start of the file dropped (docs/conventions.md,
    docs/judgements.md)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data or b"\r" in data.replace(b"\r\n", b""):
        raise ValueError("NUL or lone CR")
    out: Dict[Tuple[str, str], float] = {}
    width = None  # qrels: the first judgement line's width (4, or 5 for sampled judgements)
    for raw in data.replace(b"\r\n", b"\n").split(b"\n"):
        tokens = raw.split()
        if not tokens or tokens[0].startswith(b"#"):
            continue
        if width is None:
            width = 5 if not run and len(tokens) == 5 else 4
        if len(tokens) < (6 if run else width) or (not run and len(tokens) > width):
            raise ValueError("columns")
        token = tokens[4] if run else tokens[width - 1]
        if b"_" in token:
            raise ValueError("underscore")
        value = float(token) if run else int(token)
        if run and not math.isfinite(value):
            raise ValueError("not finite")
        if not run and not -(2**31) <= value < 2**31:
            raise ValueError("beyond C int")
        key = (tokens[0].decode("utf-8", "surrogateescape"), tokens[2].decode("utf-8", "surrogateescape"))
        out.pop(key, None)
        out[key] = value
    if not out:
        raise ValueError("no line")
    return sorted((q, d, v) for (q, d), v in out.items())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans(), st.sampled_from(["plain", "plain", "gzip", "truncated gzip"]))
def test_random_files_read_as_documented_or_raise_our_error(draw, run, form):
    data = draw.draw(_lines(run))
    source = {"plain": data, "gzip": gzip.compress(data), "truncated gzip": gzip.compress(data)[:12]}[form]
    try:
        expected = _naive_read(data, run)
    except ValueError:
        expected = None
    reader = read_run if run else read_qrels
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicates warn; every other exception propagates
        try:
            cols = reader(io.BytesIO(source))
        except TrecFormatError as error:
            assert expected is None or form == "truncated gzip", (error, expected)
            return
    assert form != "truncated gzip"
    assert expected is not None
    event("read")
    got = sorted(zip(cols.query_ids.tolist(), cols.doc_ids.tolist(), cols.values.tolist()))
    assert got == expected


def test_a_comment_line_with_as_many_columns_as_a_data_line_is_a_comment():
    # found by the fuzzer: when every line had exactly 4 (qrels) or 6 (run) tokens, the reader's
    # fast path took '#q 0 d1 0' for a judgement of query '#q'
    cols = read_qrels(io.BytesIO(b"# q 0 d\n#q 0 d1 1\nq 0 d2 1\n"))
    assert cols.query_ids.tolist() == ["q"] and cols.doc_ids.tolist() == ["d2"]
    cols = read_run(io.BytesIO(b"#q Q0 d1 1 1 t\nq Q0 d2 1 1 t\n"))
    assert cols.query_ids.tolist() == ["q"] and cols.doc_ids.tolist() == ["d2"]


# -- fuzzing the measure names and the API ------------------------------------------------------

_MEASURE_PIECES = st.sampled_from(
    [
        "AP",
        "P",
        "nDCG",
        "PRES",
        "QMeasure",
        "R_norm",
        "Bpref10",
        "map",
        "P_",
        "ndcg_cut.",
        "Q-measure",
        "Rnorm_N",
        "@",
        "(",
        ")",
        "=",
        ",",
        "beta",
        "cutoff",
        "rel",
        "gains",
        "{",
        "}",
        ":",
        "1",
        "0",
        "-1",
        "1e308",
        "99999999999999999999",
        "0.5",
        "'old'",
        "variant",
        "True",
        " ",
        "_cut_",
        "é",
        "\x00",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_MEASURE_PIECES, min_size=0, max_size=8).map("".join))
def test_random_measure_strings_parse_or_raise_our_error(text):
    from ir_measures_pres.measures.catalogue import MeasureNameError, parse_measures

    try:
        measures = parse_measures(text)
    except MeasureNameError as error:
        assert str(error)  # says what is wrong
        return
    for measure in measures:  # what parses is a valid measure that ir_measures can print back
        assert isinstance(measure, ir_measures.Measure)
        measure.validate_params()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.one_of(
                st.integers(-(2**40), 2**40),
                st.floats(allow_nan=True, allow_infinity=True),
                st.text(max_size=2),
            ),
        ),
        min_size=1,
        max_size=4,
    ),
    st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.floats(-1e40, 1e40), min_size=1),
)
def test_random_dict_inputs_give_the_naive_value_or_our_error(judgements, scores):
    qrels = {"q": dict(judgements)}
    valid = all(
        not isinstance(v, str) and math.isfinite(v) and v == int(v) and -(2**31) <= v < 2**31
        for v in qrels["q"].values()
    )
    try:
        got = calc(AP_OURS, qrels, {"q": scores})
    except InputError:
        assert not valid
        return
    assert valid
    expected = naive_ap(
        {d.encode(): int(v) for d, v in qrels["q"].items()}, [(d.encode(), s) for d, s in scores.items()]
    )
    assert got == pytest.approx(expected, abs=1e-12)
