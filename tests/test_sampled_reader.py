"""Reading sampled judgements (sample_eval.pl's 5-column qrels): strata kept, widths checked.

The 4-column behaviour is covered by tests/test_io.py (unchanged); the messages for a line of the
other width are in its ``test_malformed_qrels``.
"""

import io
import warnings

import numpy as np
import pandas as pd
import pytest

from ir_measures_pres.data.qrels import Qrels
from ir_measures_pres.data.readers import TrecFormatWarning, read_qrels

SAMPLED = b"""# a comment first: the first judgement line decides the width
q1 0 d1 A 1
q1 0 d2 B -1
q2 0 d3 10 0
q1 0 d4 A 2
"""


@pytest.mark.parametrize("doc_ids", ["str", "bytes"])
def test_strata_are_kept_line_by_line(doc_ids: str) -> None:
    cols = read_qrels(io.BytesIO(SAMPLED), doc_ids=doc_ids)
    assert cols.kind == "qrels"
    assert cols.strata is not None
    assert cols.strata.tolist() == ["A", "B", "10", "A"]
    assert cols.values.tolist() == [1, -1, 0, 2]
    qrels = Qrels.from_any(cols)  # grouped by query: q1's lines, then q2's
    assert qrels.query_ids == ["q1", "q2"]
    assert qrels.labels.tolist() == [1, -1, 2, 0]
    assert qrels.strata is not None and qrels.strata.tolist() == ["A", "B", "A", "10"]


def test_four_columns_have_no_strata() -> None:
    cols = read_qrels(io.BytesIO(b"q1 0 d1 1\nq1 0 d2 0\n"))
    assert cols.strata is None
    assert Qrels.from_any(cols).strata is None


def test_duplicate_keeps_the_last_line_and_its_stratum() -> None:
    data = b"q 0 d1 A 1\nq 0 d2 B 0\nq 0 d1 C 0\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cols = read_qrels(io.BytesIO(data))
    assert any(issubclass(w.category, TrecFormatWarning) for w in caught)
    pairs = sorted(zip(cols.doc_ids.tolist(), cols.strata.tolist(), cols.values.tolist()))
    assert pairs == [("d1", "C", 0), ("d2", "B", 0)]


def test_dataframe_with_a_stratum_column() -> None:
    df = pd.DataFrame(
        {
            "query_id": ["q1", "q2", "q1"],
            "doc_id": ["a", "b", "c"],
            "relevance": [1, 0, -1],
            "stratum": ["s1", "s2", "s2"],
        }
    )
    qrels = Qrels.from_any(df)
    assert qrels.strata is not None
    assert list(zip(qrels.labels.tolist(), qrels.strata.tolist())) == [(1, "s1"), (-1, "s2"), (0, "s2")]


def test_dataframe_duplicates_keep_the_last_stratum() -> None:
    df = pd.DataFrame(
        {
            "query_id": ["q", "q", "q"],
            "doc_id": ["a", "b", "a"],
            "relevance": [1, 0, 0],
            "stratum": ["x", "y", "z"],
        }
    )
    qrels = Qrels.from_any(df)
    assert qrels.strata is not None
    assert dict(zip(qrels.lookup[0], qrels.strata.tolist())) == {"a": "z", "b": "y"}
    assert np.array_equal(qrels.labels, np.array([0, 0]))
