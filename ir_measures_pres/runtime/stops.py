"""The stop policy: what SIGINT (Ctrl-C) and SIGTERM (``kill``, ``timeout``, a cluster's time
limit) do to the package's command, from its first instant to its exit. Standard library only:
the start-up handlers are set from here before numpy loads (:mod:`ir_measures_pres._start`).

* **While the modules load** (:func:`leave_on_stops`, set when the process is the command):
  nothing needs cleaning up yet (no worker, no output), so a stop ends the process at once and
  quietly with the shells' status, 128 + the signal (:func:`leave`): no ``KeyboardInterrupt``
  traceback from deep inside an import.
* **While a command runs** (:class:`CommandStops`, which the command registers,
  :func:`~ir_measures_pres.cli._command.guarded`): SIGTERM raises :class:`Terminated` and SIGINT
  ``KeyboardInterrupt`` in the main thread. Python runs a handler between any two bytecodes, also
  inside an object's ``__del__``, where what it raises is dropped ("Exception ignored"): each
  stop is therefore *noted* as well, and :func:`check_stop` raises it again. The note is the
  work's stop check (:func:`set_stop_check`), which the process pool and the readers ask at
  each :func:`stop_point` (before each item handed out, each wait for workers, each block of a
  run, each input opened), and which the command asks as it returns.
* **Where a stop must wait** (:class:`StopsHeld`): forking the workers and ending them,
  argparse's intermixed parse; the stop is raised as the block ends.
* **At the exit** (:func:`end`): after a stop the process leaves at once, its output flushed.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any, Callable, Dict, List, NoReturn, Optional

__all__ = [
    "STOPPED",
    "STOP_SIGNALS",
    "CommandStops",
    "StopsHeld",
    "Terminated",
    "catch_stops",
    "check_stop",
    "end",
    "leave",
    "leave_on_stops",
    "set_stop_check",
    "stop_point",
    "unblock",
]

#: the exit statuses of a stop: the shells' 128 + SIGINT and 128 + SIGTERM
STOPPED = (128 + signal.SIGINT, 128 + signal.SIGTERM)

#: the signals that stop the command
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


# --------------------------------------------------------------------------------------------
# while the modules load, and at the exit
# --------------------------------------------------------------------------------------------


def leave_on_stops() -> None:
    """The start-up policy: SIGTERM, and SIGINT unless it is ignored (a background job,
    ``nohup``), end the process at once and quietly (:func:`leave`)."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, leave)
    signal.signal(signal.SIGTERM, leave)


def leave(signum: int, frame: Any) -> None:
    """The start-up handler: exit at once with the shells' status, 128 + the signal."""
    os._exit(128 + signum)


def end(status: int) -> NoReturn:
    """End the command's process (``python -m ir_measures_pres``, ``python -m
    ir_measures_pres.meta``) with ``status``. After a stop (130, 143) the process leaves at once,
    its output flushed, without the interpreter's finalisation, for two reasons:

    * CPython (3.8 to 3.13, ``Py_RunMain``) ends a ``-m`` process by SIGINT instead of with its
      status when a KeyboardInterrupt went through code run from a string (``exec``/``eval``:
      each dataclass and namedtuple made while the modules load) even though it was caught
      afterwards: a Ctrl-C at that instant was reported as a death by signal, not 130;
    * the finalisation waits for the threads still running, one of which may be blocked on an
      input that never comes (a FIFO, a stalled pipe).

    The workers are ended before (:func:`~ir_measures_pres.cli._command.guarded`)."""
    if status in STOPPED:
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
    sys.exit(status)


# --------------------------------------------------------------------------------------------
# while a command runs
# --------------------------------------------------------------------------------------------


class Terminated(BaseException):
    """SIGTERM arrived (``kill``, ``timeout``, a cluster's time limit): the command stops as it
    does on Ctrl-C, quietly, its workers ended, with exit status 143."""


#: the stops (KeyboardInterrupt, Terminated) a signal asked for while the command runs
_stopping: List[type] = []


def _stop(kind: type) -> None:
    """A stop signal's handler: note the stop, then raise it. Python runs a handler between any
    two bytecodes, also inside an object's ``__del__``, where what it raises is dropped
    ("Exception ignored"): the note keeps the stop, raised again at the next run or block
    (:func:`check_stop`)."""
    _stopping.append(kind)
    raise kind()


def _on_sigterm(signum: int, frame: Any) -> None:
    _stop(Terminated)


def _on_sigint(signum: int, frame: Any) -> None:
    _stop(KeyboardInterrupt)


def check_stop() -> None:
    """Raise the stop a signal asked for, should something have dropped it. :class:`CommandStops`
    registers it as the work's stop check (:func:`set_stop_check`: asked before each item of the
    process pool, each wait for its workers and after each block of a run), and the command asks
    it when it returns."""
    if _stopping:
        raise _stopping[0]()


