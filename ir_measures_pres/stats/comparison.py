"""Compare runs: paired significance tests, effect sizes, intervals and paper-ready tables.

:func:`compare` scores each run and measure over **every qrels topic** (a topic a run lacks scores
as an empty ranking) by the engine's ``Core``, then tests the pairs with :mod:`.significance`;
a count's means, deltas and intervals are sums over the topics (its catalogue summary).
:func:`compare_scores` does the same on per-topic scores computed elsewhere (``trec_eval -q``
output, a ``pt.Experiment(perquery=True)`` frame, a long table).

Design: with ``baseline``, each baseline against every other run; without, all k(k-1)/2 pairs.
The family for the multiple-testing correction is the pairs of **one measure**. For a pair
(run_a, run_b) the per-topic differences are d = X_b - X_a, so ``delta`` = mean_b - mean_a
(with a baseline, run_a is the baseline: delta > 0 means run_b beats it) and ``delta_pct`` =
100 delta / mean_a. Tests:

* ``t`` (default): paired two-sided t-test (``scipy.stats.ttest_rel``); statistic t, df n - 1.
* ``wilcoxon``: ``scipy.stats.wilcoxon(d, zero_method="wilcox")``; statistic W.
* ``perm``: sign-flip randomisation test; statistic |mean(d)|; B draws of the topic signs from
  ``numpy.random.default_rng(seed)``, shared by every pair and measure; p = (1 + b)/(B + 1).
  When 2^n <= B every sign vector is enumerated (exact p). When the smallest attainable p,
  1/(B + 1), could not survive the correction of m tests at alpha, B rises to ceil(10 m / alpha).
* ``tukey``: Tukey's HSD on the two-way ANOVA without replication (topics as blocks), all pairs
  simultaneously (it replaces the correction); statistic q, df (k-1)(n-1).
* ``rtukey``: randomised Tukey HSD (Carterette, TOIS 2012): each draw permutes every topic's k
  scores among the runs; statistic |delta|.

Effects: d_z = mean(d)/s_d for the paired tests, ES_E = delta / sqrt(V_E) for the Tukey tests
(Sakai 2018). Intervals of delta at ``ci``: the t-interval; with a family-wise correction at the
Bonferroni (Sidak) level 1 - (1 - ci)/m, with a false-discovery-rate correction Benjamini &
Yekutieli's false-coverage-rate level 1 - R (1 - ci)/m; Tukey: delta +- q_{ci; k, (k-1)(n-1)}
sqrt(V_E/n); randomised Tukey: delta +- the ci-quantile of the randomised range. Wins, ties and
losses count topics where run_b is above, level with, below run_a (differences rounded to 12
places, as every zero test and tie: values equal mathematically compare equal).

Better and best follow each measure's direction (:mod:`ir_measures_pres.measures.direction`):
for a lower-is-better measure (``unj@k``, ``E@k``, ``TarLoss`` ...) the best mean is the
smallest and a run significantly below another is significantly better; a measure of neither
direction (``NumRet`` ...) has no best mark and its marks say higher. The tests, deltas and
intervals are two-sided and the same whatever the direction.

Where the code is: here the parameters and the entry points; the tests of every pair
(:func:`~.pairs.compare_values`) in :mod:`.pairs`; the result (:class:`Comparison`) and the
tables it prints (text, Markdown, LaTeX, CSV, JSON) in :mod:`.tables`; the reading of per-topic
score tables and the inputs' metadata in :mod:`._inputs`.
"""

from __future__ import annotations

import fnmatch
import os
import warnings
from typing import Any, Dict, Optional, Sequence, Union

import numpy as np

from .. import stats
from ..engine.scores import check_mean_labels
from . import _inputs
from .pairs import compare_values
from .tables import COLUMNS, Comparison

__all__ = ["COLUMNS", "TESTS", "Comparison", "check_parameters", "compare", "compare_scores"]

TESTS = ("t", "wilcoxon", "perm", "tukey", "rtukey")


# --------------------------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------------------------


