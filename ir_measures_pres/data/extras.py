"""Optional dependencies: one check that names the extra to install."""

from __future__ import annotations


def require(module: str, extra: str = "meta") -> None:
    """Raise an ImportError that names the extra when an optional dependency is missing.

    The message says how to install the extra both where users get the package (an index or a
    wheel: ``pip install 'ir_measures_pres[meta]'``) and from a clone (``pip install '.[meta]'``).
    """
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"this needs {module} (the {extra} extra); install it with: "
            f"pip install 'ir_measures_pres[{extra}]' (from a clone: pip install '.[{extra}]')"
        ) from exc
