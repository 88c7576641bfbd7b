"""Meta-evaluation: how researchers judge the measures themselves.

Each experiment is one call and one command, on a qrels plus a set of runs, for any mix of this
package's measures and standard ones (needs the ``meta`` extra, scipy, pandas and matplotlib:
``pip install '.[meta]'`` from a clone of the repository):

* :func:`robustness`: robustness to incomplete judgements (Magdy & Jones 2010): Kendall's tau
  between system rankings under the full qrels and under f-qrels;
* :func:`agreement`: Kendall's tau between measures and Wilcoxon agreement on run pairs
  (Magdy & Jones, SIGIR 2010);
* :func:`discriminative_power`: Sakai's paired bootstrap test (SIGIR 2006);
* :func:`stability`: Buckley & Voorhees' split-half error rate against the proportion of ties;
* :func:`sensitivity`: the swap method (Voorhees & Buckley 2002; Sakai's bootstrap variant):
  difference required and sensitivity, with their Monte Carlo spread.

All share one evaluation core (:class:`Core`): runs are ranked once (trec_eval order) and only
the relevance labels change between qrels versions. Only the agreement between measures depends on
which way a measure orders runs (:mod:`ir_measures_pres.measures.direction`: a lower-is-better
measure's better run is its lower-scoring one); the others compare one measure with itself or
test two-sided, the same whichever way it goes. Command line: ``ir_measures_pres robustness
| agreement | discriminative-power QRELS RUNS... -m MEASURES`` (or ``python -m
ir_measures_pres.meta ...``).
"""

from ._core import Core, Scores, evaluate, parse_measures
from .agreement import AgreementResult, agreement, agreement_from_scores
from .discrimination import (
    DiscriminativePowerResult,
    StabilityResult,
    discriminative_power,
    discriminative_power_from_scores,
    stability,
    stability_from_scores,
)
from .robustness import RobustnessResult, robustness, robustness_table
from .sampling import sample_qrels
from .sensitivity import SensitivityResult, sensitivity, sensitivity_from_scores

__all__ = [
    "robustness",
    "robustness_table",
    "RobustnessResult",
    "agreement",
    "agreement_from_scores",
    "AgreementResult",
    "discriminative_power",
    "discriminative_power_from_scores",
    "DiscriminativePowerResult",
    "stability",
    "stability_from_scores",
    "StabilityResult",
    "sensitivity",
    "sensitivity_from_scores",
    "SensitivityResult",
    "evaluate",
    "Scores",
    "Core",
    "parse_measures",
    "sample_qrels",
]
