"""ir_measures_pres: recall-oriented and graded IR evaluation measures for ir_measures.

After ``import ir_measures_pres`` the measures parse from strings (``PRES@1000``,
``QMeasure(beta=0.5)@10``, ``Bpref10(variant='old')`` ...) and evaluate through
``ir_measures.calc_aggregate`` / ``iter_calc`` / ``evaluator`` next to the standard measures,
which keep their own backends (pytrec_eval). Every name the package accepts, and the parser of
measure lists, is in :mod:`ir_measures_pres.measures.catalogue`.
"""

# first: in the command, SIGINT and SIGTERM end it quietly while the modules below load
from . import _start  # noqa: F401, I001

from typing import TYPE_CHECKING, Any

from .runtime.pool import WorkerLost
from .data.inputs import InputError
from .engine.provider import PresProvider
from .measures.base import MeasureParameterError
from .measures.ntcir.blended_ratio import OMeasure, PMeasure, PPlusMeasure, QMeasure
from .measures.recall.bpref import Bpref10
from .measures.catalogue import MEASURES, MeasureNameError
from .measures.recall.normalized import PRES, R_norm

if TYPE_CHECKING:
    from .engine.block_evaluator import BlockEvaluator, iter_calc_blocks
    from .engine.bounds import BoundsError, calc_bounds
    from .stats.comparison import Comparison, compare, compare_scores
    from .stats.intervals import Interval, calc_intervals


def __getattr__(name: str) -> Any:
    """``compare``, ``compare_scores`` and ``Comparison`` load their module on first use (it and
    its statistics take a tenth of the command line's start-up, which evaluating never needs)."""
    if name in ("Comparison", "compare", "compare_scores"):
        from .stats import comparison

        return getattr(comparison, name)
    if name in ("Interval", "calc_intervals"):  # every mean with its interval (docs/uncertainty.md)
        from .stats import intervals

        return getattr(intervals, name)
    if name in ("calc_bounds", "BoundsError"):  # bounds over unjudged documents (docs/uncertainty.md)
        from .engine import bounds

        return getattr(bounds, name)
    if name in ("BlockEvaluator", "iter_calc_blocks"):  # runs larger than memory (docs/streaming.md)
        from .engine import block_evaluator

        return getattr(block_evaluator, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: the package's version, written only here: pyproject.toml reads it (``dynamic = ["version"]``),
#: so the wheel's metadata, ``importlib.metadata.version`` and ``--version`` all say this
__version__ = "0.1.0"

# aliases as Python names too
Rnorm = R_norm
Q_measure = QMeasure
O_measure = OMeasure
P_measure = PMeasure
P_plus = PPlusMeasure
Bpref_10 = Bpref10


def register() -> None:
    """Register the measures, their aliases and the provider in ir_measures; safe to call again.

    Three steps, all guarded so that a second import, a reload or an entry point firing as well
    changes nothing: the names go into ``ir_measures.measures.registry``, the provider into
    ``ir_measures.providers.registry``, and the provider is appended once to
    ``ir_measures.DefaultPipeline.providers`` (without that, ``calc_aggregate`` and PyTerrier
    report "Unsupported measures").
    """
    import sys

    from ir_measures import measures as im_measures
    from ir_measures import providers as im_providers

    from .measures.trec_eval import parse_names as trec_names

    for entry in MEASURES:
        for name in (entry.measure.__name__, *entry.aliases):
            existing = im_measures.registry.get(name)
            if existing is None:
                im_measures.registry[name] = entry.measure
            elif existing.NAME != entry.measure.NAME:
                raise RuntimeError(
                    f"ir_measures_pres cannot register {name!r}: ir_measures already has a "
                    f"different measure under that name ({existing!r})"
                )
    provider = im_providers.registry.get(PresProvider.NAME)
    if provider is None:
        provider = im_providers.register(PresProvider())
    trec_names.install()  # PyTerrier's string path: parse_trec_measure reads our names too
    # While ir_measures is still importing (a plugin-discovering ir_measures loads us from its
    # ``ir_measures.provider`` entry point), DefaultPipeline does not exist yet: it will be built
    # from the registry, which already holds the provider.
    pipeline = getattr(sys.modules.get("ir_measures"), "DefaultPipeline", None)
    if pipeline is None:
        return
    if not any(getattr(p, "NAME", None) == PresProvider.NAME for p in pipeline.providers):
        pipeline.providers.append(provider)


register()

__all__ = [
    "PRES",
    "R_norm",
    "Rnorm",
    "QMeasure",
    "Q_measure",
    "OMeasure",
    "O_measure",
    "PMeasure",
    "P_measure",
    "PPlusMeasure",
    "P_plus",
    "Bpref10",
    "Bpref_10",
    "MEASURES",
    "MeasureNameError",
    "register",
    "PresProvider",
    "MeasureParameterError",
    "InputError",
    "WorkerLost",
    "__version__",
    "compare",
    "compare_scores",
    "Comparison",
    "Interval",
    "calc_intervals",
    "BlockEvaluator",
    "iter_calc_blocks",
    "calc_bounds",
    "BoundsError",
]
