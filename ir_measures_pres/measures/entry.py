"""One row of the measure catalogue (:data:`.table.MEASURES`): a measure singleton, the
function that scores a ranked run with it, how ``--format trec`` names it, and its meaning, which
every surface asks instead of deciding: which way its values order runs (its direction, asked
through :func:`.direction.direction_of`) and how its per-topic values become one number (its
summary, asked through :func:`.summary.summary_of`). What a topic the run lacks scores is not a
field: it is what :attr:`Entry.compute` gives an empty ranking of that topic
(:func:`.summary.lacking_values`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from ..data.qrels import Qrels
from ..data.ranking import RankedRun
from .base import GEOMETRIC, MEAN, SUM, SUMMARIES, PluginMeasure
from .bounds_spec import BoundSpec

__all__ = [
    "DIRECTIONS",
    "GEOMETRIC",
    "HIGHER",
    "LOWER",
    "MEAN",
    "NEITHER",
    "Direction",
    "Entry",
    "NamedNumber",
    "SUM",
    "SUMMARIES",
    "TrecStyle",
    "higher_with_rel",
]

#: which way a measure's values order runs: larger is better (AP, PRES), smaller is better (E,
#: unj, the TAR losses and costs), or neither: a count or a fact of the qrels that says nothing
#: of a run's quality (NumRet, NumQ, NumCandidates), which no surface calls better or best
HIGHER, LOWER, NEITHER = "higher", "lower", "neither"
DIRECTIONS = (HIGHER, LOWER, NEITHER)
#: a direction, or the function of a measure that gives it when its parameters decide it
Direction = Union[str, Callable[[Any], str]]


def higher_with_rel(measure: Any) -> str:
    """A count of documents: of the relevant ones (higher is better) when ``rel`` is given
    (``NumShown(rel=1)`` is the TAR tools' rels_found, ``NumRet(rel=1)`` trec_eval's
    num_rel_ret), else of all of them (neither)."""
    return HIGHER if measure.params.get("rel") is not None else NEITHER


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
    """A measure singleton, its aliases, the function that scores a ranked run with it, its
    trec-style names, its direction and its summary."""

    measure: PluginMeasure
    aliases: Tuple[str, ...]
    compute: Callable[[PluginMeasure, RankedRun], np.ndarray]
    #: checks a measure against the qrels before any run is scored (e.g. gains cover every level)
    check_qrels: Optional[Callable[[PluginMeasure, Qrels], None]] = None
    trec: Optional[TrecStyle] = None
    #: the compute function reads the ranked run's document ids (``known=FILE`` measures)
    needs_docs: bool = False
    #: :data:`HIGHER`, :data:`LOWER` or :data:`NEITHER` (or a function of the measure giving
    #: one); required, so that no entry is added without it
    direction: Direction = field(kw_only=True)
    #: how the bounds over unjudged documents treat the measure (:mod:`..engine.bounds`; None:
    #: they refuse it)
    bounds: Optional[BoundSpec] = None
    #: its judgements are not the evaluation's qrels labels (a file parameter: statAP's prels=,
    #: the diversity measures' probs=/dqrels=, or intents read once): an experiment that changes
    #: the qrels (robustness's f-qrels) cannot reach them, so it refuses the measure
    judgements_elsewhere: bool = False
    #: how its per-topic values become one number: :data:`MEAN`, :data:`GEOMETRIC` or
    #: :data:`SUM`; every surface (the commands, ``calc_aggregate``, compare, PyTerrier) asks it
    summary: str = MEAN

    def __post_init__(self) -> None:
        if self.summary not in SUMMARIES:
            raise ValueError(f"{self.measure.NAME}: summary must be one of {SUMMARIES}, got {self.summary!r}")
