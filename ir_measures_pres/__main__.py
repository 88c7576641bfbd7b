"""``python -m ir_measures_pres``: the ``ir_measures_pres`` command (:mod:`ir_measures_pres.cli.evaluate`)."""

import sys

from .cli.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
