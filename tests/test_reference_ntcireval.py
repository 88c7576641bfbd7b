"""Sakai's measures against NTCIREVAL's own outputs (tests/data/ntcireval, see its README).

Every ``O-measure``, ``P-measure``, ``P-plus``, ``Q-measure`` and ``Q@k`` line of every topic of
every NTCIREVAL output in tests/data is compared with our value, to 1e-4 (NTCIREVAL prints four
decimals). How each output was made (tests/data/ntcireval/README.md):

* ``generated/graded``: ``compute -g 1:2:3 -cutoffs 1,5,10,20``; the run file is already in
  trec_eval order, so NTCIREVAL's file order is our order. ``ntcir.g123.condensed.nev`` was made
  with ``label -j`` / ``compute -j``: our ``judged_only=True``.
* ``generated/sakai_example``: Sakai's S/A/B example, ``-g 1:2:3 -cutoffs 1,2,3,5``.
* ``upstream``: NTCIREVAL 190111's sample (``-g 1:2:3``, optionally ``-cutoffs 1,10,100,1000``) and
  its 3-topic binary collection with ``-g 1:2 -cutoffs 10,1000``, i.e. ``gains={1: 1, 2: 2}``.
  These files carry no licence, so they are not in tests/data: they are read from
  ``../shared/data/ntcireval/upstream`` and their cases skip when it is absent.
* ``pyntcireval_tests``: ``compute -r sample.rel -g 1:2:3 sample.lab`` (``_grade``: ``-g 1:4:9``;
  ``_cutoff``: ``-cutoffs 2``; ``_label_j``: the condensed list ``sample-j.lab``).

NTCIREVAL ranks in file order. The .res/.lab lists have no scores: they are given strictly
descending scores in file order. Unjudged documents (absent from the rel file) count as
non-relevant that occupy a rank, as in NTCIREVAL without ``-j``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import ir_measures
import pytest
from _readers import (
    Qrels,
    Run,
    ranked_list_to_run,
    read_nev,
    read_nev_headers,
    read_ntcir_list,
    read_ntcir_qrels,
    read_ntcir_rel,
    read_qrels,
    read_run,
    trec_order,
)
from conftest import DATA, needs_shared, shared_path

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres import OMeasure, PMeasure, PPlusMeasure, QMeasure

NTC = DATA / "ntcireval"
TOL = 1e-4

#: NTCIREVAL line name -> our measure (Q@k lines are handled by pattern)
_NAMED = {"O-measure": OMeasure, "P-measure": PMeasure, "P-plus": PPlusMeasure, "Q-measure": QMeasure}
_Q_AT = re.compile(r"^Q@(\d+)$")

#: topic name used for NTCIREVAL's single-topic sample (its output lines have an empty topic)
SAMPLE = "sample"


@dataclass(frozen=True)
class Case:
    """One NTCIREVAL output and the inputs it was made from."""

    name: str
    load: Callable[[], tuple[Qrels, Run]]
    nev: Path
    gains: dict[int, int] | None = None
    judged_only: bool = False
    #: NTCIREVAL topic name -> our query id
    topics: dict[str, str] = field(default_factory=dict)
    #: marks of the case's tests (UPSTREAM: skip when its files in ../shared/data are absent)
    marks: tuple[Any, ...] = ()

    def qid(self, topic: str) -> str:
        return self.topics.get(topic, topic)


def _trec(qrels: Path, run: Path) -> Callable[[], tuple[Qrels, Run]]:
    return lambda: (read_qrels(qrels), read_run(run))


def _single(rel: Path, ranked: Path) -> Callable[[], tuple[Qrels, Run]]:
    """A bare NTCIREVAL rel file + res/lab list as one topic named SAMPLE."""
    return lambda: ({SAMPLE: read_ntcir_rel(rel)}, {SAMPLE: ranked_list_to_run(read_ntcir_list(ranked))})


def _upstream_trecrun() -> tuple[Qrels, Run]:
    return read_ntcir_qrels(_U / "test.qrels"), read_run(_U / "TRECRUN")


_G = NTC / "generated" / "graded"
_S = NTC / "generated" / "sakai_example"
_U = shared_path("ntcireval", "upstream")  # no licence: not copied into tests/data
UPSTREAM = (needs_shared("ntcireval", "upstream"),)
_P = NTC / "pyntcireval_tests"
_ONE = {"": SAMPLE}

CASES: list[Case] = [
    Case("graded", _trec(_G / "qrels.graded.trec", _G / "run.graded.trec"), _G / "ntcir.g123.nev"),
    Case(
        "graded-condensed",
        _trec(_G / "qrels.graded.trec", _G / "run.graded.trec"),
        _G / "ntcir.g123.condensed.nev",
        judged_only=True,
    ),
    Case("sakai-X", _trec(_S / "qrels.trec", _S / "run_X.trec"), _S / "X.g123.out"),
    Case("sakai-Y", _trec(_S / "qrels.trec", _S / "run_Y.trec"), _S / "Y.g123.out"),
    Case(
        "upstream-sample",
        _single(_U / "sample.rel", _U / "sample.res"),
        _U / "sample.g123.190111.out",
        topics=_ONE,
        marks=UPSTREAM,
    ),
    Case(
        "upstream-sample-explicit-gains",
        _single(_U / "sample.rel", _U / "sample.res"),
        _U / "sample.g123.190111.out",
        gains={1: 1, 2: 2, 3: 3},
        topics=_ONE,
        marks=UPSTREAM,
    ),
    Case(
        "upstream-sample-cutoffs",
        _single(_U / "sample.rel", _U / "sample.res"),
        _U / "sample.g123.cutoffs_1_10_100_1000.190111.out",
        topics=_ONE,
        marks=UPSTREAM,
    ),
    Case(
        "upstream-trecrun-g12",
        _upstream_trecrun,
        _U / "TRECRUN.test.nev",
        gains={1: 1, 2: 2},
        marks=UPSTREAM,
    ),
    Case(
        "pyntcireval-compute",
        _single(_P / "sample.rel", _P / "sample.lab"),
        _P / "res_test_compute.txt",
        topics=_ONE,
    ),
    Case(
        "pyntcireval-grade-149",
        _single(_P / "sample.rel", _P / "sample.lab"),
        _P / "res_test_compute_grade.txt",
        gains={1: 1, 2: 4, 3: 9},
        topics=_ONE,
    ),
    Case(
        "pyntcireval-cutoff-2",
        _single(_P / "sample.rel", _P / "sample.lab"),
        _P / "res_test_compute_cutoff.txt",
        topics=_ONE,
    ),
    Case(
        "pyntcireval-label-j",
        _single(_P / "sample.rel", _P / "sample-j.lab"),
        _P / "res_test_compute_label_j.txt",
        topics=_ONE,
    ),
    # the same condensed output, condensing ourselves: -j == judged_only=True
    Case(
        "pyntcireval-label-j-via-judged_only",
        _single(_P / "sample.rel", _P / "sample.lab"),
        _P / "res_test_compute_label_j.txt",
        judged_only=True,
        topics=_ONE,
    ),
]
BY_CASE = {c.name: c for c in CASES}


def measure_for(line: str, case: Case) -> Any | None:
    """Our measure for an NTCIREVAL output line name (None for lines we do not implement)."""
    params: dict[str, Any] = {}
    if case.gains is not None:
        params["gains"] = case.gains
    if case.judged_only:
        params["judged_only"] = True
    if line in _NAMED:
        return _NAMED[line](**params) if params else _NAMED[line]
    m = _Q_AT.match(line)
    if m:
        return QMeasure(cutoff=int(m.group(1)), **params)
    return None


@cache
def _inputs(case_name: str) -> tuple[Qrels, Run]:
    return BY_CASE[case_name].load()


@cache
def ours(case_name: str) -> dict[tuple[str, str], float]:
    """(NTCIREVAL line name, our query id) -> our value, all measures of the case at once."""
    case = BY_CASE[case_name]
    qrels, run = _inputs(case_name)
    names = {name for lines in read_nev(case.nev).values() for name in lines}
    measures = {name: m for name in names if (m := measure_for(name, case)) is not None}
    by_measure = {m: name for name, m in measures.items()}
    out: dict[tuple[str, str], float] = {}
    for metric in ir_measures.iter_calc(list(measures.values()), qrels, run):
        out[(by_measure[metric.measure], metric.query_id)] = metric.value
    return out


def _cases() -> list[Any]:
    return [pytest.param(case.name, id=case.name, marks=case.marks) for case in CASES]


def _params() -> list[Any]:
    params = []
    for case in CASES:
        if case.marks and not case.nev.exists():  # its shared folder is absent: one skipped test
            params.append(pytest.param(case.name, "", id=case.name, marks=case.marks))
            continue
        names = sorted(
            {n for lines in read_nev(case.nev).values() for n in lines if measure_for(n, case) is not None}
        )
        params += [pytest.param(case.name, n, id=f"{case.name}:{n}", marks=case.marks) for n in names]
    return params


@pytest.mark.parametrize("case_name,line", _params())
def test_matches_ntcireval(case_name: str, line: str) -> None:
    """Our value equals NTCIREVAL's for every topic of the output (to its 4 printed decimals)."""
    case = BY_CASE[case_name]
    expected = read_nev(case.nev)
    got = ours(case_name)
    compared = 0
    wrong = []
    for topic, lines in expected.items():
        if line not in lines:
            continue
        value = got[(line, case.qid(topic))]
        compared += 1
        if abs(value - lines[line]) > TOL:
            wrong.append(f"topic {topic!r}: ours {value:.6f} NTCIREVAL {lines[line]:.4f}")
    assert compared == len(expected), f"{line} missing for some topics of {case.nev.name}"
    assert not wrong, f"{case.nev.name} {line} ({measure_for(line, case)}): " + "; ".join(wrong)


