"""One way the package's exceptions pickle: made again from the arguments their ``__init__``
takes, so that an exception raised in a forked worker is raised in the caller as it was, of its
type, with its arguments and attributes (:mod:`.pool`). Standard library only, below every floor:
every exception of the package may use it.
"""

from __future__ import annotations

from typing import Any, Tuple

__all__ = ["MESSAGE", "PicklesByParts"]

#: in :attr:`PicklesByParts.PARTS`: the exception's message, its first argument (``args[0]``)
MESSAGE = "message"


class PicklesByParts:
    """A mixin for an exception whose ``__init__`` takes other arguments than its message.

    Python pickles an exception as its class called with ``self.args`` (what ``__init__`` gave
    ``Exception.__init__``: most often the message alone), which such an ``__init__`` cannot take
    again. This one pickles as its class called with its :attr:`PARTS`, each read back from the
    exception, and its attributes (``__dict__``) set after: made again from its parts (a
    worker's, in the parent)."""

    #: the names of ``__init__``'s arguments, in order, each read back as the exception's
    #: attribute of that name (:data:`MESSAGE`: its message)
    PARTS: Tuple[str, ...] = ()

    args: Tuple[Any, ...]

    def __reduce__(self) -> Tuple[Any, ...]:
        parts = tuple(self.args[0] if name == MESSAGE else getattr(self, name) for name in self.PARTS)
        return type(self), parts, self.__dict__
