"""PyTerrier asks each measure's meaning (:mod:`.measures.summary`) instead of deciding it.

PyTerrier 1.x averages ``pt.Experiment``'s per-query values itself, with a plain mean except for
a fixed list of names (``num_q``, ``NumRet`` ...), so the geometric means ``GMAP`` / ``GMBpref``
came out as the arithmetic means of AP / bpref and the count ``NumNonRelJudgedRet`` as a mean
where its summary is a sum; and it keys each measure by one name, so ``metrics=["gm_map",
"GMAP"]`` gave one key for two requested names. :func:`install` wraps four of its helpers, in
``pyterrier._evaluation``:

* ``_rendering._mean_of_measures`` (``pt.Experiment``'s means): each column that names a measure
  is summarised by that measure's rule (:func:`~.measures.summary.summarise`);
* ``RenderFromPerQuery.averages`` (``baseline=``): a test on the per-query values of a measure
  whose one number is a geometric mean does not test it: refused, with one line saying why;
* ``_convert_measures`` and ``_ir_measures_to_dict`` (``pt.Evaluate`` and ``pt.Experiment``,
  with or without ``perquery``): every name a measure was requested by gets its values.

``pt.Evaluate``'s means already ask the measures' aggregators (``Measure.aggregator``, which
reads the catalogue entry), and a topic the run lacks gets what an empty ranking scores through
the provider's ``iter_calc``. A PyTerrier without these helpers is left alone, with a warning.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List

__all__ = ["install"]

_INSTALLED = "_ir_measures_pres_rules"


class _Names(Dict[Any, str]):
    """PyTerrier's ``rev_mapping`` (measure -> the string it was requested by), which also keeps
    ``every`` name each measure was requested by, strings as written and objects as ``str``."""

    every: Dict[Any, List[str]]


def _every_name(original: Any) -> Any:
    def convert(metrics: Any) -> Any:
        import ir_measures

        measures, rev_mapping = original(metrics)
        names = _Names(rev_mapping)
        names.every = {}
        for metric in metrics if isinstance(metrics, (list, tuple)) else [metrics]:
            if isinstance(metric, ir_measures.Measure):
                found, name = [metric], str(metric)
            elif isinstance(metric, str):
                found, name = list(ir_measures.parse_trec_measure(metric)), metric
            else:
                continue
            if len(found) == 1 and name not in names.every.setdefault(found[0], []):
                names.every[found[0]].append(name)
        return measures, names

    return convert


def _values_under_every_name(original: Any) -> Any:
    def to_dict(seq: Any, measures: Any, rev_mapping: Any, *args: Any, **kwargs: Any) -> Any:
        out = original(seq, measures, rev_mapping, *args, **kwargs)
        every = getattr(rev_mapping, "every", None)
        if not every:
            return out
        for measure, names in every.items():
            primary = rev_mapping.get(measure, str(measure))
            extra = [n for n in names if n != primary]
            if not extra:
                continue
            targets = out.values() if out and isinstance(next(iter(out.values())), dict) else [out]
            for row in targets:
                if primary in row:
                    for name in extra:
                        row[name] = row[primary]
        return out

    return to_dict


def _means_by_rule(original: Any) -> Any:
    def mean_of_measures(result: Any, measures: Any = None, num_q: Any = None) -> Any:
        from .measures.summary import measure_of_name, summarise

        out = original(result, measures, num_q)
        if num_q is not None:  # PyTerrier's own divisor: its rule, not ours, was asked for
            return out
        for name in list(out):
            measure = measure_of_name(name) if isinstance(name, str) else None
            if measure is not None:
                out[name] = summarise(measure, (row[name] for row in result.values()))
        return out

    return mean_of_measures


def _no_test_of_a_geometric_mean(original: Any) -> Any:
    def averages(self: Any, *args: Any, **kwargs: Any) -> Any:
        from .measures.summary import is_geometric, measure_of_name

        if self.baseline is not None and self.systemEvalDictsPerQ:
            rows = next(iter(self.systemEvalDictsPerQ.values()))
            names = list(next(iter(rows.values()))) if rows else []
            geometric = [n for n in names if (m := measure_of_name(n)) is not None and is_geometric(m)]
            if geometric:
                raise ValueError(
                    f"{', '.join(geometric)}: pt.Experiment's baseline= test compares the systems' "
                    "per-query values, which tests their arithmetic mean, not a geometric mean; "
                    "leave it out of an experiment with a baseline, or test AP (for GMAP) or "
                    "Bpref (for GMBpref)"
                )
        return original(self, *args, **kwargs)

    return averages


def install() -> bool:
    """Wrap PyTerrier's helpers (module docstring), once; False (with a ``RuntimeWarning``) when
    this PyTerrier lacks them."""
    try:
        from pyterrier._evaluation import _exec_tree, _execution, _rendering
    except ImportError:
        return False
    if getattr(_rendering, _INSTALLED, False):
        return True
    wanted = [
        (_rendering, "_mean_of_measures"),
        (_rendering, "_convert_measures"),
        (_execution, "_convert_measures"),
        (_execution, "_ir_measures_to_dict"),
        (_exec_tree, "_convert_measures"),
        (_exec_tree, "_ir_measures_to_dict"),
    ]
    if not all(hasattr(module, name) for module, name in wanted) or not hasattr(
        _rendering, "RenderFromPerQuery"
    ):
        warnings.warn(
            "ir_measures_pres: this PyTerrier has no _mean_of_measures / _convert_measures to "
            "wrap: pt.Experiment may average GMAP and GMBpref arithmetically and counts such as "
            "NumNonRelJudgedRet as means",
            RuntimeWarning,
            stacklevel=2,
        )
        return False
    _rendering._mean_of_measures = _means_by_rule(_rendering._mean_of_measures)
    convert = _every_name(_rendering._convert_measures)
    to_dict = _values_under_every_name(_execution._ir_measures_to_dict)
    _rendering._convert_measures = _execution._convert_measures = _exec_tree._convert_measures = convert
    _execution._ir_measures_to_dict = _exec_tree._ir_measures_to_dict = to_dict
    render = _rendering.RenderFromPerQuery
    render.averages = _no_test_of_a_geometric_mean(render.averages)  # type: ignore[method-assign]
    setattr(_rendering, _INSTALLED, True)
    return True
