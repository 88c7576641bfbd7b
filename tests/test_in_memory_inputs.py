"""In-memory runs at scale (issue #20 item 7): the checks run as C-level passes over whole
columns and dicts, and a dict run's judged documents are placed by score from the qrels side.

These tests pin what that must not change: a bad value far inside a large input is found and
named exactly as the first one would be, odd but valid ids are converted as before, and the labels
placed by score equal the labels looked up document by document (ties, signed zeros, scores
beyond float32, dict order not the ranked order).
"""

from __future__ import annotations

import random
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pandas as pd
import pytest

from ir_measures_pres import PRES, InputError, QMeasure
from ir_measures_pres.data import inputs, ranking
from ir_measures_pres.data.inputs import Columns
from ir_measures_pres.data.qrels import ABSENT, Qrels
from ir_measures_pres.data.ranking import rank_run

MEASURES = [PRES @ 1000, QMeasure]


def big_run(n: int = 40_000) -> Dict[str, Dict[str, float]]:
    return {"q": {f"d{i}": float(n - i) for i in range(n)}}


def big_qrels() -> Dict[str, Dict[str, int]]:
    return {"q": {"d3": 1, "d20000": 2, "d39999": 1, "x": 1}}


def message(qrels, run) -> str:
    with pytest.raises(InputError) as info:
        ir_measures.calc_aggregate(MEASURES, qrels, run)
    return str(info.value)


# -- a bad value deep inside a large input: the same error as at its start ---------------------


@pytest.mark.parametrize("bad", [None, 1.5, b"d7", ("d", 7)])
def test_a_bad_document_id_deep_inside_a_large_dict_run_is_named(bad):
    run = big_run()
    docs = list(run["q"].items())
    docs[30_000] = (bad, 1.0)
    run["q"] = dict(docs)
    assert message(big_qrels(), run) == (
        f"run document ids must be strings or integers, found {bad!r} ({type(bad).__name__})"
    )


def test_a_bad_document_id_deep_inside_large_dict_qrels_is_named():
    qrels = {"q": {f"d{i}": i % 3 for i in range(40_000)}}
    qrels["q"][None] = 1
    assert (
        message(qrels, big_run()) == "qrels document ids must be strings or integers, found None (NoneType)"
    )
    qrels = {"q": {f"d{i}": i % 3 for i in range(40_000)}}
    qrels["q"]["d\x00x"] = 1
    assert message(qrels, big_run()) == "qrels document ids must not hold a NUL character, found 'd\\x00x'"


def test_odd_relevance_deep_inside_large_dict_qrels_reads_as_before():
    base = {f"d{i}": i % 3 for i in range(40_000)}
    expected = ir_measures.calc_aggregate(MEASURES, {"q": base}, big_run())
    for odd in (True, 1.0, np.int64(1), np.float32(1.0)):  # not exactly int: the same label 1
        qrels = {"q": dict(base, d30001=odd)}
        assert ir_measures.calc_aggregate(MEASURES, qrels, big_run()) == expected
    qrels = {"q": dict(base, d30001=1.5)}
    assert message(qrels, big_run()) == (
        "qrels query 'q', document 'd30001': expected an integer relevance within "
        "-2147483648..2147483647, found np.float64(1.5)"
    )


def test_integer_and_str_subclass_ids_deep_inside_a_large_dict_run_are_their_text():
    nothing_found = ir_measures.calc_aggregate(MEASURES, {"q": {"20000": 2, "30000": 1}}, {"q": {}})
    plain = {"q": {str(i): float(-i) for i in range(40_000)}}
    odd = {
        "q": {(i if i == 20000 else np.str_(i) if i == 30000 else str(i)): float(-i) for i in range(40_000)}
    }
    qrels = {"q": {"20000": 2, "30000": 1}}
    assert ir_measures.calc_aggregate(MEASURES, qrels, odd) == ir_measures.calc_aggregate(
        MEASURES, qrels, plain
    )
    assert ir_measures.calc_aggregate(MEASURES, qrels, odd) != nothing_found
    ranked = rank_run(odd, Qrels.from_any(qrels))
    assert {type(d) for d in ranked.docs.tolist()} == {str}


