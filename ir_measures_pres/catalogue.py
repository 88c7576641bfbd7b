"""The measure catalogue, kept at its old path: it lives in
:mod:`ir_measures_pres.measures.catalogue` (``ir_measures_pres.catalogue.parse_measures`` keeps
working)."""

from .measures.catalogue import *  # noqa: F403
from .measures.catalogue import __all__  # noqa: F401
