"""``python -m ir_measures_pres.meta robustness|agreement|discriminative-power ...``"""

import sys

from ..cli.meta import main
from ..runtime.stops import end

if __name__ == "__main__":
    end(main(sys.argv[1:]))
