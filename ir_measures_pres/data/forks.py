"""Work spread over forked processes: the package's one way to use more than one CPU (the
command's many runs, a large run's blocks of queries, a large run's batches for pytrec_eval,
which holds the GIL, so threads would not help).

A forked worker inherits everything prepared before the fork (the qrels, their evaluators, the
ranked run): nothing is pickled on the way in but an item, only the results come back. Fork
exists on POSIX systems only; on Linux it is used, elsewhere everything runs in this process.

**Faults end cleanly** (issue #28). ``multiprocessing.Pool`` loses the task of a worker that
dies (the out-of-memory killer's SIGKILL) and waits for its result forever; here each worker has
its own pipe and the parent waits on the pipes *and* on each worker's death at once
(``multiprocessing.connection.wait`` over the process sentinels), so a dead worker is noticed as
soon as it dies and raises :class:`WorkerLost` in the caller, after the other workers are ended.
Workers ignore Ctrl-C, die silently on SIGTERM (no traceback: the command that forked them stops
them, or the signal reached the whole process group), die with the parent should it be killed
(``PR_SET_PDEATHSIG``), never print, and never fork again: inside a worker :func:`forked_map`
runs in that worker. A worker is given a new item only when it has returned the last one, so
neither side can block the other on a full pipe. A stop signal's handler (:func:`stop`) notes
the stop before raising it: raised inside a finaliser it would be dropped, and the command
would go on; the note makes it stick (:func:`check_stop`, in the wait for results and when the
command returns).
"""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Tuple, TypeVar

__all__ = [
    "WorkerLost",
    "can_fork",
    "check_stop",
    "forget_stops",
    "forked_map",
    "in_worker",
    "split",
    "stop",
    "stop_dropped",
]

T = TypeVar("T")
R = TypeVar("R")

_in_worker = False

#: the stop (KeyboardInterrupt, the command's Terminated) a signal asked for, once asked
_stopping: List[type] = []


def stop(kind: type) -> None:
    """A stop signal's handler: note the stop, then raise it. Python runs a handler between any
    two bytecodes, also inside an object's ``__del__``, where what it raises is dropped
    ("Exception ignored"): the note keeps the stop (:func:`check_stop`)."""
    _stopping.append(kind)
    raise kind()


def forget_stops() -> None:
    """A command begins: no stop asked yet."""
    _stopping.clear()


def stop_dropped(kind: type) -> bool:
    """Whether ``kind`` is a stop a signal asked for (what a finaliser dropped is no bug)."""
    return kind in _stopping


def check_stop() -> None:
    """Raise the stop a signal asked for, should a finaliser have dropped it."""
    if _stopping:
        raise _stopping[0]()


class WorkerLost(RuntimeError):
    """A forked worker died before it returned its work: killed by a signal (most often SIGKILL
    from the out-of-memory killer) or ended by something else. The other workers are ended before
    this is raised; nothing the dead worker was doing is returned."""

    def __init__(self, exitcode: Optional[int]) -> None:
        self.exitcode = exitcode
        super().__init__(_death(exitcode) + "; rerun with --jobs 1 or more memory")


def _death(exitcode: Optional[int]) -> str:
    if exitcode is not None and exitcode < 0:
        number = -exitcode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = "an unknown signal"
        why = "often the out-of-memory killer" if number == signal.SIGKILL else name
        return f"a worker process was killed (signal {number}, {why})"
    return f"a worker process ended before returning its work (exit status {exitcode})"


def can_fork() -> bool:
    """Whether work can be spread over forked processes from here."""
    return sys.platform.startswith("linux") and not _in_worker


def in_worker() -> bool:
    """Whether this is a forked worker (its siblings have the other CPUs: it starts no threads)."""
    return _in_worker


def forked_map(
    work: Callable[[T], R], items: Iterable[T], processes: int, ahead: Optional[int] = None
) -> Iterator[R]:
    """``work(item)`` for each item, in order, computed by ``processes`` forked workers (or here,
    one after the other, when that is 1 or :func:`can_fork` says no).

    ``work`` may be any callable, a closure too; its results and exceptions must pickle (an
    exception raised by ``work`` is raised here, as ``map`` would). ``items``: a list or tuple
    (no more workers than items), or any iterable, read lazily, at most ``ahead`` items (default
    ``2 * processes``) handed out and not yet returned to the caller: the memory a stream of
    blocks takes is a few blocks. The workers are forked by this call, not on the first ``next``
    (so before the caller starts a thread, a progress bar's say). A worker's death raises
    :class:`WorkerLost`; closing the iterator early (an error, Ctrl-C, SIGTERM) ends the workers
    at once."""
    if isinstance(items, (list, tuple)):
        processes = min(processes, len(items))
    if processes < 2 or not can_fork():
        return map(work, items)
    workers = _Workers(work, processes)
    return workers.results(iter(items), max(processes, ahead or 2 * processes))


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


