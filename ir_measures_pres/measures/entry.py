"""One row of the measure catalogue (:data:`.table.MEASURES`): a measure singleton, the
function that scores a ranked run with it, and how ``--format trec`` names it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

import numpy as np

from ..data.qrels import Qrels
from ..data.ranking import RankedRun
from .base import PluginMeasure
from .bounds_spec import BoundSpec

__all__ = ["Entry", "NamedNumber", "TrecStyle"]


@dataclass(frozen=True)
class NamedNumber:
    """A parameter a trec-style name must carry as ``_<letter><value>`` (R_norm's ``_N1000``)."""

    param: str
    letter: str
    #: the value error messages show in their example
    example: int


@dataclass(frozen=True)
class TrecStyle:
    """How ``--format trec`` names an entry's measures, and how such a name reads back.

    A name is ``<base>[_<letter><number>][_<param>=<value>][<@ part>]``:

    * ``bases`` maps the value of the parameter ``by`` to the base name (one pair, key None,
      when ``by`` is None): PRES's ``estimate`` picks ``PRES`` or ``PRES_est``;
    * ``number``: a parameter written into the name (R_norm's collection size, ``_N1000``);
    * ``at``: how the ``@`` parameter is written: ``"cut"`` as ``_cut_k`` (absent without ``@k``,
      like trec_eval's ``map_cut_k``), ``"value"`` as ``_k``, default included (PRES's N_max,
      like ``P_10``), ``"none"`` when the measure has no ``@`` parameter;
    * ``param``: a number parameter written as trec_eval writes a measure's parameters,
      ``_<param>=<value>`` when away from its default (``rbp_p=0.5``), and read back from that
      and from trec_eval's ``-m`` form ``.<param>=<value>`` (``rbp.p=0.5``);
    * ``cuts``: with ``at="value"``, what the bare base name stands for (trec_eval's default
      cutoffs: ``unj`` is ``unj_5``, ``unj_10``, ``unj_20``).

    A measure with any other parameter away from its default keeps its canonical form.
    """

    bases: Tuple[Tuple[Any, str], ...]
    by: Optional[str] = None
    number: Optional[NamedNumber] = None
    at: str = "cut"
    param: Optional[str] = None
    cuts: Tuple[int, ...] = ()

    @classmethod
    def named(
        cls, base: str, at: str = "cut", param: Optional[str] = None, cuts: Tuple[int, ...] = ()
    ) -> "TrecStyle":
        """A style with one base name."""
        return cls(((None, base),), at=at, param=param, cuts=cuts)


@dataclass(frozen=True)
class Entry:
    """A measure singleton, its aliases, the function that scores a ranked run with it, and
    its trec-style names."""

    measure: PluginMeasure
    aliases: Tuple[str, ...]
    compute: Callable[[PluginMeasure, RankedRun], np.ndarray]
    #: checks a measure against the qrels before any run is scored (e.g. gains cover every level)
    check_qrels: Optional[Callable[[PluginMeasure, Qrels], None]] = None
    trec: Optional[TrecStyle] = None
    #: the compute function reads the ranked run's document ids (``known=FILE`` measures)
    needs_docs: bool = False
    #: how the bounds over unjudged documents treat the measure (:mod:`..engine.bounds`; None:
    #: they refuse it)
    bounds: Optional[BoundSpec] = None
