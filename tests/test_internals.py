"""The small public surfaces the kernels and the tool replicas use instead of reaching into
other objects: ``Qrels.doc_bytes`` / ``with_labels``, ``RankedRun.cached``, one sum in the tool's
order (``data.arrays.sum_in_order``) and one reading of Perl's numbers (``data.perl``)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from ir_measures_pres.data.arrays import ranks_within, sum_in_order, sums_in_order
from ir_measures_pres.data.inputs import Columns, object_array
from ir_measures_pres.data.perl import numeric_key, perl_number
from ir_measures_pres.data.qrels import ABSENT, Qrels
from ir_measures_pres.data.ranking import rank_run

PACKAGE = Path(__file__).resolve().parents[1] / "ir_measures_pres"


def sources():
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_reaches_into_another_objects_memo_or_lookup() -> None:
    """``x._cache`` / ``x._lookup`` only on ``self`` (the classes that own them)."""
    poking = re.compile(r"(?<!self)(?<!cls)\._(cache|lookup)\b")
    found = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in sources()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if poking.search(line)
    ]
    allowed = {"data/qrels.py", "data/ranking.py"}  # Qrels and RankedRun themselves
    assert [f for f in found if f.split(":")[0] not in allowed] == []


def test_one_regex_reads_perl_numbers_and_one_helper_sums_in_order() -> None:
    perl = [p for p in sources() if r"\d+\.?\d*|\.\d+" in p.read_text()]
    assert [p.relative_to(PACKAGE).as_posix() for p in perl] == ["data/perl.py"]
    tail_of_running_sum = re.compile(r"(cumsum|add\.accumulate)\(.*\)\[-1\]")
    found = [
        p.relative_to(PACKAGE).as_posix() for p in sources() if tail_of_running_sum.search(p.read_text())
    ]
    assert found == ["data/arrays.py"]


def test_sum_in_order_adds_left_to_right() -> None:
    values = [1e16] + [1.0] * 16 + [-1e16]
    total = 0.0
    for v in values:  # the tool's loop: 1e16 + 1 rounds to 1e16 (ties to even), 16 times
        total += v
    assert total == 0.0 and sum_in_order(values) == 0.0
    assert float(np.sum(values)) == 16.0  # numpy's partial sums add the ones apart
    assert sum_in_order([]) == 0.0 and str(sum_in_order([-0.0])) == "0.0"  # the loop starts at 0
    offsets = np.array([0, len(values), len(values), len(values) + 1])
    assert sums_in_order(np.array(values + [2.0]), offsets).tolist() == [0.0, 0.0, 2.0]


def test_perl_numbers() -> None:
    assert [perl_number(t) for t in ("303", " 12abc", "-1.5e2x", "abc", ".5")] == [303, 12, -150, 0, 0.5]
    assert sorted(["10", "9", "b", "a", "09"], key=numeric_key) == ["a", "b", "09", "9", "10"]


@pytest.mark.parametrize("as_bytes", [True, False])
def test_with_labels_keeps_topics_and_documents(as_bytes: bool) -> None:
    ids = np.array([b"a", b"b", b"c"]) if as_bytes else object_array(["a", "b", "c"])
    qrels = Qrels.from_any(Columns(object_array(["1", "1", "2"]), ids, np.array([1, 0, 2])))
    assert (qrels.doc_bytes is not None) == as_bytes
    entries = qrels.with_labels(np.arange(3))
    run = Columns(object_array(["1", "1", "2"]), object_array(["b", "x", "c"]), np.array([2.0, 1.0, 1.0]))
    ranked = rank_run(run, entries)
    assert ranked.labels.tolist() == [1, ABSENT, 2]  # each document's qrels entry
    assert ranked.cached("k", lambda: [1]) is ranked.cached("k", lambda: [2])  # made once


def test_ranks_within_counts_from_one_in_each_segment() -> None:
    # segments [0, 1), [1, 1) (empty), [1, 4), [4, 6)
    offsets = np.array([0, 1, 1, 4, 6])
    assert ranks_within(offsets).tolist() == [1, 1, 2, 3, 1, 2]
