"""The command line: one module per command and the shared error path (:mod:`._command`).

``ir_measures_pres`` (:mod:`.evaluate`), ``compare`` (:mod:`.compare`), ``tar`` (:mod:`.tar`),
``curves`` (:mod:`.curves`), ``ntcir`` (:mod:`.ntcir`), ``diversity`` (:mod:`.diversity`),
``sampled`` (:mod:`.sampled`) and the
meta-evaluation commands (:mod:`.meta`). Every module that parses arguments lives here.
:func:`guarded` runs anything as a command runs (one line per error, the exit statuses of
docs/cli.md): the demo uses it.
"""

from ._command import guarded
from .evaluate import main

__all__ = ["guarded", "main"]
