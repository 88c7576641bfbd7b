"""Top-level target of the ``pyterrier.modules`` entry point: a shim that can never raise.

PyTerrier imports this at ``import pyterrier`` without any guard. Importing the hook
``ir_measures_pres.pyterrier`` directly would run ``ir_measures_pres/__init__`` first, outside
the hook's own ``try``; this shim wraps the whole import, so even a broken installation only
warns and ``import pyterrier`` keeps working.
"""

from __future__ import annotations

import warnings

AVAILABLE: bool = False
ERROR: BaseException | None = None

try:
    from ir_measures_pres.pyterrier import *  # noqa: F401,F403
    from ir_measures_pres.pyterrier import AVAILABLE, ERROR  # noqa: F401,F811 - re-exported
except Exception as error:  # noqa: BLE001 -- must never break ``import pyterrier``
    ERROR = error
    warnings.warn(
        f"ir_measures_pres could not register its measures with PyTerrier "
        f"({type(error).__name__}: {error}); import ir_measures_pres directly to see the full error.",
        RuntimeWarning,
        stacklevel=1,
    )
