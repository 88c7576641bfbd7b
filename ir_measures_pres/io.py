"""Old name of :mod:`ir_measures_pres.data.readers` (renamed in 0.2.0 after what it holds); kept so
that ``from ir_measures_pres.io import read_run`` keeps working."""

from .data.readers import TrecFormatError, TrecFormatWarning, ids_as_str, read_qrels, read_run

__all__ = ["read_qrels", "read_run", "ids_as_str", "TrecFormatError", "TrecFormatWarning"]
