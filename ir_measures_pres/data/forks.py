"""Work spread over forked processes: the command's many runs, and a large run's batches of
queries for pytrec_eval (which holds the GIL, so threads would not help).

A forked worker inherits everything prepared before the fork (the qrels, their evaluators, the
ranked run): nothing is pickled on the way in but an item, only the results come back. Workers
ignore Ctrl-C (the command stops them and exits 130 quietly) and never fork again: inside a
worker :func:`forked_map` runs in that worker. Fork exists on POSIX systems only; on Linux it is
used, elsewhere everything runs in this process.
"""

from __future__ import annotations

import signal
import sys
from typing import Any, Callable, Dict, Iterable, Iterator, List, TypeVar

__all__ = ["can_fork", "forked_map", "in_worker", "split"]

T = TypeVar("T")
R = TypeVar("R")

#: the work of the pools under way, by key: forked workers inherit it (nothing is pickled)
_WORK: Dict[int, Callable[[Any], Any]] = {}
_in_worker = False


def can_fork() -> bool:
    """Whether work can be spread over forked processes from here."""
    return sys.platform.startswith("linux") and not _in_worker


def in_worker() -> bool:
    """Whether this is a forked worker (its siblings have the other CPUs: it starts no threads)."""
    return _in_worker


def forked_map(work: Callable[[T], R], items: Iterable[T], processes: int) -> Iterator[R]:
    """``work(item)`` for each item, in order, computed by ``processes`` forked workers (or here,
    one after the other, when that is 1 or :func:`can_fork` says no). ``work`` may be any
    callable, a closure too; its results must pickle. The workers are forked by this call, not
    on the first ``next`` (so before the caller starts a thread, a progress bar's say)."""
    items = list(items)
    processes = min(processes, len(items))
    if processes < 2 or not can_fork():
        return map(work, items)
    import multiprocessing

    key = id(work)
    _WORK[key] = work
    try:
        pool = multiprocessing.get_context("fork").Pool(processes, initializer=_become_worker)
    except BaseException:
        del _WORK[key]
        raise
    return _results(pool, key, items)


def _results(pool: Any, key: int, items: List[Any]) -> Iterator[Any]:
    try:
        with pool:  # leaving it (done, an error, Ctrl-C, a closed pipe) ends the workers
            yield from pool.imap(_run, [(key, item) for item in items])
    finally:
        _WORK.pop(key, None)


def split(items: List[T], parts: int) -> List[List[T]]:
    """``items`` cut into at most ``parts`` contiguous runs of nearly equal length, in order."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    out, a = [], 0
    for k in range(parts):
        b = a + size + (k < extra)
        out.append(items[a:b])
        a = b
    return out


def _become_worker() -> None:
    global _in_worker
    _in_worker = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(keyed: Any) -> Any:
    key, item = keyed
    return _WORK[key](item)
