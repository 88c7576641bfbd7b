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

Where the code is: here the result (:class:`Comparison`), the parameters, the entry points and the
tests of every pair (:func:`_compare_values`); the tables a :class:`Comparison` prints (text,
Markdown, LaTeX, CSV, JSON) in :mod:`.tables`; the reading of per-topic score tables and the
inputs' metadata in :mod:`._inputs`.
"""

from __future__ import annotations

import fnmatch
import math
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .. import stats
from ..engine.scores import check_mean_labels, lacking_topics
from ..measures.direction import NEITHER
from ..measures.summary import SUM, summary_of_name
from . import _inputs, tables
from .tables import COLUMNS

TESTS = ("t", "wilcoxon", "perm", "tukey", "rtukey")
TEST_NAMES = {
    "t": "paired two-sided t-test",
    "wilcoxon": "two-sided Wilcoxon signed-rank test",
    "perm": "two-sided sign-flip randomisation test",
    "tukey": "Tukey's HSD on the two-way ANOVA without replication (topics as blocks)",
    "rtukey": "randomised Tukey HSD (runs permuted within topics)",
}
CORRECTION_NAMES = {
    "none": "no correction",
    "holm": "Holm correction",
    "bonferroni": "Bonferroni correction",
    "fdr_bh": "Benjamini-Hochberg correction",
    "fdr_by": "Benjamini-Yekutieli correction",
    "sidak": "Sidak correction",
    "holm-sidak": "Holm-Sidak correction",
}
SIMULTANEOUS = ("tukey", "rtukey")

PathLike = Union[str, "os.PathLike[str]"]


# --------------------------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------------------------


@dataclass
class Comparison:
    """The outcome of :func:`compare`.

    * ``means``: ``{measure: {run: mean over the topics}}``;
    * ``pairs``: the long table (a pandas DataFrame with :data:`COLUMNS`), one row per pair and
      measure;
    * ``runs``, ``measures``, ``baseline`` (list of run names or None), ``query_ids`` (the topics
      tested), ``missing`` (``{run: [qrels topics the run lacks]}``), ``params``, ``notes``
      (what the reader must know: B raised, topics dropped ...), ``anova`` (Tukey tests:
      ``{measure: {"V_E", "F", "df_runs", "df_error", "p"}}``), ``metadata`` (versions, hashes);
    * ``intervals``: ``{measure: {run: (low, high)}}``, each run's interval of its mean at ``ci``
      (method ``params["run_ci"]``, :func:`~.significance.mean_interval`), in the JSON always,
      in the tables' per-run rows when ``run_ci`` was asked for (``params["run_ci_shown"]``);
    * ``directions``: ``{measure: "higher" | "lower" | "neither"}``, which way it orders runs
      (:func:`~ir_measures_pres.measures.direction.direction_of`; neither when not given).
    """

    runs: List[str]
    measures: List[str]
    query_ids: List[str]
    means: Dict[str, Dict[str, float]]
    pairs: Any
    baseline: Optional[List[str]]
    missing: Dict[str, List[str]]
    params: Dict[str, Any]
    notes: List[str] = field(default_factory=list)
    anova: Dict[str, Dict[str, float]] = field(default_factory=dict)
    metadata: Dict[str, Any] = field(default_factory=dict)
    intervals: Dict[str, Dict[str, Tuple[float, float]]] = field(default_factory=dict)
    directions: Dict[str, str] = field(default_factory=dict)

    def direction(self, measure: str) -> str:
        """Which way ``measure`` orders the runs: ``"higher"``, ``"lower"`` or ``"neither"``."""
        return self.directions.get(measure, NEITHER)

    # -- descriptions ------------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.query_ids)

    def family_size(self) -> int:
        return len(self.pairs) // max(1, len(self.measures))

    def description(self) -> str:
        """One sentence saying how the runs were tested (the LaTeX caption's second part)."""
        p = self.params
        test = p["test"]
        parts = [TEST_NAMES[test]]
        m = self.family_size()
        if test in SIMULTANEOUS:
            parts.append(f"simultaneous over all {len(self.runs) * (len(self.runs) - 1) // 2} pairs")
        else:
            corr = p["correction"]
            name = CORRECTION_NAMES.get(corr, f"{corr} correction")
            what = f"the {m} pairs" if m != 1 else "the one pair"
            parts.append(f"{name} over {what} of each measure" if corr != "none" else name)
        parts.append(f"alpha = {p['alpha']:g}")
        if test in ("perm", "rtukey"):
            parts.append(f"B = {p['B']:,}" + (" (exact enumeration)" if p.get("exact") else ""))
            parts.append(f"seed {p['seed']}")
        parts.append(
            f"{100 * p['ci']:g}% intervals" + (" (simultaneous)" if p.get("simultaneous_ci") else "")
        )
        topics = (
            f"{self.n} qrels topics (a run missing a topic scores as an empty ranking there)"
            if p["topics"] == "qrels"
            else f"the {self.n} topics every run retrieved for (trec_eval without -c)"
        )
        return "; ".join(parts) + f"; means over {topics}."

    # -- tables (made by :mod:`.tables`) ------------------------------------------------------

    def to_text(self, places: int = 4) -> str:
        """A plain-text table of means (best marked ``*``) with significance marks, the notes and
        the tested pairs."""
        return tables.to_text(self, places)

    def to_markdown(self, places: int = 4) -> str:
        """A Markdown table of means (best in bold) with significance marks and a legend."""
        return tables.to_markdown(self, places)

    def caption(self) -> str:
        """The LaTeX caption: what is shown and how it was tested."""
        return tables.caption(self)

    def to_latex(self, places: int = 4, label: str = "tab:comparison") -> str:
        """A booktabs table (no vertical rules): every tied best in bold, the second underlined,
        significance marks, and a caption saying how the runs were tested."""
        return tables.to_latex(self, places, label)

    def to_csv(self, path: Optional[PathLike] = None) -> str:
        """The long table (exactly :data:`COLUMNS`) as CSV; written to ``path`` when given."""
        return tables.to_csv(self, path)

    def to_json(self, path: Optional[PathLike] = None) -> str:
        """``{"metadata": {...}, "pairs": [rows with exactly COLUMNS]}``; written to ``path``."""
        return tables.to_json(self, path)

    def plot(self, kind: str = "auto", path: Optional[PathLike] = None, **kwargs: Any) -> Any:
        """A forest plot of delta +- interval (``"forest"``; the default with a baseline) or a
        significance matrix of all pairs (``"matrix"``; the default without). Needs matplotlib
        (the ``meta`` extra). Returns the figure (the first page of a forest plot of many pairs:
        :meth:`plot_pages` has them all); saved to ``path`` when given, every page
        (:func:`~ir_measures_pres.plots.compare.plot_comparison`)."""
        return self.plot_pages(kind, path, **kwargs)[0]

    def plot_pages(self, kind: str = "auto", path: Optional[PathLike] = None, **kwargs: Any) -> List[Any]:
        """Every page of :meth:`plot` (a forest plot has one per baseline, at most 40 pairs each)."""
        from ..plots.compare import plot_comparison

        if kind == "auto":
            kind = "forest" if self.baseline else "matrix"
        return plot_comparison(self, kind, path, **kwargs)

    def save(
        self, directory: PathLike, places: int = 4, plot: Optional[str] = None, prefix: str = "comparison"
    ) -> List[Path]:
        """Write every format into ``directory`` (text, md, tex, csv, json, and the plot)."""
        return tables.save(self, directory, places, plot, prefix)

    def __str__(self) -> str:
        return self.to_text()


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
    res = _compare_values(
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
    res = _compare_values(
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


# --------------------------------------------------------------------------------------------
# the computation
# --------------------------------------------------------------------------------------------


def _baseline_indices(baseline: Any, runs: List[str]) -> Optional[List[int]]:
    if baseline is None:
        return None
    items = [baseline] if isinstance(baseline, (str, int, np.integer)) else list(baseline)
    out: List[int] = []
    for b in items:
        if isinstance(b, (int, np.integer)) and not isinstance(b, bool):
            if not 0 <= int(b) < len(runs):
                raise ValueError(f"baseline index {b} out of range for {len(runs)} runs")
            i = int(b)
        elif str(b) in runs:
            i = runs.index(str(b))
        else:
            hits = [k for k, r in enumerate(runs) if r.endswith("." + str(b))]
            if len(hits) != 1:
                raise ValueError(f"baseline {b!r} is not one of the runs: {', '.join(runs)}")
            i = hits[0]
        if i not in out:
            out.append(i)
    if not out:
        raise ValueError("an empty baseline list")
    return out


def _design(k: int, base: Optional[List[int]]) -> List[Tuple[int, int]]:
    if base is None:
        return [(i, j) for i in range(k) for j in range(i + 1, k)]
    seen = set()
    out = []
    for b in base:
        for j in range(k):
            if j == b or frozenset((b, j)) in seen:
                continue
            seen.add(frozenset((b, j)))
            out.append((b, j))
    return out


def _anova_row(av: Any) -> Dict[str, float]:
    """The ANOVA of one measure as :attr:`Comparison.anova` holds it."""
    return {"V_E": av.V_E, "F": av.F, "df_runs": av.df_runs, "df_error": av.df_error, "p": av.p}


def _compare_values(
    runs: List[str],
    measures: List[str],
    query_ids: List[str],
    values: np.ndarray,
    missing: Dict[str, List[str]],
    baseline: Any,
    test: str,
    correction: str,
    alpha: float,
    B: int,
    seed: int,
    ci: float,
    topics: str,
    metadata: Dict[str, Any],
    missing_rule: str,
    run_ci: Optional[str] = None,
) -> Comparison:
    import pandas as pd

    notes: List[str] = []
    k = len(runs)
    resamples = B  # the bootstrap of each run's interval: B as asked (the tests may raise theirs)
    short = {r: q for r, q in missing.items() if q}
    if topics == "intersection":
        drop = set(q for qs in missing.values() for q in qs)
        keep = np.array([q not in drop for q in query_ids], dtype=bool)
        if drop:
            msg = (
                f"topics=intersection: {len(drop)} topic(s) some run lacks are left out "
                f"(trec_eval without -c); every qrels topic counts by default"
            )
            warnings.warn(msg, stacklevel=3)
            notes.append(msg)
        values = values[:, :, keep]
        query_ids = [q for q, ok in zip(query_ids, keep) if ok]
    elif short:
        for r, qs in short.items():
            notes.append(lacking_topics(r, qs, len(query_ids), missing_rule))
            warnings.warn(notes[-1], stacklevel=3)
    undefined = np.isnan(values).any(axis=(0, 1))
    if undefined.any():  # a measure undefined there (Coverage with K ∩ R empty): not paired
        gone = [q for q, bad in zip(query_ids, undefined.tolist()) if bad]
        which = [m for i, m in enumerate(measures) if np.isnan(values[i]).any()]
        msg = (
            f"{len(gone)} topic(s) where {', '.join(which)} {'is' if len(which) == 1 else 'are'} "
            f"undefined are left out of the "
            f"comparison of every measure: {', '.join(gone[:10])}{' ...' if len(gone) > 10 else ''}"
        )
        warnings.warn(msg, stacklevel=3)
        notes.append(msg)
        values = values[:, :, ~undefined]
        query_ids = [q for q, bad in zip(query_ids, undefined.tolist()) if not bad]
    n = len(query_ids)
    if n < 2:
        raise ValueError(f"a comparison needs at least 2 topics, got {n}")
    base = _baseline_indices(baseline, runs)
    design = _design(k, base)
    a = np.array([i for i, _ in design], dtype=np.int64)
    b = np.array([j for _, j in design], dtype=np.int64)
    m = len(design)
    params: Dict[str, Any] = {
        "test": test,
        "correction": "none" if test in SIMULTANEOUS else correction,
        "alpha": alpha,
        "B": None,
        "seed": seed,
        "ci": ci,
        "topics": topics,
        "design": "baseline" if base is not None else "all pairs",
        "family": f"the {m} pairs of one measure",
        "run_ci": run_ci or "t",
        "run_ci_shown": run_ci is not None,
    }
    if test in SIMULTANEOUS and correction not in ("none", "holm"):
        notes.append(f"{test}: the test is simultaneous over all pairs; correction {correction} not applied")
    rng = np.random.default_rng(seed)
    signs: Optional[np.ndarray] = None
    exact = False
    if test == "perm":
        need = alpha / m if correction != "none" else alpha
        if 1.0 / (B + 1.0) > need and 2 ** min(n, 63) > B:
            newB = int(math.ceil(10 * (m if correction != "none" else 1) / alpha))
            notes.append(
                f"B raised from {B:,} to {newB:,}: the smallest p, 1/(B+1), must be able to survive "
                f"the correction of {m} tests at alpha {alpha:g}"
            )
            B = newB
        signs, exact = stats.sign_flips(n, B, rng)
        params["B"] = len(signs) if exact else B
        if exact and 2.0 / len(signs) > need:
            notes.append(
                f"with {n} topics the exact sign-flip test's smallest p is 2/2^{n} = "
                f"{2.0 / len(signs):.4g}: no pair can be significant at this level"
            )
    perms = None
    ranges = np.zeros(0)
    if test == "rtukey":
        if 1.0 / (B + 1.0) > alpha and math.factorial(k) ** n > B:
            newB = int(math.ceil(10 / alpha))
            notes.append(f"B raised from {B:,} to {newB:,}: the smallest p, 1/(B+1), must be below alpha")
            B = newB
        perms, exact = stats.topic_permutations(k, n, B, rng)
        params["B"] = len(perms) if exact else B
    params["exact"] = exact
    params["simultaneous_ci"] = test in SIMULTANEOUS or (correction != "none" and m > 1)
    frames = []
    anova: Dict[str, Dict[str, float]] = {}
    means: Dict[str, Dict[str, float]] = {}
    intervals: Dict[str, Dict[str, Tuple[float, float]]] = {}
    # each run's interval is made on its values in query-id order (stats.intervals.TOPIC_ORDER)
    by_id = np.array(sorted(range(n), key=query_ids.__getitem__), dtype=np.int64)
    for mi, mname in enumerate(measures):
        X = values[mi]
        mean = X.mean(axis=1)
        means[mname] = {r: float(v) for r, v in zip(runs, mean)}
        # each run's own interval over the same topics (not corrected: it is not a test of pairs)
        intervals[mname] = {
            r: stats.mean_interval(X[j, by_id], ci, params["run_ci"], resamples, seed)
            for j, r in enumerate(runs)
        }
        d = X[b] - X[a]
        delta = stats.tidy(mean[b] - mean[a])
        # delta itself unrounded but exactly 0 when it rounds to 0 (identical runs)
        delta = np.where(delta == 0, 0.0, mean[b] - mean[a])
        td = stats.tidy(d)
        wins = (td > 0).sum(axis=1)
        losses = (td < 0).sum(axis=1)
        ties = n - wins - losses
        sd = d.std(axis=1, ddof=1)
        zero = (td == 0).all(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            dz = np.where(zero, 0.0, d.mean(axis=1) / np.where(stats.tidy(sd) == 0, 0.0, sd))
        effect = dz
        if test == "t":
            res = stats.paired_t(d)
        elif test == "wilcoxon":
            res = stats.paired_wilcoxon(d)
        elif test == "perm":
            assert signs is not None
            res = stats.sign_flip(d, signs, exact)
        elif test == "tukey":
            res, av = stats.tukey_hsd(X, a, b)
            anova[mname] = _anova_row(av)
            with np.errstate(divide="ignore", invalid="ignore"):
                effect = np.where(delta == 0, 0.0, delta / math.sqrt(av.V_E))
        else:
            assert perms is not None
            # runs in name order, so that the draws do not depend on the order the runs came in
            ranges = stats.max_range(X[np.argsort(np.array(runs, dtype=object), kind="stable")], perms)
            res = stats.randomised_tukey(X, a, b, ranges, exact)
            av = stats.anova_two_way(X)
            anova[mname] = _anova_row(av)
            with np.errstate(divide="ignore", invalid="ignore"):
                effect = np.where(delta == 0, 0.0, delta / math.sqrt(av.V_E))
        if test in SIMULTANEOUS:
            p_adj, reject = res.p.copy(), res.p <= alpha
            if test == "tukey":
                half = stats.tukey_half_width(stats.anova_two_way(X), k, n, ci)
            else:
                half = float(np.quantile(ranges, ci, method="higher"))
            lo = np.where(delta == 0, 0.0, delta - half)
            hi = np.where(delta == 0, 0.0, delta + half)
        else:
            p_adj, reject = stats.correct(res.p, alpha, correction)
            level = stats.interval_level(ci, correction, m, int(reject.sum()))
            lo, hi = stats.t_interval(d, level)
        with np.errstate(divide="ignore", invalid="ignore"):
            pct = np.where(mean[a] != 0, 100.0 * delta / mean[a], np.nan)
        if summary_of_name(mname) == SUM:  # a count: its one number is the sum over the topics
            mean, delta, lo, hi = mean * n, delta * n, lo * n, hi * n
            means[mname] = {r: v * n for r, v in means[mname].items()}
            intervals[mname] = {r: (u * n, v * n) for r, (u, v) in intervals[mname].items()}
            notes.append(
                f"{mname} is a count: its values, differences and intervals are sums over the {n} topics"
            )
        frames.append(
            pd.DataFrame(
                {
                    "measure": mname,
                    "run_a": [runs[i] for i in a],
                    "run_b": [runs[j] for j in b],
                    "n": n,
                    "mean_a": mean[a],
                    "mean_b": mean[b],
                    "delta": delta,
                    "delta_pct": pct,
                    "ci_low": lo,
                    "ci_high": hi,
                    "effect": effect,
                    "statistic": res.statistic,
                    "df": res.df,
                    "p": res.p,
                    "p_adj": p_adj,
                    "reject": reject.astype(bool),
                    "wins": wins.astype(np.int64),
                    "ties": ties.astype(np.int64),
                    "losses": losses.astype(np.int64),
                }
            )
        )
    pairs = pd.concat(frames, ignore_index=True)[list(COLUMNS)]
    return Comparison(
        runs=runs,
        measures=measures,
        query_ids=query_ids,
        means=means,
        pairs=pairs,
        baseline=[runs[i] for i in base] if base is not None else None,
        missing=missing,
        params=params,
        notes=notes,
        anova=anova,
        metadata=metadata,
        intervals=intervals,
    )