def frame(n: int = 40_000) -> pd.DataFrame:
    return pd.DataFrame(
        {"query_id": ["q"] * n, "doc_id": [f"d{i}" for i in range(n)], "score": np.arange(n, 0, -1.0)}
    )


def test_a_nul_deep_inside_a_dataframe_column_names_the_first_such_id():
    assert inputs.NUL_CHUNK < 30_000  # past the first chunk the search looks at
    run = frame()
    run.loc[30_000, "doc_id"] = "d\x00a"
    run.loc[35_000, "doc_id"] = "d\x00b"
    assert message(big_qrels(), run) == "run document ids must not hold a NUL character, found 'd\\x00a'"
    run = frame()
    run.loc[39_999, "query_id"] = "q\x00"
    assert message(big_qrels(), run) == "run query ids must not hold a NUL character, found 'q\\x00'"


def test_a_bad_id_deep_inside_a_dataframe_column_is_named():
    run = frame().astype({"doc_id": object})
    run.loc[30_000, "doc_id"] = 2.5
    assert message(big_qrels(), run) == "run document ids must be strings or integers, found 2.5 (float)"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_non_finite_score_deep_inside_a_dataframe_is_named(bad):
    run = frame()
    run.loc[30_000, "score"] = bad
    assert message(big_qrels(), run) == (
        f"run query 'q', document 'd30000': expected a finite number as score, found {np.float64(bad)!r}"
    )


@pytest.mark.parametrize(
    "bad, shown",
    [(float("nan"), "nan"), (None, "None"), (np.float32("inf"), "np.float32(inf)"), (10**400, str(10**400))],
)
def test_a_bad_score_deep_inside_a_dict_run_is_named_as_given(bad, shown):
    # numpy reads None as NaN and refuses an int beyond float64 with OverflowError: the message
    # still names the value the user gave
    run = big_run()
    run["q"]["d30000"] = bad
    assert message(big_qrels(), run) == (
        f"run query 'q', document 'd30000': expected a finite number as score, found {shown}"
    )


def test_an_int_beyond_float64_is_an_input_error_in_every_input_type():
    huge = 10**400
    frame_run = pd.DataFrame({"query_id": ["q"], "doc_id": ["d3"], "score": pd.Series([huge], dtype=object)})
    assert message(big_qrels(), frame_run) == (
        f"run query 'q', document 'd3': expected a finite number as score, found {huge}"
    )
    assert message({"q": {"d3": 1, "d4": huge}}, big_run()) == (
        f"qrels query 'q', document 'd4': expected an integer relevance within "
        f"-2147483648..2147483647, found {huge}"
    )


@pytest.mark.parametrize(
    "qrels, run, expected",
    [
        # pytrec_eval reads ids as C strings: 'a\x00x' would be 'a' for the standard measures
        (
            {"q": {"a": 1}},
            {"q": {"b": 2.0, "a\x00x": 1.0}},
            "run document ids must not hold a NUL character, found 'a\\x00x'",
        ),
        (
            {"q": {"a": 1}},
            {"q\x00": {"a": 1.0}},
            "run query ids must not hold a NUL character, found 'q\\x00'",
        ),
        (
            {"q\x00": {"a": 1}},
            {"q": {"a": 1.0}},
            "qrels query ids must not hold a NUL character, found 'q\\x00'",
        ),
        # a query the qrels lack is checked too, as a DataFrame's lines are
        (
            {"q": {"a": 1}},
            {"q": {"a": 1.0}, "z": {"a\x00": 1.0}},
            "run document ids must not hold a NUL character, found 'a\\x00'",
        ),
        (
            {"q": {"a": 1}},
            {"q": {"a": 1.0}, "z": {None: 1.0}},
            "run document ids must be strings or integers, found None (NoneType)",
        ),
    ],
)
def test_a_nul_in_a_dict_id_is_refused_as_in_a_dataframe(qrels, run, expected):
    assert message(qrels, run) == expected
    if "NUL" in expected and expected.startswith("run"):  # the same run as a DataFrame
        frame_run = pd.DataFrame(
            [(q, d, s) for q, docs in run.items() for d, s in docs.items()],
            columns=["query_id", "doc_id", "score"],
        )
        assert message(qrels, frame_run) == expected


# -- labels placed by score equal labels looked up per document --------------------------------


