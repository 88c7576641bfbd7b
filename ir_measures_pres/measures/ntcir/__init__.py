"""NTCIREVAL 190111's ``ntcir_eval compute``, whole: its measure families (:mod:`.measures`), their
kernels (:mod:`.kernels`), Sakai's Q, O, P and P+ (:mod:`.blended_ratio`) and what it computes
for a run (:mod:`.compute`); its lines are :mod:`ir_measures_pres.printers.ntcir`'s.
docs/ntcir.md has the table of names, formulas and citations."""

from .kernels import (
    check_levels,
    compute_bpref,
    compute_ebr,
    compute_err,
    compute_gap,
    compute_irbu,
    compute_msndcg,
    compute_ncu,
    compute_ndcg,
    compute_nerr,
    compute_rbp,
    compute_rpref,
)
from .measures import (
    EBR,
    GAP,
    NCU,
    NTCIR_ERR,
    NTCIR_RBP,
    MSnDCG,
    NTCIR_bpref,
    NTCIR_nDCG,
    NTCIR_nERR,
    NTCIR_rpref,
    iRBU,
)

__all__ = [
    "EBR",
    "GAP",
    "NCU",
    "MSnDCG",
    "NTCIR_ERR",
    "NTCIR_RBP",
    "NTCIR_bpref",
    "NTCIR_nDCG",
    "NTCIR_nERR",
    "NTCIR_rpref",
    "iRBU",
    "check_levels",
    "compute_bpref",
    "compute_ebr",
    "compute_err",
    "compute_gap",
    "compute_irbu",
    "compute_msndcg",
    "compute_ncu",
    "compute_ndcg",
    "compute_nerr",
    "compute_rbp",
    "compute_rpref",
]
