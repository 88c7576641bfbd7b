"""Optional dependencies: one check that names the extra to install."""

from __future__ import annotations


def require(module: str, extra: str = "meta") -> None:
    """Raise an ImportError that names the extra when an optional dependency is missing."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"this needs {module}; install it with: pip install '.[{extra}]' in a clone of ir_measures_pres"
        ) from exc
