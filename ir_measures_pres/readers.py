"""The TREC readers, kept at their old path: they live in :mod:`ir_measures_pres.data.readers`
(``from ir_measures_pres.readers import read_run`` keeps working)."""

from .data.readers import *  # noqa: F403
from .data.readers import __all__  # noqa: F401
