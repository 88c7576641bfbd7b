"""Agreement between measures (Magdy & Jones, SIGIR 2010, section 6.2).

1. Kendall's tau-b between the system rankings (by mean score over all qrels topics) of each
   pair of measures.
2. For every pair of runs (X, Y) and every measure, a paired two-sided Wilcoxon signed-rank test
   over topics (:func:`ir_measures_pres.stats.wilcoxon`: ``scipy.stats.wilcoxon`` on the
   differences rounded to 12 places, zero differences dropped,
   ``zero_method='wilcox'``) at the chosen confidence: p < 1 - confidence gives "first better"
   (X) or "second better" (Y) by the larger signed-rank sum, otherwise "indistinguishable". Two
   identical runs have only zero differences: indistinguishable (p = 1), never an error.
3. For each pair of measures: how many run pairs they classify alike (agree) or not
   (disagree: only one of them finds a significant difference, or both in opposite
   directions); for each triple, how often two measures agree and the third disagrees.

"Better" and a system ranking follow each measure's direction
(:func:`~ir_measures_pres.measures.direction.direction_of_name`, from the measure's label): for
a lower-is-better measure (``unj@10``, ``E@10``, ``TarLoss`` ...) the run with the lower scores is
the better one and ranks first, so that it agrees with AP when both prefer the same run and tau
is not turned negative; a measure of neither direction (``NumRet`` ...) or a label the catalogue
does not read is taken by its values (better = higher).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, List, Optional

import numpy as np

from ..measures.direction import direction_of_name, orientation
from ..runtime.progress import progress_bar
from ..stats.significance import DECIMALS, ZERO_METHOD, kendall_tau, require, wilcoxon
from ._core import Core, MeasureSpec, Scores, iter_pairs
from ._output import PaperTable, SavedResult

FIRST, SECOND, TIE = "first better", "second better", "indistinguishable"


def _cutoff(label: str) -> Optional[str]:
    """The ``@`` value of a measure label (``"AP@100"`` -> ``"100"``), None without one."""
    match = re.search(r"@([^@()]+)$", label)
    return match.group(1) if match else None


@dataclass
class AgreementResult(SavedResult):
    """Tables of an agreement experiment.

    * ``tau``: ``measure_a``, ``measure_b``, ``tau``, ``p_value`` for each pair of measures;
    * ``pairs``: each run pair and measure: ``run_a``, ``run_b``, ``measure``, ``mean_a``,
      ``mean_b``, ``statistic``, ``p_value``, ``outcome`` (first better / second better /
      indistinguishable);
    * ``counts``: each pair of measures: ``agree`` (= ``agree_significant`` +
      ``agree_indistinguishable``), ``disagree`` (= ``only_a_significant`` +
      ``only_b_significant`` + ``opposite``), ``agreement_rate``;
    * ``triples``: ``measure_a`` and ``measure_b`` agree while ``dissenting`` disagrees with
      them: ``count``, ``share`` of all run pairs, ``share_of_agreements`` of the pairs where
      a and b agree; ``same_cutoff`` when the three share one ``@`` value (the paper's
      comparisons: MAP, Recall and PRES at one cut-off);
    * ``means``: mean score of every run per measure.
    """

    TABLES = ("tau", "pairs", "counts", "triples", "means")
    PREFIX = "agreement"

    tau: Any
    pairs: Any
    counts: Any
    triples: Any
    means: Any
    confidence: float
    measures: List[str] = field(default_factory=list)

    def paper_table(self) -> PaperTable:
        """Kendall's tau between the measures' system rankings (2 places, as Magdy & Jones print
        it), lower triangle; no bold (no value is better)."""
        import pandas as pd

        names = self.measures
        index = {m: i for i, m in enumerate(names)}
        cells = [["" for _ in names] for _ in names]
        for row in self.tau.itertuples():
            i, j = index[row.measure_a], index[row.measure_b]
            cells[max(i, j)][min(i, j)] = f"{row.tau:.2f}"
        df = pd.DataFrame(cells, index=pd.Index(names, name="measure"), columns=names)
        df = df.iloc[1:, :-1] if len(names) > 1 else df
        return PaperTable(
            df,
            np.zeros(df.shape, dtype=bool),
            "Kendall's τ between the system rankings of the measures.",
            "measure",
        )

    def plot(self, path: Optional[str] = None, **kwargs: Any) -> Any:
        """Heat map of Kendall's tau between measures (:func:`.plots.plot_tau_matrix`)."""
        from ..plots.meta import plot_tau_matrix

        return plot_tau_matrix(self, path, **kwargs)


def agreement(
    qrels: Any = None,
    runs: Any = None,
    measures: Optional[MeasureSpec] = None,
    confidence: float = 0.95,
    zero_method: str = ZERO_METHOD,
    progress: Optional[bool] = None,
    core: Optional[Core] = None,
    method: str = "auto",
) -> AgreementResult:
    """Kendall's tau between measures and Wilcoxon agreement on every pair of runs.

    >>> res = agreement("qrels.txt", "runs/", "PRES@1000 AP@1000 R@1000")  # doctest: +SKIP
    >>> res.counts[["measure_a", "measure_b", "agree", "disagree"]]  # doctest: +SKIP
    """
    if core is None:
        if qrels is None or runs is None or measures is None:
            raise ValueError("give qrels, runs and measures (or an evaluation core: core=Core(...))")
        core = Core(qrels, runs, measures, progress=progress, command="agreement")
    return agreement_from_scores(core.scores(), confidence, zero_method, progress, method)