SPECIAL_SCORES = [0.0, -0.0, 1e39, 3e39, -1e39, 5e-46, -5e-46, 100000.001, 100000.002, 1.0]


def random_case(rnd: random.Random) -> Tuple[Dict[str, Dict[str, int]], List[Tuple[str, str, float]]]:
    qrels: Dict[str, Dict[str, int]] = {}
    lines: List[Tuple[str, str, float]] = []
    for q in range(rnd.randint(1, 6)):
        qid = f"q{q}"
        docs = [f"d{rnd.randint(0, 300)}" for _ in range(rnd.randint(0, 120))]
        docs = list(dict.fromkeys(docs))
        qrels[qid] = {d: rnd.randint(-2, 3) for d in docs if rnd.random() < 0.4}
        qrels[qid].update({f"n{j}": 1 for j in range(rnd.randint(0, 3))})  # judged, not retrieved
        tie_rate = rnd.choice([0.0, 0.02, 0.3])
        for d in docs:
            if rnd.random() < tie_rate:
                score = rnd.choice(SPECIAL_SCORES)
            else:
                score = rnd.uniform(-1000, 1000)
            lines.append((qid, d, score))
    rnd.shuffle(lines)  # dict order is not the ranked order
    return qrels, lines


def expected_labels(qrels, lines, ranked) -> List[int]:
    """trec_eval's order written out (float32 score desc, id bytes desc), labels looked up."""
    out: List[int] = []
    for q in ranked.qpos.tolist():
        qid = ranked.qrels.query_ids[q]
        with np.errstate(over="ignore"):
            mine = sorted(
                ((np.float32(s), d.encode("utf-8"), d) for qq, d, s in lines if qq == qid), reverse=True
            )
        out.extend(qrels[qid].get(d, ABSENT) for _, _, d in mine)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_labels_placed_by_score_equal_labels_looked_up(seed, monkeypatch):
    rnd = random.Random(seed)
    monkeypatch.setattr(ranking, "PLACE_CHUNK", rnd.choice([1, 7, 1 << 20]))  # chunks of whole lists
    for _ in range(30):
        qrels, lines = random_case(rnd)
        prepared = Qrels.from_any(qrels)
        run: Dict[str, Dict[str, float]] = {}
        for q, d, s in lines:
            run.setdefault(q, {})[d] = s
        from_dict = rank_run(run, prepared)
        columns = Columns(
            np.array([q for q, _, _ in lines], dtype=object),
            np.array([d for _, d, _ in lines], dtype=object),
            np.array([s for _, _, s in lines], dtype=float),
        )
        from_columns = rank_run(columns, prepared)
        frame = pd.DataFrame(lines, columns=["query_id", "doc_id", "score"])  # queries not contiguous
        assert from_dict.labels.tolist() == expected_labels(qrels, lines, from_dict)
        for other in (from_columns, rank_run(frame, prepared), rank_run(frame.astype(object), prepared)):
            assert from_dict.labels.tolist() == other.labels.tolist()
            assert from_dict.offsets.tolist() == other.offsets.tolist()
            assert from_dict.docs.tolist() == other.docs.tolist()


def test_a_dataframe_run_checks_the_ids_of_queries_the_qrels_lack_too():
    run = frame()
    other = pd.DataFrame({"query_id": ["x", "x"], "doc_id": ["d1", "d\x00"], "score": [2.0, 1.0]})
    both = pd.concat([run, other], ignore_index=True)
    assert message(big_qrels(), both) == "run document ids must not hold a NUL character, found 'd\\x00'"
    other = pd.DataFrame({"query_id": ["x", "x"], "doc_id": ["d1", None], "score": [2.0, 1.0]}, dtype=object)
    both = pd.concat([run.astype(object), other], ignore_index=True).astype({"score": float})
    assert message(big_qrels(), both) == "run document ids must be strings or integers, found None (NoneType)"