@pytest.mark.parametrize("case_name", _cases())
def test_every_case_compares_the_four_measures(case_name: str) -> None:
    """Each output has the four base measures, and the cutoff outputs have their Q@k lines."""
    case = BY_CASE[case_name]
    names = {n for lines in read_nev(case.nev).values() for n in lines}
    assert set(_NAMED) <= names
    if case_name == "upstream-sample-cutoffs":
        assert {n for n in names if _Q_AT.match(n)} == {"Q@0001", "Q@0010", "Q@0100", "Q@1000"}
    if case_name == "pyntcireval-cutoff-2":
        assert "Q@0002" in names


@pytest.mark.parametrize("case_name", _cases())
def test_inputs_match_ntcireval_headers(case_name: str) -> None:
    """Sanity of the data reading: NTCIREVAL's ``# syslen jrel jnonrel r1 rp`` header lines equal
    what the test sees in the inputs (list length after condensing, relevant and judged
    non-relevant counts, rank of the first relevant and the preferred rank by level)."""
    case = BY_CASE[case_name]
    qrels, run = _inputs(case_name)
    headers = read_nev_headers(case.nev)
    assert headers
    for topic, head in headers.items():
        qid = case.qid(topic)
        judged = qrels[qid]
        ranked = trec_order(run.get(qid, {}), judged, case.judged_only)
        levels = [max(judged.get(d, 0), 0) for d in ranked]
        top = max(levels, default=0)
        assert head["syslen"] == len(ranked), topic
        assert head["jrel"] == sum(v >= 1 for v in judged.values()), topic
        assert head["jnonrel"] == sum(v == 0 for v in judged.values()), topic
        assert head["r1"] == next((i + 1 for i, v in enumerate(levels) if v >= 1), 0), topic
        assert head["rp"] == (levels.index(top) + 1 if top >= 1 else 0), topic


def test_condensed_list_equals_judged_only() -> None:
    """NTCIREVAL's ``-j`` list (sample-j.lab) is our condensed view of sample.lab."""
    rel = read_ntcir_rel(_P / "sample.rel")
    lab = read_ntcir_list(_P / "sample.lab")
    assert [d for d in lab if d in rel] == read_ntcir_list(_P / "sample-j.lab")