def check_parameters(
    test: str,
    correction: str,
    alpha: float,
    B: int,
    seed: Any,
    ci: float,
    topics: str,
    run_ci: Optional[str] = None,
) -> None:
    """ValueError for a parameter out of range (before anything is read)."""
    if run_ci is not None and run_ci not in stats.INTERVAL_METHODS:
        raise ValueError(f"unknown run_ci {run_ci!r}; use one of {', '.join(stats.INTERVAL_METHODS)}")
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; use one of {', '.join(TESTS)}")
    stats.check_correction(correction)
    for name, value in (("alpha", alpha), ("ci", ci)):
        if not (isinstance(value, (int, float)) and 0.0 < value < 1.0):
            raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    for name, value, least in (("B", B, 1), ("seed", seed, 0)):  # B positive, seed non-negative
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
            raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
    if topics not in ("qrels", "intersection"):
        raise ValueError(f"topics must be 'qrels' or 'intersection', got {topics!r}")


# --------------------------------------------------------------------------------------------
# entry points
# --------------------------------------------------------------------------------------------


def compare(
    qrels: Any,
    runs: Any,
    measures: Any,
    baseline: Union[None, str, int, Sequence[Union[str, int]]] = None,
    test: str = "t",
    correction: str = "holm",
    alpha: float = 0.05,
    B: int = 10_000,
    seed: int = 0,
    ci: float = 0.95,
    topics: str = "qrels",
    names: Optional[Sequence[str]] = None,
    exclude: Sequence[str] = (),
    progress: Optional[bool] = None,
    run_ci: Optional[str] = None,
) -> Comparison:
    """Compare runs with paired significance tests (see the module docstring for the decisions).

    ``qrels``: a path (TREC format, ``.gz`` allowed) or any qrels ir_measures accepts; ``runs``:
    a directory, a path, a list of paths or run objects (dicts, DataFrames), or a mapping name ->
    path or run (names default to file names); ``measures``: a measure list as the catalogue reads
    it (``"AP nDCG@10 PRES@1000"``, objects, trec_eval names). ``baseline``: run name(s) or
    index(es). ``names`` renames the runs in order; ``exclude`` drops runs whose name matches a
    glob. Inputs are never modified. ``run_ci`` (``"t"``, ``"bootstrap"``,
    ``"bootstrap-percentile"``): each run's interval of its mean at ``ci`` in the per-run rows of
    the tables (the JSON holds the intervals always, t unless ``run_ci`` says otherwise; a
    bootstrap takes ``B`` resamples from ``numpy.random.default_rng(seed)``).

    >>> res = compare("qrels.txt", "runs/", "AP nDCG@10")  # doctest: +SKIP
    >>> print(res.to_markdown())  # doctest: +SKIP
    """
    from ..engine.scores import Core, resolve_runs
    from ..measures.catalogue import parse_measures
    from ..measures.direction import direction_of

    check_parameters(test, correction, alpha, B, seed, ci, topics, run_ci)
    _require()
    parsed = parse_measures(measures)
    pairs = resolve_runs(runs)
    if exclude:
        pairs = [(n, r) for n, r in pairs if not any(fnmatch.fnmatch(n, g) for g in exclude)]
    if names is not None:
        names = [str(x) for x in names]
        if len(names) != len(pairs):
            raise ValueError(f"{len(names)} names given for {len(pairs)} runs")
        if len(set(names)) != len(names):
            raise ValueError("two runs have the same name")
        pairs = [(nm, r) for nm, (_, r) in zip(names, pairs)]
    if len(pairs) < 2:
        raise ValueError(f"a comparison needs at least 2 runs, got {len(pairs)}")
    # what reading and ranking warn of (duplicate lines, topics a run lacks) goes into the notes
    # too, so that a table or JSON file carries it, and is warned of as ever
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        core = Core(qrels, pairs, parsed, progress=progress, warn_missing=False, allow_undefined=True)
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    values = core.evaluate()
    missing = core.missing_topics()
    metadata = _inputs.metadata(qrels, pairs)
    res = compare_values(
        list(core.run_names),
        [str(m) for m in parsed],
        list(core.query_ids),
        values,
        missing,
        baseline=baseline,
        test=test,
        correction=correction,
        alpha=alpha,
        B=B,
        seed=seed,
        ci=ci,
        topics=topics,
        metadata=metadata,
        missing_rule="default",
        run_ci=run_ci,
    )
    res.directions = {str(m): direction_of(m) for m in parsed}
    res.notes[:0] = [str(w.message) for w in caught]
    return res


