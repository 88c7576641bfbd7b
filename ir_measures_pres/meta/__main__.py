"""``python -m ir_measures_pres.meta robustness|agreement|discriminative-power ...``"""

import sys

from .._start import end
from ..cli.meta import main

if __name__ == "__main__":
    end(main(sys.argv[1:]))
