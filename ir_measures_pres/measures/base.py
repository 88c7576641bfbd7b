"""Base class of the package's measures: strict parameter checks and a canonical string form.

ir_measures' own ``Measure`` checks parameters with a bare ``isinstance`` inside an ``assert``
(so ``beta=1`` fails for a float parameter with ``AssertionError: invalid param``) and prints
parameters in insertion order (so two spellings of one measure compare unequal). Our measures
keep ir_measures' interface and fix both: an ``int`` is accepted where a ``float`` is expected,
every bad value raises :class:`MeasureParameterError` naming the parameter, the value and what
is allowed, and ``str(measure)`` lists parameters in a fixed order, so
``parse_measure(str(m)) == m`` always holds.
"""

from __future__ import annotations

import math
from typing import Any, Dict

import ir_measures
import numpy as np
from ir_measures.measures.base import _NOT_PROVIDED, MeanAgg, ParamInfo, SumAgg

#: largest cutoff, relevance level or collection size: 2**53, the last integer every count and
#: rank sum of the kernels holds exactly in float64 (and far beyond any real collection)
MAX_COUNT = 2**53
#: largest beta and gain: blended ratios multiply them by counts, and 1e12 times any real count
#: stays far from float64 overflow (beta = 1e308 gave inf / inf = nan)
MAX_WEIGHT = 1e12

#: parameters several measures share, declared once
REL_PARAM = ParamInfo(dtype=int, default=1, desc="minimum relevance level counted as relevant")
JUDGED_ONLY_PARAM = ParamInfo(
    dtype=bool, default=False, desc="drop unjudged documents before ranking (condensed list)"
)


class MeasureParameterError(ValueError):
    """A measure was given a parameter it does not have, or a value it cannot take."""


def _type_name(dtype: type) -> str:
    return {float: "a number", int: "an integer", bool: "True or False", str: "a string", dict: "a dict"}.get(
        dtype, dtype.__name__
    )


#: how a measure's per-topic values become one number: their mean (a topic where the measure is
#: undefined, NaN, left out), trec_eval's geometric mean exp(mean(log(max(v, 0.00001)))) (GMAP,
#: GMBpref), or their sum (counts: NumNonRelJudgedRet, the TAR counts)
MEAN, GEOMETRIC, SUM = "mean", "geometric mean", "sum"
SUMMARIES = (MEAN, GEOMETRIC, SUM)
#: trec_eval's floor of a value before the log of its geometric means (MIN_GEO_MEAN)
MIN_GEO_MEAN = 0.00001


def gm_log(values: np.ndarray) -> np.ndarray:
    """The per-query value a geometric mean accumulates, trec_eval's log(max(v, MIN_GEO_MEAN));
    the geometric mean is exp of their mean."""
    return np.log(np.maximum(values, MIN_GEO_MEAN))  # type: ignore[no-any-return]


class DefinedMean(MeanAgg):
    """The mean over the topics where the measure is defined: NaN values are left out."""

    def add(self, value: float) -> None:
        if value == value:
            super().add(value)


