"""Work spread over forked processes: the package's one way to use more than one CPU (the
command's many runs, a large run's blocks of queries, a large run's batches for pytrec_eval,
which holds the GIL, so threads would not help).

**Why a pool of its own.** Before Python 3.14 the standard library offers no pool that does
what the package needs. A forked worker must inherit everything prepared before the fork (the
qrels, their evaluators, the ranked run) and run a *closure* over it: nothing is pickled on the
way in but an item, only the results come back; ``ProcessPoolExecutor`` pickles the function it
is given (no closures), and forks its workers lazily, when the caller may already run threads.
It must bound what is on the way (*back-pressure*): a stream of blocks is read a few items
ahead, never whole; ``Executor.map`` submits every item at once. And it must notice a *death*:
``multiprocessing.Pool`` loses the task of a worker that dies (the out-of-memory killer's
SIGKILL) and waits for its result forever. Here each worker has its own pipe and the parent
waits on the pipes *and* on each worker's death at once (``multiprocessing.connection.wait``
over the process sentinels), so a dead worker is noticed as soon as it dies and raises
:class:`WorkerLost` in the caller, after the other workers are ended. Fork exists on POSIX
systems only; on Linux it is used, elsewhere everything runs in this process.

**Exceptions cross as they were.** An exception raised by the work in a worker is raised again
in the caller, of its type, with its arguments and attributes (every exception of the package
pickles and unpickles), the worker's traceback attached as its cause (as text, as
``concurrent.futures`` does).

**Stops end every worker.** Workers ignore Ctrl-C, die silently on SIGTERM (no traceback: the
command that forked them stops them, or the signal reached the whole process group), die with
the parent should it be killed (``PR_SET_PDEATHSIG``), never print, and never fork again:
inside a worker :func:`forked_map` runs in that worker. SIGINT and SIGTERM are held while the
workers are forked and while they are ended, so a stop at any instant of :func:`forked_map`
(or of closing its iterator) ends every worker before it reaches the caller. A worker is given a
new item only when it has returned the last one, so neither side can block the other on a full
pipe. The pool asks the stop check (:func:`~.stops.stop_point`: the command registers it, to
notice a stop a finaliser dropped) before each item it hands out and each wait for results. The
stop policy itself is :mod:`.stops`.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from typing import Any, Callable, Deque, Dict, Generator, Iterable, Iterator, List, Optional, Tuple, TypeVar

from .pickling import PicklesByParts
from .stops import STOP_SIGNALS, StopsHeld, set_stop_check, stop_point, unblock

__all__ = ["WorkerLost", "can_fork", "forked_map", "in_worker", "pools_running", "split"]

T = TypeVar("T")
R = TypeVar("R")

_in_worker = False
#: pools of this process whose workers live (:func:`pools_running`)
_running = 0


class WorkerLost(PicklesByParts, RuntimeError):
    """A forked worker died before it returned its work: killed by a signal (most often SIGKILL
    from the out-of-memory killer) or ended by something else. The other workers are ended before
    this is raised; nothing the dead worker was doing is returned. ``exitcode``: the worker's, as
    :attr:`multiprocessing.Process.exitcode` gives it (``-9``: killed by SIGKILL)."""

    PARTS = ("exitcode",)

    def __init__(self, exitcode: Optional[int]) -> None:
        self.exitcode = exitcode
        super().__init__(_death(exitcode))


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


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a forked worker, as text: the ``__cause__`` of
    that exception where :func:`forked_map` raises it again."""

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(text)

    def __str__(self) -> str:
        return f'\n"""\n{self.text}"""'


def can_fork() -> bool:
    """Whether work can be spread over forked processes from here."""
    return sys.platform.startswith("linux") and not _in_worker


def pools_running() -> int:
    """How many pools of this process have workers alive: a reader that could fork workers of its
    own reads on one core meanwhile (the CPUs are the pool's)."""
    return _running


def in_worker() -> bool:
    """Whether this is a forked worker (its siblings have the other CPUs: it starts no threads)."""
    return _in_worker


def forked_map(
    work: Callable[[T], R], items: Iterable[T], processes: int, ahead: Optional[int] = None
) -> Iterator[R]:
    """``work(item)`` for each item, in order, computed by ``processes`` forked workers (or here,
    one after the other, when that is 1 or :func:`can_fork` says no).

    ``work`` may be any callable, a closure too; its results must pickle. An exception raised by
    ``work`` is raised here, as ``map`` would, as it was (its traceback in the worker is its
    cause); one that does not pickle comes back as a ``RuntimeError`` naming it. ``items``: a
    list or tuple (no more workers than items), or any iterable, read lazily, at most ``ahead``
    items (default ``2 * processes``) handed out and not yet returned to the caller: the memory a
    stream of blocks takes is a few blocks. The workers are forked by this call, not on the first
    ``next`` (so before the caller starts a thread, a progress bar's say). A worker's death raises
    :class:`WorkerLost`; closing the iterator early, or dropping it, ends the workers at once, and
    so does a stop (Ctrl-C, SIGTERM) at any instant of this call."""
    if isinstance(items, (list, tuple)):
        processes = min(processes, len(items))
    if processes < 2 or not can_fork():
        return _here(work, items)
    source = iter(items)
    workers: Optional[_Workers] = None
    try:
        with StopsHeld():  # a stop waits until the workers exist and can be ended
            workers = _Workers(work, processes)  # if it fails, it has ended what it forked
            results = workers.results(source, max(processes, ahead or 2 * processes))
            next(results)  # started: closing or dropping the iterator from now on ends the workers
    except BaseException:  # a stop that came meanwhile is raised as the ``with`` ends
        if workers is not None:
            workers.stop()  # the workers end before it reaches the caller
        raise
    return results


