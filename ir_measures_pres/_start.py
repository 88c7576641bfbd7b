"""The command's first instant: SIGINT and SIGTERM end it quietly, with exit status 130 and 143,
while its modules load, before the command's own handlers are set (the stop policy:
:mod:`ir_measures_pres.runtime.stops`).

Importing the package loads ir_measures and numpy (a good part of a second): a Ctrl-C meanwhile
printed Python's ``KeyboardInterrupt`` traceback from deep inside an import. The package's
``__init__`` imports this module (the standard library's ``os`` and ``sys``, and the stop
policy's module, standard library only too) before anything else, and importing it calls
:func:`hold_stops`: when the process is the command, the handlers are set before anything heavy
loads. Nothing needs cleaning up yet (no worker, no output), so the process leaves at once.
Imported as a library, the package sets no handler.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

from .runtime.stops import leave_on_stops

PACKAGE = "ir_measures_pres"


def hold_stops() -> None:
    """When this process is the command: SIGTERM, and SIGINT unless it is ignored (a background
    job, ``nohup``), end it at once and quietly (:func:`~.runtime.stops.leave_on_stops`)."""
    if _is_command():
        leave_on_stops()


def _is_command() -> bool:
    """Whether this process is the command: ``python -m ir_measures_pres`` (or one of its modules),
    whose package is imported while ``sys.argv[0]`` is still ``-m``, or the console script, a file
    named ``ir_measures_pres``."""
    argv = getattr(sys, "argv", None) or [""]
    if argv[0] == "-m":
        module = _module_run(getattr(sys, "orig_argv", []))
        return module.split(".")[0] == PACKAGE
    return os.path.basename(argv[0]) in (PACKAGE, f"{PACKAGE}.exe", f"{PACKAGE}-script.py")


def _module_run(args: Sequence[str]) -> str:
    """The MODULE of the interpreter's command line ``args`` (``python [options] -m MODULE ...``),
    or ``""``: Python's short options may be joined (``-Im MODULE``, ``-mMODULE``); ``-c``,
    ``-m``, ``-W`` and ``-X`` take a value, joined or next."""
    k = 1
    while k < len(args):
        arg = args[k]
        if not arg.startswith("-") or arg == "-":  # a script, or standard input
            return ""
        if arg.startswith("--"):
            k += 2 if arg == "--check-hash-based-pycs" else 1
            continue
        for i, flag in enumerate(arg[1:], start=1):
            if flag in "cmWX":
                value = arg[i + 1 :]
                if flag == "m":
                    return value or (args[k + 1] if k + 1 < len(args) else "")
                if flag == "c":
                    return ""
                if not value:
                    k += 1  # the value is the next argument
                break
        k += 1
    return ""


hold_stops()