class _Workers:
    """``processes`` forked workers, each with its own duplex pipe, forked when made."""

    def __init__(self, work: Callable[[Any], Any], processes: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        for stream in (sys.stdout, sys.stderr):  # a fork copies unflushed output: flush it first
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        import threading

        # forked from the main thread, a worker dies with the parent (Linux ties that to the thread)
        main = threading.current_thread() is threading.main_thread()
        pipes = [context.Pipe() for _ in range(processes)]
        self.pipes = [here for here, _ in pipes]
        self.processes: List[Any] = []
        # SIGINT and SIGTERM wait until every worker is forked: a handler that raises inside
        # os.fork's callbacks is lost ("Exception ignored"), and the command would go on
        blocked = _block_stop_signals()
        try:
            for _, there in pipes:
                # a worker keeps only its own end: no other pipe stays open because of it
                others = [c.fileno() for pair in pipes for c in pair if c is not there]
                process = context.Process(target=_serve, args=(work, there, others, main), daemon=True)
                process.start()
                self.processes.append(process)
            for _, there in pipes:
                there.close()
        except BaseException:
            self.stop()
            raise
        finally:
            _unblock(blocked)

    def results(self, items: Iterator[Any], ahead: int) -> Iterator[Any]:
        """The results in the order of ``items``; ends the workers however it is left."""
        from multiprocessing.connection import wait

        idle = list(range(len(self.processes)))[::-1]
        busy: Dict[int, int] = {}  # worker -> index of its item
        waiting: Deque[Tuple[int, Any]] = deque()  # items read, not yet handed out
        returned: Dict[int, Tuple[bool, Any]] = {}
        read = given = 0  # items read from ``items``, results given to the caller
        exhausted = finished = False
        by_pipe: Dict[Any, int] = {pipe: k for k, pipe in enumerate(self.pipes)}
        by_sentinel: Dict[Any, int] = {p.sentinel: k for k, p in enumerate(self.processes)}
        try:
            while True:
                check_stop()
                # read ahead: the next items are ready (a stream's next blocks read) while workers work
                while not exhausted and read - given < ahead and len(waiting) <= len(idle):
                    try:
                        waiting.append((read, next(items)))
                    except StopIteration:
                        exhausted = True
                    else:
                        read += 1
                while idle and waiting:
                    k = idle.pop()
                    index, item = waiting.popleft()
                    try:
                        self.pipes[k].send((index, item))
                    except OSError:  # its pipe broke: it died (a broken pipe is not ours to report)
                        raise WorkerLost(self._exitcode(k)) from None
                    busy[k] = index
                if given in returned:
                    ok, value = returned.pop(given)
                    given += 1
                    if not ok:
                        raise value
                    yield value
                    continue
                if not busy:
                    if exhausted and not waiting:
                        finished = True
                        return
                    continue
                pipes = [self.pipes[k] for k in busy]
                ready = wait(pipes + [p.sentinel for p in self.processes])
                for handle in ready:  # results first: a worker may return and then die
                    if handle in by_pipe:
                        k = by_pipe[handle]
                        try:
                            index, ok, value = self.pipes[k].recv()
                        except (EOFError, OSError):
                            raise WorkerLost(self._exitcode(k)) from None
                        returned[index] = (ok, value)
                        del busy[k]
                        idle.append(k)
                for handle in ready:
                    if handle in by_sentinel:
                        raise WorkerLost(self._exitcode(by_sentinel[handle]))
        finally:
            self.stop(wait=finished)

    def _exitcode(self, k: int) -> Optional[int]:
        process = self.processes[k]
        process.join(5)
        return process.exitcode  # type: ignore[no-any-return]

    def stop(self, wait: bool = False) -> None:
        """End the workers: done (``wait``), they see their pipe close and leave; otherwise they
        are terminated at once (SIGTERM, then SIGKILL should one still live a second later)."""
        for pipe in self.pipes:
            pipe.close()
        if not wait:
            for process in self.processes:
                if process.exitcode is None:
                    process.terminate()
        for process in self.processes:
            process.join(5 if wait else 1)
            if process.exitcode is None:
                process.kill()
                process.join()


def _serve(work: Callable[[Any], Any], pipe: Any, others: List[int], with_parent: bool) -> None:
    """A worker's life: items in, ``(index, ok, result or exception)`` out, until its pipe
    closes. Leaves through ``os._exit``: no finaliser, no flush of the output buffers it
    inherited, no traceback, whatever happens."""
    global _in_worker
    _in_worker = True
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _unblock(_STOP_SIGNALS)  # blocked by the parent while it forked
        if with_parent:
            _die_with_parent()
        for fd in others:
            try:
                os.close(fd)
            except OSError:
                pass
        while True:
            try:
                index, item = pipe.recv()
            except (EOFError, OSError):
                break
            try:
                answer: Tuple[int, bool, Any] = (index, True, work(item))
            except BaseException as error:  # noqa: BLE001 - raised again in the parent
                answer = (index, False, error)
            try:
                pipe.send(answer)
            except (BrokenPipeError, ConnectionResetError):
                break
            except Exception as error:  # noqa: BLE001 - a result or exception that does not pickle
                pipe.send((index, False, RuntimeError(f"a worker's result could not be sent back: {error}")))
    finally:
        os._exit(0)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _block_stop_signals() -> Any:
    """Block SIGINT and SIGTERM in this thread; what to give :func:`_unblock` after."""
    if not hasattr(signal, "pthread_sigmask"):
        return set()
    return _STOP_SIGNALS - signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)


def _unblock(signals: Any) -> None:
    """Unblock ``signals``; one that arrived meanwhile is handled now."""
    if signals and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the process that forked it dies (SIGKILLed parents
    leave no workers behind)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request: nobody is left to serve
        os._exit(0)