class GeometricMean:
    """trec_eval's geometric mean over topics: exp(mean(log(max(v, 0.00001)))), its floor keeping
    one topic at 0 from making the whole mean 0. An ir_measures aggregator (``add``, ``result``)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def add(self, value: float) -> None:
        self.total += math.log(max(value, MIN_GEO_MEAN))
        self.count += 1

    def result(self) -> float:
        return math.exp(self.total / self.count) if self.count else float("nan")


#: the aggregator of each rule
AGGREGATORS: Dict[str, Any] = {MEAN: DefinedMean, GEOMETRIC: GeometricMean, SUM: SumAgg}


class PluginMeasure(ir_measures.Measure):
    """An ir_measures ``Measure`` with strict, explained parameter validation."""

    __name__: str
    NAME: str

    #: Parameters that must be an integer >= 1 when given.
    _POSITIVE_INTS = ("cutoff", "rel", "collection_size")

    def __init__(self, **params: Any) -> None:
        for name, value in params.items():
            info = self.SUPPORTED_PARAMS.get(name)
            if info is not None and info.dtype is float and type(value) is int:
                params[name] = float(value)  # canonical: beta=1 and beta=1.0 are one measure
            if name == "gains" and isinstance(value, dict):
                params[name] = canonical_gains(value)
        super().__init__(**params)

    #: how the measure's per-topic values become one number (:data:`SUMMARIES`): its catalogue
    #: entry's ``summary``, which the catalogue (``measures.table``) writes here, so that
    #: ir_measures' ``calc_aggregate`` and PyTerrier's ``pt.Evaluate`` ask it too
    SUMMARY: str = MEAN

    def aggregator(self) -> Any:
        """A new aggregator (``add``, ``result``) of the measure's rule, :attr:`SUMMARY`."""
        return AGGREGATORS[self.SUMMARY]()

    # ir_measures builds measures as ``m(**kw)`` and ``m @ k``: check what the user wrote at once
    def __call__(self, **kwargs: Any) -> "PluginMeasure":
        measure = super().__call__(**kwargs)
        measure._check_values(required=False)
        return measure  # type: ignore[return-value]

    def validate_params(self) -> None:
        if self.validated:
            return
        self._check_values(required=True)
        self.validated = True

    def _check_values(self, required: bool) -> None:
        name = self.__name__
        allowed = ", ".join(self.SUPPORTED_PARAMS)
        for param, value in self.params.items():
            if param not in self.SUPPORTED_PARAMS:
                raise MeasureParameterError(
                    f"{name} has no parameter {param!r}; its parameters are: {allowed}"
                )
            self._check_one(param, value, self.SUPPORTED_PARAMS[param])
        if required:
            for param, info in self.SUPPORTED_PARAMS.items():
                if info.required and param not in self.params:
                    raise MeasureParameterError(
                        f"{name} requires the parameter {param!r} ({info.desc}), e.g. {self._example(param)}"
                    )
        self._check_combination()

    def _check_one(self, param: str, value: Any, info: ParamInfo) -> None:
        name = self.__name__
        dtype = info.dtype
        ok = isinstance(value, dtype) and not (dtype in (int, float) and isinstance(value, bool))
        if dtype is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            raise MeasureParameterError(
                f"{name}: parameter {param!r} must be {_type_name(dtype)}, got {value!r} "
                f"({type(value).__name__})"
            )
        if info.choices is not _NOT_PROVIDED and value not in info.choices:
            raise MeasureParameterError(
                f"{name}: parameter {param!r} must be one of {list(info.choices)}, got {value!r}"
            )
        if param in self._POSITIVE_INTS and not 1 <= value <= MAX_COUNT:
            raise MeasureParameterError(
                f"{name}: parameter {param!r} must be an integer from 1 to {MAX_COUNT}, got {value!r}"
            )
        if dtype is float and not (value == value and abs(value) != float("inf")):
            raise MeasureParameterError(f"{name}: parameter {param!r} must be finite, got {value!r}")
        if param == "beta" and not 0 <= value <= MAX_WEIGHT:
            raise MeasureParameterError(
                f"{name}: parameter 'beta' must be from 0 to {MAX_WEIGHT:g}, got {value!r}"
            )
        if param == "gains":
            check_gains(name, value)

    def _check_combination(self) -> None:
        """Hook for checks that involve several parameters."""

    def _example(self, param: str) -> str:
        return f"{self.__name__}({param}=...)"

    # canonical string form: parameters sorted by name, the @ parameter last
    def __repr__(self) -> str:
        cached = self.__dict__.get("_repr")
        if cached is not None:
            return cached
        result = self._canonical_repr()
        self.__dict__["_repr"] = result  # measures are immutable values; hashing is hot in ir_measures
        return result

    def _canonical_repr(self) -> str:
        result = self.__name__
        shown = sorted(
            (k, v)
            for k, v in self.params.items()
            if k != self.AT_PARAM and not _same(v, self.SUPPORTED_PARAMS.get(k, ParamInfo()).default)
        )
        if shown:
            result += "(" + ",".join(f"{k}={self._param_repr(v)}" for k, v in shown) + ")"
        if self.AT_PARAM in self.params:
            result += f"@{self.params[self.AT_PARAM]}"
        return result

    def _param_repr(self, v: Any) -> str:
        if isinstance(v, dict):
            return "{" + ",".join(f"{k!r}:{g!r}" for k, g in sorted(v.items())) + "}"
        return repr(v)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ir_measures.Measure) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))


def _same(value: Any, default: Any) -> bool:
    return default is not _NOT_PROVIDED and type(value) is type(default) and value == default


def canonical_gains(gains: Dict[Any, Any]) -> Dict[Any, Any]:
    """Gains in one spelling: levels <= 0 dropped when their gain is 0 (they are non-relevant
    whatever the dict says), gains as floats. Invalid dicts are kept as given for the checks."""
    try:
        if any(isinstance(k, bool) or not isinstance(k, int) for k in gains):
            return gains
        if any(isinstance(g, bool) or not isinstance(g, (int, float)) for g in gains.values()):
            return gains
        return {k: float(g) for k, g in sorted(gains.items()) if not (k <= 0 and g == 0)}
    except TypeError:
        return gains


def check_gains(name: str, gains: Dict[Any, Any]) -> None:
    """Gains must map integer levels to numbers: 0 for levels <= 0, positive and
    non-decreasing for levels >= 1."""
    for level, gain in gains.items():
        if isinstance(level, bool) or not isinstance(level, int):
            raise MeasureParameterError(f"{name}: gains keys must be integer relevance levels, got {level!r}")
        if isinstance(gain, bool) or not isinstance(gain, (int, float)) or gain != gain:
            raise MeasureParameterError(
                f"{name}: gains values must be numbers, got {gain!r} for level {level}"
            )
        if level <= 0 and gain != 0:
            raise MeasureParameterError(
                f"{name}: level {level} is non-relevant and must have gain 0, got {gain!r}"
            )
        if gain > MAX_WEIGHT:
            raise MeasureParameterError(
                f"{name}: gains must be at most {MAX_WEIGHT:g}, got {gain!r} for level {level}"
            )
        if level >= 1 and not gain > 0:
            raise MeasureParameterError(
                f"{name}: gains must be positive for relevant levels, got {gain!r} for level {level}"
            )
    positive = sorted((k, g) for k, g in gains.items() if k >= 1)
    for (l1, g1), (l2, g2) in zip(positive, positive[1:]):
        if g2 < g1:
            raise MeasureParameterError(
                f"{name}: gains must not decrease with the level, got {g1!r} for level {l1} and "
                f"{g2!r} for level {l2}"
            )