def agreement_from_scores(
    scores: Scores,
    confidence: float = 0.95,
    zero_method: str = ZERO_METHOD,
    progress: Optional[bool] = None,
    method: str = "auto",
) -> AgreementResult:
    """:func:`agreement` on per-query scores already computed (e.g. :func:`._core.evaluate`).

    ``zero_method`` and ``method`` go to ``scipy.stats.wilcoxon`` (see
    :func:`ir_measures_pres.stats.wilcoxon`;
    ``method="asymptotic"`` avoids scipy's slow exhaustive permutation test for <= 13 topics). The
    per-topic differences are rounded to 12 places first (meta-evaluation spec 3.5: differences
    equal in exact arithmetic tie in the ranking, zero differences are dropped).
    """
    require("pandas")
    require("scipy")
    import pandas as pd

    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    alpha = 1.0 - confidence
    values = scores.values
    names, runs = scores.measures, scores.runs
    means = values.mean(axis=2)
    # +1 / -1: larger / smaller is better; oriented, the rankings and outcomes say "better"
    sign = np.array([orientation(direction_of_name(str(m))) for m in names], dtype=np.float64)
    tau_rows = []
    for a, b in combinations(range(len(names)), 2):
        tau, p = kendall_tau(sign[a] * means[a], sign[b] * means[b])
        tau_rows.append((names[a], names[b], tau, p))
    tau_df = pd.DataFrame(tau_rows, columns=["measure_a", "measure_b", "tau", "p_value"])

    pairs = list(iter_pairs(len(runs)))
    outcome = np.empty((len(names), len(pairs)), dtype=object)
    pair_rows = []
    with progress_bar(len(pairs) * len(names), "Wilcoxon tests", progress) as bar:
        for k, (i, j) in enumerate(pairs):
            for m in range(len(names)):
                stat, p, direction = wilcoxon(
                    values[m, i], values[m, j], zero_method, method, decimals=DECIMALS
                )
                direction *= sign[m]
                res = TIE if not p < alpha or direction == 0 else (FIRST if direction > 0 else SECOND)
                outcome[m, k] = res
                pair_rows.append((runs[i], runs[j], names[m], means[m, i], means[m, j], stat, p, res))
            bar.update(len(names))
    pairs_df = pd.DataFrame(
        pair_rows,
        columns=["run_a", "run_b", "measure", "mean_a", "mean_b", "statistic", "p_value", "outcome"],
    )

    n_pairs = len(pairs)
    count_rows = []
    for a, b in combinations(range(len(names)), 2):
        oa, ob = outcome[a], outcome[b]
        same = oa == ob
        sig_a, sig_b = oa != TIE, ob != TIE
        count_rows.append(
            (
                names[a],
                names[b],
                n_pairs,
                int(same.sum()),
                int((same & sig_a).sum()),
                int((same & ~sig_a).sum()),
                int((~same).sum()),
                int((sig_a & ~sig_b).sum()),
                int((~sig_a & sig_b).sum()),
                int((sig_a & sig_b & ~same).sum()),
                float(same.mean()) if n_pairs else float("nan"),
            )
        )
    counts_df = pd.DataFrame(
        count_rows,
        columns=[
            "measure_a",
            "measure_b",
            "pairs",
            "agree",
            "agree_significant",
            "agree_indistinguishable",
            "disagree",
            "only_a_significant",
            "only_b_significant",
            "opposite",
            "agreement_rate",
        ],
    )

    triple_rows = []
    for a, b in combinations(range(len(names)), 2):
        agree = outcome[a] == outcome[b]
        for c in range(len(names)):
            if c in (a, b):
                continue
            dissent = agree & (outcome[c] != outcome[a])
            n_agree = int(agree.sum())
            same_cutoff = _cutoff(names[a]) == _cutoff(names[b]) == _cutoff(names[c])
            triple_rows.append(
                (
                    names[a],
                    names[b],
                    names[c],
                    same_cutoff,
                    n_pairs,
                    n_agree,
                    int(dissent.sum()),
                    dissent.sum() / n_pairs if n_pairs else float("nan"),
                    dissent.sum() / n_agree if n_agree else float("nan"),
                )
            )
    triples_df = pd.DataFrame(
        triple_rows,
        columns=[
            "measure_a",
            "measure_b",
            "dissenting",
            "same_cutoff",
            "pairs",
            "a_b_agree",
            "count",
            "share",
            "share_of_agreements",
        ],
    )
    means_df = pd.DataFrame(means.T, index=pd.Index(runs, name="run"), columns=names).reset_index()
    return AgreementResult(tau_df, pairs_df, counts_df, triples_df, means_df, confidence, list(names))
