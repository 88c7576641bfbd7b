"""statAP's prels reader (issue #29, spec judgements §1.1): each skip rule of
statAP_MQ_eval_v3.pl's reading loop, and the errors (file:line, expected, found).

The rules are those of the public script's 5-field loop: ``rel == -999`` skipped before its
topic is known; ``iprob`` ``NA``, below 0 or above 1, and ``rel < -999`` skipped after it;
methods 0 and 2 count with π = 1 and as UMass judgements, 1, 2 and 4 as NEU ones; ``rel >= 1``
relevant. Expected values are counted by hand from the lines written in each test.
"""

from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import needs_shared, shared_path

from ir_measures_pres.data.prels import prels_of, read_prels
from ir_measures_pres.data.readers import TrecFormatError, TrecFormatWarning


def _prels(tmp_path: Path, text: str, name: str = "prels"):
    path = tmp_path / name
    path.write_text(text)
    return read_prels(str(path))


def _rows(p, topic):
    i = p.index[topic]
    a, b = p.offsets[i], p.offsets[i + 1]
    return list(zip(p.docs[a:b].tolist(), p.rel[a:b].tolist(), p.method[a:b].tolist(), p.iprob[a:b].tolist()))


def test_five_columns_read_in_file_order(tmp_path: Path) -> None:
    p = _prels(tmp_path, "1 d1 1 1 0.5\n1 d2 0 1 0.25\n2 d3 2 1 1.000000\n")
    assert p.topics == ["1", "2"]
    assert _rows(p, "1") == [("d1", 1, 1, 0.5), ("d2", 0, 1, 0.25)]
    assert _rows(p, "2") == [("d3", 2, 1, 1.0)]
    assert p.sampled().tolist() == [2, 1]
    assert p.sampled_relevant().tolist() == [1, 1]  # grade 2 is relevant like grade 1
    assert p.r_hat().tolist() == [1 / 0.5, 1 / 1.0]
    assert p.neu.tolist() == [2, 1] and p.umass.tolist() == [0, 0]


def test_rel_minus_999_is_skipped_before_its_topic_is_known(tmp_path: Path) -> None:
    # topic 2 has only a -999 line: the tool never lists it
    p = _prels(tmp_path, "1 d1 1 1 0.5\n2 d2 -999 1 0.5\n1 d3 -999 1 0.5\n")
    assert p.topics == ["1"]
    assert _rows(p, "1") == [("d1", 1, 1, 0.5)]


def test_na_and_out_of_range_probabilities_are_skipped_but_make_the_topic_known(tmp_path: Path) -> None:
    text = (
        "1 d1 1 1 NA\n1 d2 1 1 -0.1\n1 d3 1 1 1.5\n1 d4 1 1 0.2\n1 d5 0 1 0\n2 d6 1 1 NA\n3 d7 -1000 1 0.5\n"
    )
    p = _prels(tmp_path, text)
    # NA, -0.1 and 1.5 skipped; 0 is kept (only below 0 is skipped; d5 is not relevant, so the
    # tool never divides by it); topics 2 and 3 are known with nothing kept (rel < -999 skipped)
    assert p.topics == ["1", "2", "3"]
    assert _rows(p, "1") == [("d4", 1, 1, 0.2), ("d5", 0, 1, 0.0)]
    assert p.sampled().tolist() == [2, 0, 0]
    assert p.neu.tolist() == [2, 0, 0]  # the skipped lines count for no method
    assert p.r_hat().tolist() == [1 / 0.2, 0.0, 0.0]


def test_methods_0_and_2_count_with_probability_1(tmp_path: Path) -> None:
    text = "1 d1 1 0 0.1\n1 d2 1 2 0.1\n1 d3 1 1 0.1\n1 d4 0 4 0.5\n1 d5 1 3 0.5\n1 d6 1 0 NA\n"
    p = _prels(tmp_path, text)
    # d6: NA is skipped before the method is looked at
    assert _rows(p, "1") == [
        ("d1", 1, 0, 1.0),
        ("d2", 1, 2, 1.0),
        ("d3", 1, 1, 0.1),
        ("d4", 0, 4, 0.5),
        ("d5", 1, 3, 0.5),
    ]
    assert p.umass.tolist() == [2]  # methods 0 and 2
    assert p.neu.tolist() == [3]  # methods 1, 2 and 4 (3 counts for neither)
    assert p.r_hat()[0] == pytest.approx(1 + 1 + 1 / 0.1 + 1 / 0.5)
    # a UMass document with π = 0 counts with π = 1: no division by zero
    q = _prels(tmp_path, "1 d1 1 0 0\n", "p2")
    assert q.r_hat().tolist() == [1.0]


def test_negative_rel_above_minus_999_is_a_judged_non_relevant_document(tmp_path: Path) -> None:
    p = _prels(tmp_path, "1 d1 -1 1 0.5\n1 d2 -998 1 0.5\n1 d3 1 1 0.5\n")
    assert p.sampled().tolist() == [3] and p.sampled_relevant().tolist() == [1]
    assert p.r_hat().tolist() == [2.0]


