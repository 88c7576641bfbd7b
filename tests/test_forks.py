"""``data.forks.forked_map``: work spread over forked processes, results in order, as if run here."""

from __future__ import annotations

import os
import sys
from typing import List, Tuple

import pytest

from ir_measures_pres.data.forks import can_fork, forked_map, split

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks are used on Linux only")


@linux_only
def test_results_come_in_order_from_other_processes() -> None:
    offset = 1000  # a closure: the workers inherit it, nothing is pickled on the way in

    def work(x: int) -> Tuple[int, int]:
        return x + offset, os.getpid()

    results = list(forked_map(work, range(40), 3))
    assert [value for value, _ in results] == [x + 1000 for x in range(40)]
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids and 1 <= len(pids) <= 3


def test_one_process_runs_here() -> None:
    results = list(forked_map(lambda x: (x * 2, os.getpid()), [1, 2, 3], 1))
    assert results == [(2, os.getpid()), (4, os.getpid()), (6, os.getpid())]


@linux_only
def test_a_worker_does_not_fork_again() -> None:
    def inner(x: int) -> int:
        return os.getpid()

    def outer(x: int) -> Tuple[bool, List[int], int]:
        return can_fork(), list(forked_map(inner, range(4), 4)), os.getpid()

    for allowed, inner_pids, worker_pid in forked_map(outer, range(2), 2):
        assert not allowed and inner_pids == [worker_pid] * 4
    assert can_fork()


@linux_only
def test_an_error_in_a_worker_reaches_the_caller() -> None:
    def work(x: int) -> int:
        if x == 5:
            raise ValueError("item 5 is bad")
        return x

    with pytest.raises(ValueError, match="item 5 is bad"):
        list(forked_map(work, range(10), 2))


@pytest.mark.parametrize("n, parts", [(0, 3), (1, 3), (7, 3), (9, 3), (10, 1), (4, 8)])
def test_split_keeps_order_and_balance(n: int, parts: int) -> None:
    items = list(range(n))
    pieces = split(items, parts)
    assert [x for piece in pieces for x in piece] == items
    assert len(pieces) == max(1, min(parts, n))
    sizes = [len(p) for p in pieces]
    assert max(sizes) - min(sizes) <= 1
