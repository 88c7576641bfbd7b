"""``python -m ir_measures_pres``: the ``ir_measures_pres`` command (:mod:`ir_measures_pres.cli.evaluate`).

The package is imported before this module, and its first import sets the command's start-up
handlers of SIGINT and SIGTERM (:mod:`ir_measures_pres._start`); :func:`~.runtime.stops.end` ends it."""

from .cli.evaluate import main
from .runtime.stops import end

if __name__ == "__main__":
    end(main())
