"""Technology-assisted review (TAR) measures of the CLEF eHealth TAR labs (2017-2019).

A TAR run lists, per topic, the candidate documents in the order they were screened; the
organisers' tool (``tar_eval.py`` in 2017, ``tar_eval_2018.py`` in 2018 and 2019, repository
github.com/CLEF-TAR/tar) reads that order from the file. This package computes every per-topic
figure of both tools on *screening lists*: per topic block, the lines in file order with the
qrels value of their document and their column 2 (2017 interaction code, 2018 threshold flag).
docs/tar.md gives the measures and the differences between tools and papers.

* :mod:`.screening`: the screening lists (the tools' input rules), column 2's codes and flags;
* :mod:`.tools`: the 2017 and 2018 tools' per-topic figures (``tar2017``, ``tar2018``);
* :mod:`ir_measures_pres.printers.tar`: the lines the tools print from those figures (names, rounding, ALL);
* :mod:`.measures`: the measures registered with ir_measures and their ``compute_*`` kernels.

The names the rest of the package and its users import from ``ir_measures_pres.measures.tar``
are re-exported here.
"""

from ...data.column2 import attach_column2  # noqa: F401 - its old home
from .measures import (  # noqa: F401 - re-exported for importers of measures.tar
    TASK_PARAM,
    WSS,
    LastRel,
    NormArea,
    NumCandidates,
    NumFeedback,
    NumShown,
    RecallAtThreshold,
    RecallPct,
    TarCost,
    TarLoss,
    TarUtility,
    Threshold,
    compute_last_rel,
    compute_norm_area,
    compute_num_candidates,
    compute_num_feedback,
    compute_num_shown,
    compute_recall_at_threshold,
    compute_recall_pct,
    compute_tar_cost,
    compute_tar_loss,
    compute_tar_utility,
    compute_threshold,
    compute_wss,
)
from .screening import (  # noqa: F401 - re-exported for importers of measures.tar
    CODES_2017,
    TASK1_N,
    ScreeningLists,
    candidate_counts,
    codes_2017,
    flags_2018,
    from_file_order,
    from_ranked,
    screening_lists,
)
from .tools import (  # noqa: F401 - re-exported for importers of measures.tar
    TASK1_LEVELS,
    recall_2018_kernel,
    seen_lines,
    tar2017,
    tar2018,
    wss_kernel,
    wss_where_reached,
)

__all__ = [
    "CODES_2017",
    "ScreeningLists",
    "screening_lists",
    "tar2017",
    "NumCandidates",
    "NumFeedback",
    "NumShown",
    "LastRel",
    "WSS",
    "RecallPct",
    "NormArea",
    "TarLoss",
    "TarCost",
    "Threshold",
    "RecallAtThreshold",
    "TarUtility",
]