def catch_stops(replaced: Dict[int, Any]) -> None:
    """While a command runs, SIGTERM raises :class:`Terminated` and SIGINT KeyboardInterrupt in
    the main thread, each noted so that a finaliser cannot drop it (:func:`_stop`); an ignored
    SIGINT (a background job, ``nohup``) stays ignored, and so does a caller's own handler.
    Each handler replaced goes into ``replaced`` the moment it is, to be put back after; none
    where signals cannot be caught (not the main thread)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    replaced[signal.SIGTERM] = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _on_sigterm)
    if signal.getsignal(signal.SIGINT) in (signal.default_int_handler, leave):
        replaced[signal.SIGINT] = signal.getsignal(signal.SIGINT)
        signal.signal(signal.SIGINT, _on_sigint)


class CommandStops:
    """``with CommandStops() as stops:`` the policy of a running command, registered for the
    block: no stop noted yet, :func:`check_stop` as the work's stop check, a stop a finaliser
    dropped kept quiet (not printed by ``sys.unraisablehook``); :meth:`catch` sets the handlers
    (:func:`catch_stops`; called inside the command's ``try``, so that a stop the moment a handler
    is set is the command's). Everything is put back as the block ends, the note cleared: a
    caller in-process goes on."""

    def __enter__(self) -> "CommandStops":
        _stopping.clear()  # the command begins: no stop asked yet
        self.previous_hook = sys.unraisablehook
        self.previous_check = set_stop_check(check_stop)
        self.replaced: Dict[int, Any] = {}
        sys.unraisablehook = self._quiet_stops
        return self

    def _quiet_stops(self, unraisable: Any) -> None:
        """A stop a finaliser dropped: kept (noted), not printed."""
        if unraisable.exc_type not in _stopping:
            self.previous_hook(unraisable)

    def catch(self) -> None:
        catch_stops(self.replaced)

    def __exit__(self, *exc_info: Any) -> None:
        sys.unraisablehook = self.previous_hook
        set_stop_check(self.previous_check)
        _stopping.clear()  # the note lives as long as the command: a caller in-process goes on
        for number, handler in self.replaced.items():
            signal.signal(number, handler)


# --------------------------------------------------------------------------------------------
# the work's stop points, and where a stop waits
# --------------------------------------------------------------------------------------------

#: called at each :func:`stop_point` (:func:`set_stop_check`)
_stop_check: Optional[Callable[[], None]] = None


def set_stop_check(check: Optional[Callable[[], None]]) -> Optional[Callable[[], None]]:
    """Have :func:`stop_point` call ``check()`` (None: nothing); whatever it raises ends the
    workers and reaches the caller. The command registers :func:`check_stop`
    (:class:`CommandStops`); a forked worker registers none (the check is its parent's). Returns
    the check it replaces, to put back after."""
    global _stop_check
    previous, _stop_check = _stop_check, check
    return previous


def stop_point() -> None:
    """A point where the work may stop: calls the stop check registered (:func:`set_stop_check`),
    if any. The pool calls it before each item it hands out and each wait for results; a loop
    that works here (a run's blocks) calls it between its items."""
    check = _stop_check
    if check is not None:
        check()


class StopsHeld:
    """``with StopsHeld():`` SIGINT and SIGTERM wait until the block ends, then are handled as
    they would have been (their handler raises the stop as the block ends). Blocking them in this
    thread is not enough: another thread (a progress bar's, a notebook's) may take the signal, and
    Python then runs the handler in the main thread all the same, inside ``os.fork``'s callbacks
    too, where what it raises is lost. So in the main thread their Python handlers are replaced
    by a note while the block runs; and they are blocked in this thread too, so that a worker
    forked meanwhile starts with them blocked, until it has set its own
    (:func:`~ir_measures_pres.runtime.pool.forked_map`'s workers)."""

    def __enter__(self) -> "StopsHeld":
        import threading

        self.noted: List[int] = []
        self.replaced: Dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for number in sorted(STOP_SIGNALS):
                handler = signal.getsignal(number)
                if callable(handler):  # a Python handler (SIG_DFL and SIG_IGN act in the kernel)
                    self.replaced[number] = handler
                    signal.signal(number, self._note)
        self.blocked = (
            STOP_SIGNALS - signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
            if hasattr(signal, "pthread_sigmask")
            else set()
        )
        return self

    def _note(self, number: int, frame: Any) -> None:
        self.noted.append(number)

    def __exit__(self, *exc_info: Any) -> None:
        unblock(self.blocked)  # a blocked signal arrives now, and is noted
        for number, handler in self.replaced.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(self.noted):
            self.replaced[number](number, None)  # the stop the handler raises, now


def unblock(signals: Any) -> None:
    """Unblock ``signals``; one that arrived meanwhile is handled now."""
    if signals and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)