@pytest.mark.parametrize("odd", [np.str_("d20000"), "repeat"])
def test_odd_or_repeated_document_ids_in_a_dataframe_run_take_the_general_path(odd):
    run = frame().astype(object).astype({"score": float})
    expected = ir_measures.calc_aggregate(MEASURES, big_qrels(), run)
    if odd == "repeat":  # a repeated (query, doc) line with a lower score: the last one wins
        run = pd.concat([run.iloc[:1].assign(score=0.5), run], ignore_index=True)
        with pytest.warns(UserWarning, match="run has 1 duplicate .* query 'q' document 'd0'"):
            assert ir_measures.calc_aggregate(MEASURES, big_qrels(), run) == expected
    else:
        run.loc[20_000, "doc_id"] = odd
        assert ir_measures.calc_aggregate(MEASURES, big_qrels(), run) == expected


def test_every_qrels_keeps_its_look_up_tables_in_label_order(tmp_path):
    """A dict run's judged labels are sliced from ``Qrels.labels`` by the look-up tables' order."""
    from ir_measures_pres.data.readers import read_qrels

    lines = [("q1", "b", 2), ("q2", "a", 1), ("q1", "a", 0), ("q1", "c", -1), ("q2", "z", 3)]
    path = tmp_path / "qrels.txt"
    path.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, r in lines))
    dup = pd.DataFrame(lines + [("q1", "b", 1)], columns=["query_id", "doc_id", "relevance"])
    nested: Dict[str, Dict[str, int]] = {}
    for q, d, r in lines:
        nested.setdefault(q, {})[d] = r
    built = [
        Qrels.from_any(nested),
        Qrels.from_any({"q1": {"b": np.int64(2), "a": 0, 7: 1}, "q2": {"a": True}}),  # converted
        Qrels.from_any(pd.DataFrame(lines, columns=["query_id", "doc_id", "relevance"])),
        Qrels.from_any(dup),  # a repeated pair: the last line wins
        Qrels.from_any(read_qrels(str(path), doc_ids="bytes")),  # bytes ids, tables made on first use
    ]
    for qrels in built:
        in_table_order = [label for table in qrels.lookup for label in table.values()]
        assert in_table_order == qrels.labels.tolist()
        assert np.diff(qrels.offsets).tolist() == [len(table) for table in qrels.lookup]


@pytest.mark.parametrize("dtype", ["object", "string", "str"])
def test_a_query_id_column_of_any_string_dtype_reads_the_same(dtype):
    """pandas' string dtypes are numbered by ``pandas.factorize`` (no Python string per line);
    the result equals the object column's: ids, codes in order of first appearance, names."""
    from ir_measures_pres.data.inputs import frame_columns, query_column

    qids = ["q2", "q1", "q2", "q10", "q1", "q1"]
    run = pd.DataFrame({"query_id": qids, "doc_id": list("abcdef"), "score": np.arange(6.0)})
    run = run.astype({"query_id": dtype})
    cols = frame_columns(run, "score", "run")
    ids, codes, names = query_column(np.array(qids, dtype=object), "run query id")
    assert cols.query_ids.tolist() == ids.tolist() == qids
    assert {type(q) for q in cols.query_ids.tolist()} == {str}
    assert cols.query_codes.tolist() == codes.tolist() == [0, 1, 0, 2, 1, 1]
    assert cols.query_names == names == ["q2", "q1", "q10"]
    with_nul = run.astype({"query_id": object})
    with_nul.loc[3, "query_id"] = "q\x00"
    assert message(big_qrels(), with_nul.astype({"query_id": dtype})) == (
        "run query ids must not hold a NUL character, found 'q\\x00'"
    )
    missing = run.astype({"query_id": object})
    missing.loc[3, "query_id"] = None
    with pytest.raises(InputError, match="run query ids must be strings or integers"):
        ir_measures.calc_aggregate(MEASURES, big_qrels(), missing.astype({"query_id": dtype}))


@pytest.mark.parametrize("text", ["1.5", b"1.5", "nan"])
def test_a_score_given_as_text_is_refused_in_a_dict_as_in_a_dataframe(text):
    """numpy would read '1.5' as 1.5; docs/conventions.md says text is an error (pytrec_eval
    refuses it too), as it is in DataFrames and files."""
    run = big_run()
    run["q"]["d30000"] = text
    expected = f"run query 'q', document 'd30000': expected a finite number as score, found {text!r}"
    assert message(big_qrels(), run) == expected
    frame_run = frame().astype({"score": object})
    frame_run.loc[30_000, "score"] = text
    assert message(big_qrels(), frame_run) == expected
