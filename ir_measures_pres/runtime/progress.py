"""The one progress bar of the package: tqdm on standard error, and only on a terminal.

``show`` is what every command and function takes as ``progress``: ``None`` (the default) shows
a bar only when standard error is a terminal (tqdm's ``disable=None``), so a log or a redirected
stderr never fills with ``\\r`` frames; ``False`` (a command's ``-q``) never shows one; ``True``
shows it even when stderr is not a terminal. Without a bar tqdm is not even imported.
"""

from __future__ import annotations

import sys
from typing import Any, Optional


class _NoBar:
    """What a bar does when none is shown: nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def __enter__(self) -> "_NoBar":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def progress_bar(total: int, desc: Optional[str] = None, show: Optional[bool] = None, **options: Any) -> Any:
    """A context manager with ``update(n)``: a tqdm bar of ``total`` steps when ``show`` says so
    (module docstring), else one that does nothing. ``options`` go to tqdm (``unit``)."""
    on_terminal = sys.stderr is not None and sys.stderr.isatty()
    if show is False or (show is None and not on_terminal):
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, leave=False, file=sys.stderr, **options)
