"""A small progress line on stderr for the long loops of the meta-evaluation.

tqdm is used when it is installed; otherwise a plain ``\\r``-refreshed line, redrawn at most
every 0.2 s, so that the progress costs nothing measurable. ``quiet`` turns it off.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Optional, TextIO


class Progress:
    """``with Progress(total, "ranking runs") as p: ... p.update()``"""

    def __init__(self, total: int, desc: str, enabled: bool = True, stream: Optional[TextIO] = None) -> None:
        self.total = int(total)
        self.desc = desc
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self._last = 0.0
        self._start = time.perf_counter()
        self._bar: Any = None
        if enabled:
            try:
                from tqdm.auto import tqdm  # optional

                self._bar = tqdm(total=self.total, desc=desc, file=self.stream, leave=False)
            except ImportError:
                self._bar = None

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(n)
            return
        now = time.perf_counter()
        if now - self._last >= 0.2 or self.done >= self.total:
            self._last = now
            elapsed = now - self._start
            self.stream.write(f"\r{self.desc}: {self.done}/{self.total} ({elapsed:.1f} s)")
            self.stream.flush()

    def close(self) -> None:
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.close()
            return
        elapsed = time.perf_counter() - self._start
        self.stream.write(f"\r{self.desc}: {self.done}/{self.total} ({elapsed:.1f} s)\n")
        self.stream.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
