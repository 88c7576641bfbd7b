"""Where statAP_MQ_eval_v3.pl's printer used to live: it is
:mod:`ir_measures_pres.printers.statap` now (the printers of the tool replicas have one home).
Kept so that ``from ir_measures_pres.cli.statap import write_statap`` goes on working."""

from __future__ import annotations

import warnings

from ..printers.statap import statap_text, write_statap

__all__ = ["write_statap", "statap_text"]

warnings.warn(
    "ir_measures_pres.cli.statap moved to ir_measures_pres.printers.statap (write_statap, statap_text)",
    DeprecationWarning,
    stacklevel=2,
)
