"""``python -m ir_measures_pres.meta robustness|agreement|discriminative-power ...``"""

import sys

from ..cli.meta import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