def _here(work: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
    """``map(work, items)`` in this process, the stop check asked before each item."""
    for item in items:
        stop_point()
        yield work(item)


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
    """``processes`` forked workers, each with its own duplex pipe, forked when made (the caller
    holds SIGINT and SIGTERM meanwhile, :class:`StopsHeld`)."""

    def __init__(self, work: Callable[[Any], Any], processes: int) -> None:
        import multiprocessing
        import threading

        context = multiprocessing.get_context("fork")
        for stream in (sys.stdout, sys.stderr):  # a fork copies unflushed output: flush it first
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        # forked from the main thread, a worker dies with the parent (Linux ties that to the thread)
        main = threading.current_thread() is threading.main_thread()
        global _running
        _running += 1
        self.counted = True
        self.pipes: List[Any] = []
        self.processes: List[Any] = []
        pipes: List[Tuple[Any, Any]] = []
        try:
            for _ in range(processes):
                pipes.append(context.Pipe())
            self.pipes = [here for here, _ in pipes]
            for _, there in pipes:
                # a worker keeps only its own end: no other pipe stays open because of it
                others = [c.fileno() for pair in pipes for c in pair if c is not there]
                process = context.Process(target=_serve, args=(work, there, others, main), daemon=True)
                process.start()
                self.processes.append(process)
            for _, there in pipes:
                there.close()
        except BaseException:
            for _, there in pipes:
                there.close()
            self.stop()
            raise

    def results(self, items: Iterator[Any], ahead: int) -> Generator[Any, None, None]:
        """None (:func:`forked_map` starts the generator), then the results in the order of
        ``items``; ends the workers however it is left."""
        finished = False
        try:
            from multiprocessing.connection import wait

            idle = list(range(len(self.processes)))[::-1]
            busy: Dict[int, int] = {}  # worker -> index of its item
            waiting: Deque[Tuple[int, Any]] = deque()  # items read, not yet handed out
            returned: Dict[int, Tuple[bool, Any]] = {}
            read = given = 0  # items read from ``items``, results given to the caller
            exhausted = False
            by_pipe: Dict[Any, int] = {pipe: k for k, pipe in enumerate(self.pipes)}
            by_sentinel: Dict[Any, int] = {p.sentinel: k for k, p in enumerate(self.processes)}
            yield None
            while True:
                stop_point()
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
                        error, remote = value
                        error.__cause__ = _RemoteTraceback(remote)
                        raise error
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
        are terminated at once (SIGTERM, then SIGKILL should one still live a second later).
        SIGINT and SIGTERM are held meanwhile: a stop arriving now is raised once all are ended.
        Each ended process is closed here too: its finaliser (multiprocessing's ``close_fds``)
        would otherwise run whenever the process object is collected, and a stop landing inside
        it is lost ("Exception ignored"). A second call does nothing."""
        global _running
        if getattr(self, "counted", False):
            self.counted = False
            _running -= 1
        with StopsHeld():
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
                process.close()
            self.processes = []


def _serve(work: Callable[[Any], Any], pipe: Any, others: List[int], with_parent: bool) -> None:
    """A worker's life: items in, ``(index, ok, result or (exception, traceback text))`` out,
    until its pipe closes. Leaves through ``os._exit``: no finaliser, no flush of the output
    buffers it inherited, no traceback, whatever happens."""
    global _in_worker
    _in_worker = True
    set_stop_check(None)  # the command's check is the parent's
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        unblock(STOP_SIGNALS)  # blocked by the parent while it forked
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
                answer = (index, False, _failure(error))
            try:
                pipe.send(answer)
            except (BrokenPipeError, ConnectionResetError):
                break
            except Exception as error:  # noqa: BLE001 - a result that does not pickle
                failure = RuntimeError(f"a worker's result could not be sent back: {error}")
                pipe.send((index, False, _failure(failure)))
    finally:
        os._exit(0)


def _failure(error: BaseException) -> Tuple[BaseException, str]:
    """What a worker sends back for ``error``: the exception itself, when it survives the trip (a
    ``RuntimeError`` naming it, when it does not), and its traceback as text."""
    import traceback
    from multiprocessing.reduction import ForkingPickler

    remote = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    try:
        ForkingPickler.loads(ForkingPickler.dumps(error))
    except Exception as problem:  # noqa: BLE001 - any exception type of any caller's work
        error = RuntimeError(
            f"{type(error).__name__}: {error} (raised in a worker process; the exception could not "
            f"be sent back: {problem})"
        )
    return error, remote


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