def compare_scores(
    scores: Any,
    measures: Optional[Sequence[str]] = None,
    baseline: Union[None, str, int, Sequence[Union[str, int]]] = None,
    test: str = "t",
    correction: str = "holm",
    alpha: float = 0.05,
    B: int = 10_000,
    seed: int = 0,
    ci: float = 0.95,
    topics: str = "qrels",
    names: Optional[Sequence[str]] = None,
    run_ci: Optional[str] = None,
    directions: Optional[Dict[str, str]] = None,
) -> Comparison:
    """:func:`compare` on per-topic scores computed elsewhere.

    ``scores`` is one of:

    * a long DataFrame: a ``pt.Experiment(..., perquery=True)`` frame (``name, qid, measure,
      value``) or ``run|name|system, query_id|qid, measure, value``;
    * ``trec_eval -q`` output: a path or a list of paths (one run per file, named by the file; a
      file with several ``runid`` lines is not split), or a mapping run name -> path; lines
      ``measure qid value``, the ``all`` rows and non-numeric values (``runid``) skipped;
    * a :class:`~ir_measures_pres.meta.Scores` or ``{run: {measure: {qid: value}}}``.

    Topics: ``"qrels"`` tests every topic that any run has a score for; a (run, measure) without
    a score on one of them gets 0 (the DEFAULT of the usual measures), with a note. Run
    ``trec_eval -q -c`` to have every qrels topic in the files. ``"intersection"`` keeps only the
    topics scored for every run and measure. ``measures`` picks and orders the measures. A
    measure's direction is that of the measure its label names as the catalogue reads it
    (``map``, ``unj_10``, ``nDCG@10``); a label that names none has neither direction unless
    ``directions`` (``{label: "higher" | "lower" | "neither"}``) gives it one.
    """
    from ..measures.direction import DIRECTIONS, direction_of_name

    check_parameters(test, correction, alpha, B, seed, ci, topics, run_ci)
    wrong = {m: d for m, d in (directions or {}).items() if d not in DIRECTIONS}
    if wrong:
        raise ValueError(f"a direction is one of {', '.join(DIRECTIONS)}, got {wrong}")
    _require()
    table = _inputs.score_table(scores)  # {run: {measure: {qid: value}}}
    runs = list(table)
    if names is not None:
        names = [str(x) for x in names]
        if len(names) != len(runs):
            raise ValueError(f"{len(names)} names given for {len(runs)} runs")
        table = {nm: table[r] for nm, r in zip(names, runs)}
        runs = names
    if len(runs) < 2:
        raise ValueError(f"a comparison needs at least 2 runs, got {len(runs)}")
    all_measures = list(dict.fromkeys(m for r in runs for m in table[r]))
    if measures is not None:
        wanted = [str(m) for m in (measures.split() if isinstance(measures, str) else measures)]
        unknown = [m for m in wanted if m not in all_measures]
        if unknown:
            raise ValueError(f"no scores for measure(s) {unknown}; the scores have {all_measures}")
        all_measures = wanted
    check_mean_labels(all_measures)  # per-topic AP labelled GMAP would be tested as MAP
    qids = list(dict.fromkeys(q for r in runs for m in all_measures for q in table[r].get(m, {})))
    values = np.zeros((len(all_measures), len(runs), len(qids)))
    have = np.zeros(values.shape, dtype=bool)
    qpos = {q: i for i, q in enumerate(qids)}
    for j, r in enumerate(runs):
        for i, m in enumerate(all_measures):
            for q, v in table[r].get(m, {}).items():
                values[i, j, qpos[q]] = v
                have[i, j, qpos[q]] = True
    complete: np.ndarray = np.asarray(have.all(axis=0))  # (runs, topics): a score for every measure
    missing = {r: [q for q, ok in zip(qids, complete[j].tolist()) if not ok] for j, r in enumerate(runs)}
    res = compare_values(
        runs,
        all_measures,
        qids,
        values,
        missing,
        baseline=baseline,
        test=test,
        correction=correction,
        alpha=alpha,
        B=B,
        seed=seed,
        ci=ci,
        topics=topics,
        metadata=_inputs.metadata(
            None, [(r, scores if isinstance(scores, (str, os.PathLike)) else None) for r in runs]
        ),
        missing_rule="zero",
        run_ci=run_ci,
    )
    res.directions = {m: (directions or {}).get(m) or direction_of_name(m) for m in all_measures}
    return res


def _require() -> None:
    for module in ("pandas", "scipy", "statsmodels"):
        stats.require(module)
