"""Technology-assisted review (TAR) measures of the CLEF eHealth TAR labs (2017-2019).

The package computes every per-topic figure of the organisers' tools (github.com/CLEF-TAR/tar)
on *screening lists*, and registers the TAR measures with ir_measures; docs/tar.md gives the
measures and the differences between tools and papers. This module re-exports the names the
rest of the package and its users import from ``ir_measures_pres.measures.tar``.
"""

from ...data.column2 import attach_column2  # noqa: F401 - its old home
from .measures import (  # noqa: F401 - re-exported for importers of measures.tar
    CODES_2017,
    TASK1_LEVELS,
    TASK1_N,
    TASK_PARAM,
    WSS,
    LastRel,
    NormArea,
    NumCandidates,
    NumFeedback,
    NumShown,
    RecallAtThreshold,
    RecallPct,
    ScreeningLists,
    TarCost,
    TarLoss,
    TarUtility,
    Threshold,
    candidate_counts,
    codes_2017,
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
    flags_2018,
    from_file_order,
    from_ranked,
    recall_2018_kernel,
    screening_lists,
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