def test_comments_blank_lines_crlf_and_gzip(tmp_path: Path) -> None:
    p = _prels(tmp_path, "# a comment\n\n1 d1 1 1 0.5\r\n  \n1 d2 0 1 0.5")
    assert _rows(p, "1") == [("d1", 1, 1, 0.5), ("d2", 0, 1, 0.5)]
    path = tmp_path / "prels.gz"
    path.write_bytes(gzip.compress(b"1 d1 1 1 0.5\n"))
    assert read_prels(str(path)).topics == ["1"]


def test_a_document_twice_keeps_its_last_line_with_a_warning(tmp_path: Path) -> None:
    with pytest.warns(TrecFormatWarning, match=r"1 duplicate .*'d1' on lines 1, 3.*counts every line"):
        p = _prels(tmp_path, "1 d1 0 1 0.5\n1 d2 1 1 0.5\n1 d1 1 1 0.25\n")
    assert _rows(p, "1") == [("d2", 1, 1, 0.5), ("d1", 1, 1, 0.25)]


def test_a_topic_in_two_places_is_one_topic(tmp_path: Path) -> None:
    p = _prels(tmp_path, "1 d1 1 1 0.5\n2 d2 1 1 0.5\n1 d3 1 1 0.5\n")
    assert p.topics == ["1", "2"]
    assert [r[0] for r in _rows(p, "1")] == ["d1", "d3"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1 d1 1 1 0.5\n1 0 d2 1\n",
            "prels:2: expected 5 columns (topic docno rel method iprob), found 4: '1 0 d2 1' "
            "(a 4-column qrels line: a prels file has 5 columns)",
        ),
        (
            "1 Q0 d1 1 2.5 run\n",
            "prels:1: expected 5 columns (topic docno rel method iprob), found 6: '1 Q0 d1 1 2.5 run' "
            "(a 6-column run line: the prels file comes first, PRELS RUN)",
        ),
        ("1 d1 1 1 0.5 x y z\n", "prels:1: expected 5 columns (topic docno rel method iprob), found 8:"),
        ("1 d1 1.0 1 0.5\n", "prels:1: expected an integer in column 3 (rel), found '1.0'"),
        ("1 d1 1 x 0.5\n", "prels:1: expected an integer in column 4 (method), found 'x'"),
        (
            "1 d1 1 1 abc\n",
            "prels:1: expected a number or NA in column 5 (iprob, the inclusion probability), found 'abc'",
        ),
        ("1 d1 1 1 nan\n", "prels:1: expected a number or NA in column 5"),
        (
            "1 d1 1 1 0.5\n1 d2 1 1 0\n",
            "prels:2: expected an inclusion probability above 0 for a relevant document (column 5, "
            "iprob: statAP divides by it), found '0'",
        ),
        ("", "prels: expected prels lines (topic docno rel method iprob), found an empty file"),
        ("# only\n", "prels: expected prels lines (topic docno rel method iprob), found only comments"),
        ("1 d1 1 1 0.5\rx\n", "prels:1: expected lines ending with LF or CRLF, found a lone carriage return"),
    ],
)
def test_errors_name_file_line_expected_and_found(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TrecFormatError) as info:
        _prels(tmp_path, text)
    assert str(info.value).startswith(str(tmp_path / "prels") + message[len("prels") :])


def test_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_prels(str(tmp_path / "nowhere"))


def test_read_once_while_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "prels"
    path.write_text("1 d1 1 1 0.5\n")
    first = prels_of(str(path))
    assert prels_of(str(path)) is first
    path.write_text("1 d1 1 1 0.25\n1 d2 1 1 0.5\n")
    assert prels_of(str(path)).r_hat().tolist() == [4.0 + 2.0]


def test_as_qrels(tmp_path: Path) -> None:
    q = _prels(tmp_path, "1 d1 2 1 0.5\n1 d2 0 1 0.5\n2 d3 -1 1 1\n3 d4 1 1 NA\n").qrels()
    assert q == {"1": {"d1": 2, "d2": 0}, "2": {"d3": -1}, "3": {}}


@needs_shared("sampled-judgements")
def test_the_shared_prels_counts_match_the_tools_topic_lines() -> None:
    # the tool's 'Relevant=', 'sampled=' and 'sampled_relev=' of every topic (statap/*: the
    # same for every run)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = read_prels(str(shared_path("sampled-judgements", "prels")))
    text = shared_path("sampled-judgements", "statap", "input.InexpC2.statap").read_text()
    import re

    found = re.findall(r"topic=(\S+)  NEU \n\tRelevant=(\S+)  sampled=(\d+) sampled_relev=(\d+)", text)
    assert len(found) == len(p.topics) == 100
    r_hat, sampled, relevant = p.r_hat(), p.sampled(), p.sampled_relevant()
    for topic, rel, n, nrel in found:
        i = p.index[topic]
        assert (f"{r_hat[i]:f}", int(n), int(nrel)) == (rel, sampled[i], relevant[i])
    assert np.all(p.umass == 0) and np.all(p.neu == sampled)
