"""Robustness to incomplete judgements (Magdy & Jones, ECIR 2010 / SIGIR 2010 section 6.3).

Question: if only a fraction f of the relevant documents were known, would a measure still rank
the systems the same way?

1. For each fraction f and sample s = 1..S, an f-qrels (:mod:`.sampling`): per topic,
   ``max(1, round(f n))`` of its n relevant documents are kept, the others dropped from the
   qrels (unjudged); judged non-relevant lines stay.
2. Every run is scored with every measure on the full qrels and on each f-qrels; systems are
   ranked by each measure's one number over all qrels topics, by its own rule (the mean; GMAP's
   and GMBpref's geometric mean; a count's sum). Runs are ranked once; only labels change.
3. Kendall's tau-b (:func:`._stats.kendall_tau`) between the system ranking under each f-qrels
   and under the full qrels, per measure (each cutoff is its own measure).
4. Voorhees' reading: tau >= 0.9 equivalent rankings, tau < 0.8 noticeably different.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

from ..runtime.progress import progress_bar
from ._core import Core, MeasureSpec, measure_parts
from ._output import PaperTable, SavedResult, best
from ._stats import kendall_tau, require
from .sampling import check_fraction, f_qrels_mask, new_seed, sample_rng

DEFAULT_FRACTIONS = (0.2, 0.4, 0.6, 0.8)


@dataclass
class RobustnessResult(SavedResult):
    """Tables of a robustness experiment.

    * ``samples``: one row per (measure, fraction, sample): ``tau``, ``p_value``,
      ``relevant_kept`` (relevant qrels lines in that f-qrels), ``relevant_total``;
    * ``summary``: one row per (measure, fraction): ``mean_tau``, ``min_tau`` (what the paper
      plots), ``max_tau``, ``sd_tau`` (sd over the samples, ddof 1: the Monte Carlo spread of
      the random reduction, NaN for one sample), ``samples``;
    * ``scores``: the one number (the mean; a geometric mean or a sum where that is the
      measure's rule) of every run under every qrels version: ``run``, ``measure``,
      ``fraction`` (1.0 = full qrels), ``sample`` (0 = full qrels), ``value``.
    """

    TABLES = ("samples", "summary", "scores")
    PREFIX = "robustness"

    samples: Any
    summary: Any
    scores: Any
    seed: int
    measures: List[str] = field(default_factory=list)

    def paper_table(self) -> PaperTable:
        """Lowest Kendall's tau (2 places, as Magdy & Jones print tau) per measure (rows) and
        per cent of the relevant documents kept (columns); the highest per column in bold."""
        require("pandas")
        import numpy as np
        import pandas as pd

        t = self.summary.pivot(index="measure", columns="fraction", values="min_tau").reindex(self.measures)
        values = np.round(t.to_numpy(dtype=np.float64), 2)
        cells = pd.DataFrame(
            [[f"{v:.2f}" for v in row] for row in values],
            index=pd.Index(self.measures, name="measure"),
            columns=[f"{100 * f:g}%" for f in t.columns],
        )
        bold = best(values, [True] * values.shape[1], axis=0)
        samples = int(self.summary["samples"].iloc[0]) if len(self.summary) else 0
        caption = (
            "Lowest Kendall's τ between the system rankings under the full qrels and under qrels "
            f"keeping a share of each topic's relevant documents ({samples} samples per share)."
        )
        return PaperTable(cells, bold, caption, "measure")

    def plot(self, path: Optional[str] = None, **kwargs: Any) -> Any:
        """Lowest tau against the fraction, one line per measure (see :func:`.plots.plot_robustness`)."""
        from ..plots.meta import plot_robustness

        return plot_robustness(self, path, **kwargs)


def refuse_judgements_elsewhere(measures: Sequence[Any], labels: Sequence[str], core: Any = None) -> None:
    """f-qrels remove judgements from the qrels; a measure whose judgements come from a file of
    its own (statAP's ``prels=``, the diversity measures' ``dqrels=``) would score every f-qrels
    as the full judgements, a robustness of 1 that measures nothing: such a measure is refused
    (ValueError). A diversity measure without ``dqrels=`` reads its intents from the qrels'
    iteration column, which the f-qrels do reduce (:meth:`~..engine.scores.Core.reduced_qrels`):
    it is accepted, once ``core`` (when given) shows that the qrels hold those intents."""
    from ..measures.catalogue import entry_of
    from ..measures.diversity.scoring import needs_qrels_intents

    def sampled(m: Any) -> bool:
        return needs_qrels_intents([m]) and (core is None or core.qrels_intents() is not None)

    outside = [
        label
        for m, label in zip(measures, labels)
        if getattr(entry_of(m), "judgements_elsewhere", False) and not sampled(m)
    ]
    if outside:
        one = len(outside) == 1
        raise ValueError(
            f"robustness removes judgements from the qrels, but {', '.join(outside)} "
            f"{'reads its' if one else 'read their'} judgements from a file of "
            f"{'its' if one else 'their'} own (prels=, dqrels=), which the reduced qrels leave "
            f"whole: every reduction would score as the full judgements; leave "
            f"{'it' if one else 'them'} out (a diversity measure without dqrels= reads its "
            "intents from the qrels' iteration column, which the reduction does reach)"
        )


def _at_values(values: Any) -> Any:
    """The ``cutoff`` column: each measure's ``@`` value, an integer column (missing values
    allowed) when every one is a whole number (``AP@10``), else a float one (``RprecMult@0.2``,
    ``IPrec@0.5``); any other kind of value is kept as it is."""
    present = [v for v in values if v is not None]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return values
    whole = all(float(v).is_integer() for v in present)
    return values.astype("Int64" if whole else "Float64")


def robustness(
    qrels: Any = None,
    runs: Any = None,
    measures: Optional[MeasureSpec] = None,
    fractions: Sequence[float] = DEFAULT_FRACTIONS,
    samples: int = 3,
    seed: Optional[int] = 0,
    rel: int = 1,
    progress: Optional[bool] = None,
    core: Optional[Core] = None,
) -> RobustnessResult:
    """Kendall's tau between system rankings under the full qrels and under f-qrels.

    Parameters
    ----------
    qrels, runs:
        a qrels path or object; runs as a directory, a list of paths or run objects, or a mapping
        name -> path or run object (see :func:`._core.resolve_runs`).
    measures:
        ir_measures syntax (``"PRES@100 AP@100 R@100"``) or measure objects, any mix of this
        package's measures and standard ones.
    fractions, samples, seed:
        the f values, samples per f, and the seed (None: a fresh seed, reported in the result).
    rel:
        minimum label of a relevant document for the sampling.
    core:
        an already built :class:`._core.Core` (then qrels, runs and measures are ignored).

    Example
    -------
    >>> res = robustness("qrels.txt", "runs/", "PRES@100 AP@100 R@100", seed=1)  # doctest: +SKIP
    >>> res.summary.pivot(index="fraction", columns="measure", values="min_tau")  # doctest: +SKIP
    """
    require("pandas")
    require("scipy")
    import pandas as pd

    fractions = [check_fraction(f) for f in fractions]
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    seed = new_seed(seed)
    if core is None:
        if qrels is None or runs is None or measures is None:
            raise ValueError("give qrels, runs and measures (or an evaluation core: core=Core(...))")
        core = Core(qrels, runs, measures, progress=progress, command="robustness")
    labels = core.measure_labels
    refuse_judgements_elsewhere(core.measures, labels, core)
    full = core.summaries(core.evaluate())  # each measure's one number: its own rule
    # a document relevant to one of its intents is relevant (diversity measures on the qrels'
    # intents); else the qrels' labels
    sampling = core.sampling_labels()
    relevant = sampling >= rel
    n_q = len(core.query_ids)
    sample_rows = []
    score_rows = [
        (name, m, 1.0, 0, float(full[i, j]))
        for i, m in enumerate(labels)
        for j, name in enumerate(core.run_names)
    ]
    with progress_bar(len(fractions) * samples, "f-qrels", progress) as bar:
        for f in fractions:
            for s in range(1, samples + 1):
                keep = f_qrels_mask(core.line_qidx, sampling, n_q, f, sample_rng(seed, f, s), rel)
                means = core.summaries(core.evaluate(keep))
                kept = int((keep & relevant).sum())
                for i, m in enumerate(labels):
                    tau, p = kendall_tau(full[i], means[i])
                    base, cutoff = measure_parts(core.measures[i])
                    sample_rows.append((m, base, cutoff, f, s, tau, p, kept, int(relevant.sum())))
                    score_rows.extend(
                        (name, m, f, s, float(means[i, j])) for j, name in enumerate(core.run_names)
                    )
                bar.update()
    samples_df = pd.DataFrame(
        sample_rows,
        columns=[
            "measure",
            "base",
            "cutoff",
            "fraction",
            "sample",
            "tau",
            "p_value",
            "relevant_kept",
            "relevant_total",
        ],
    )
    samples_df["cutoff"] = _at_values(samples_df["cutoff"])
    summary = (
        samples_df.groupby(["measure", "fraction"], sort=False)
        .agg(
            base=("base", "first"),
            cutoff=("cutoff", "first"),
            mean_tau=("tau", "mean"),
            min_tau=("tau", "min"),
            max_tau=("tau", "max"),
            sd_tau=("tau", "std"),
            samples=("tau", "size"),
        )
        .reset_index()
    )
    scores = pd.DataFrame(score_rows, columns=["run", "measure", "fraction", "sample", "value"])
    return RobustnessResult(samples_df, summary, scores, seed, list(labels))


def robustness_table(result: RobustnessResult, statistic: str = "min_tau") -> Any:
    """The summary as the paper prints it: one row per fraction, one column per measure."""
    return result.summary.pivot(index="fraction", columns="measure", values=statistic)[result.measures]
